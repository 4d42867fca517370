import { retryWebhookDelivery as retryWebhookDeliveryService } from "@svc/core";
import { tenantProcedure } from "../../middlewares/authenticate.ts";
import {
  retryWebhookDeliveryMeta,
  ZRetryWebhookDeliveryRequestSchema,
  ZRetryWebhookDeliveryResponseSchema,
} from "./retry-webhook-delivery.types.ts";

export const retryWebhookDelivery = tenantProcedure
  .meta(retryWebhookDeliveryMeta)
  .input(ZRetryWebhookDeliveryRequestSchema)
  .output(ZRetryWebhookDeliveryResponseSchema)
  .mutation(async ({ ctx, input }) => {
    const delivery = await retryWebhookDeliveryService(ctx.deps, ctx.principal.tenantId, input.webhook_id, input.delivery_id);
    ctx.response.status = 202;
    return delivery;
  });
