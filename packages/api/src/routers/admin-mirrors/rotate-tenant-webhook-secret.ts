import { auditContextOf, rotateWebhookSecretForAdmin } from "@svc/core";
import { adminProcedure } from "../../middlewares/authenticate.ts";
import {
  rotateTenantWebhookSecretMeta,
  ZRotateTenantWebhookSecretRequestSchema,
  ZRotateTenantWebhookSecretResponseSchema,
} from "./rotate-tenant-webhook-secret.types.ts";

export const rotateTenantWebhookSecret = adminProcedure
  .meta(rotateTenantWebhookSecretMeta)
  .input(ZRotateTenantWebhookSecretRequestSchema)
  .output(ZRotateTenantWebhookSecretResponseSchema)
  .mutation(async ({ ctx, input }) => {
    const audit = auditContextOf(ctx.principal, ctx.requestId);
    const rotated = await rotateWebhookSecretForAdmin(ctx.deps, audit, input.tenant_id, input.webhook_id);
    ctx.response.headers["Cache-Control"] = "no-store";
    ctx.response.headers.Location = `/v1/admin/tenants/${input.tenant_id}/webhooks/${input.webhook_id}`;
    return rotated;
  });
