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
        "What was done: `tenant.provider`, `tenant.provider_keys`, `tenant.provider_keys.delete`, `config.read`, `instance.provider`, `instance.provider_keys`, `instance.provider.delete`, `webhook.create`, `webhook.update`, `webhook.delete`, `webhook.read`, `webhook.rotate_secret`, `samples.read`, `samples.stats.read`, `connections.read`, `sync_run.read`, `deletion.read`, `pipeline.read`, `audit_log.read`, and others. Every read ends in `.read`; every other action changes something (see `writes_only`).",
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

/** Optional filters of every audit log route; given together, an entry must match each. */
export const ZAuditLogFilters = {
  actor_id: z.uuid().describe("Only entries of this actor: the id of an instance admin key or tenant API key.").optional(),
  actor_kind: z.enum(["admin", "tenant"]).describe("Only entries of instance admin keys (`admin`) or tenant API keys (`tenant`).").optional(),
  action: z
    .string()
    .min(1)
    .max(64)
    .describe("Only entries of this action, exactly (e.g. `tenant.provider`).")
    .optional(),
  writes_only: z
    .enum(["true", "false"])
    .describe("`true`: only actions that change something, leaving out reads (every action ending in `.read`).")
    .optional(),
  user_id: z.uuid().describe("Only entries about this user.").optional(),
};

export const ZAuditLogResponseSchema = ZPage(ZAuditEntry);
