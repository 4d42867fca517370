import { getWebhookDelivery as getWebhookDeliveryService } from "@svc/core";
import { tenantProcedure } from "../../middlewares/authenticate.ts";
import { getWebhookDeliveryMeta, ZGetWebhookDeliveryRequestSchema, ZGetWebhookDeliveryResponseSchema } from "./get-webhook-delivery.types.ts";

export const getWebhookDelivery = tenantProcedure
  .meta(getWebhookDeliveryMeta)
  .input(ZGetWebhookDeliveryRequestSchema)
  .output(ZGetWebhookDeliveryResponseSchema)
  .query(({ ctx, input }) => getWebhookDeliveryService(ctx.deps, ctx.principal.tenantId, input.webhook_id, input.delivery_id));
