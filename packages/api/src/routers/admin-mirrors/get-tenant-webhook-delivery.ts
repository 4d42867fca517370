import { auditContextOf, getWebhookDeliveryForAdmin } from "@svc/core";
import { adminProcedure } from "../../middlewares/authenticate.ts";
import {
  getTenantWebhookDeliveryMeta,
  ZGetTenantWebhookDeliveryRequestSchema,
  ZGetTenantWebhookDeliveryResponseSchema,
} from "./get-tenant-webhook-delivery.types.ts";

export const getTenantWebhookDelivery = adminProcedure
  .meta(getTenantWebhookDeliveryMeta)
  .input(ZGetTenantWebhookDeliveryRequestSchema)
  .output(ZGetTenantWebhookDeliveryResponseSchema)
  .query(({ ctx, input }) =>
    getWebhookDeliveryForAdmin(ctx.deps, auditContextOf(ctx.principal, ctx.requestId), input.tenant_id, input.webhook_id, input.delivery_id),
  );
