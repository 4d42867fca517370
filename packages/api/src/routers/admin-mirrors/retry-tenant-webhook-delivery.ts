import { auditContextOf, retryWebhookDeliveryForAdmin } from "@svc/core";
import { adminProcedure } from "../../middlewares/authenticate.ts";
import {
  retryTenantWebhookDeliveryMeta,
  ZRetryTenantWebhookDeliveryRequestSchema,
  ZRetryTenantWebhookDeliveryResponseSchema,
} from "./retry-tenant-webhook-delivery.types.ts";

export const retryTenantWebhookDelivery = adminProcedure
  .meta(retryTenantWebhookDeliveryMeta)
  .input(ZRetryTenantWebhookDeliveryRequestSchema)
  .output(ZRetryTenantWebhookDeliveryResponseSchema)
  .mutation(async ({ ctx, input }) => {
    const audit = auditContextOf(ctx.principal, ctx.requestId);
    const delivery = await retryWebhookDeliveryForAdmin(ctx.deps, audit, input.tenant_id, input.webhook_id, input.delivery_id);
    ctx.response.status = 202;
    return delivery;
  });
