import { z } from "zod";
import { ZCursor, ZDateTime, ZLimit, ZPage } from "../../schemas/common.ts";

export const ZAuditEntry = z
  .object({
    id: z.uuid(),
    at: ZDateTime.describe("When it happened."),
    actor: z
      .object({ kind: z.enum(["admin", "tenant"]), id: z.uuid().describe("Id of the instance admin key or tenant API key that acted.") })
      .describe("Who acted."),
    action: z
      .string()
      .describe(
        "What was done: `tenant.provider`, `tenant.provider_keys`, `tenant.provider_keys.delete`, `config.read`, `instance.provider`, `instance.provider_keys`, `instance.provider.delete`, `webhook.create`, `webhook.update`, `webhook.delete`, `webhook.read`, `webhook.rotate_secret`, `samples.read`, `samples.stats.read`, `connections.read`, `sync_run.read`, `deletion.read`, `pipeline.read`, `audit_log.read`.",
      ),
    target: z
      .object({
        tenant_id: z.uuid().nullable().describe("The tenant acted on; null for the instance's own providers."),
        user_id: z.uuid().nullable(),
        provider: z.string().nullable(),
        resource_type: z.string().nullable().describe("`webhook`, `sync_run`, `deletion_job` or `quantity_type`, when the action names one resource."),
        resource_id: z.string().nullable(),
      })
      .describe("What the action was about."),
    request_id: z.string().nullable().describe("X-Request-Id of the call."),
  })
  .describe("One audit log entry. Never a secret or health value.");

export const ZAuditLogPage = { cursor: ZCursor, limit: ZLimit };

export const ZAuditLogResponseSchema = ZPage(ZAuditEntry);
