import { auditContextOf, getWebhookForAdmin } from "@svc/core";
import { adminProcedure } from "../../middlewares/authenticate.ts";
import { getTenantWebhookMeta, ZGetTenantWebhookRequestSchema, ZGetTenantWebhookResponseSchema } from "./get-tenant-webhook.types.ts";

export const getTenantWebhook = adminProcedure
  .meta(getTenantWebhookMeta)
  .input(ZGetTenantWebhookRequestSchema)
  .output(ZGetTenantWebhookResponseSchema)
  .query(({ ctx, input }) => getWebhookForAdmin(ctx.deps, auditContextOf(ctx.principal, ctx.requestId), input.tenant_id, input.webhook_id));
