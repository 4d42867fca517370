import { replayWebhookDelivery as replayWebhookDeliveryService, webhookDeliveryPath } from "@svc/core";
import { tenantProcedure } from "../../middlewares/authenticate.ts";
import {
  replayWebhookDeliveryMeta,
  ZReplayWebhookDeliveryRequestSchema,
  ZReplayWebhookDeliveryResponseSchema,
} from "./replay-webhook-delivery.types.ts";

export const replayWebhookDelivery = tenantProcedure
  .meta(replayWebhookDeliveryMeta)
  .input(ZReplayWebhookDeliveryRequestSchema)
  .output(ZReplayWebhookDeliveryResponseSchema)
  .mutation(async ({ ctx, input }) => {
    const delivery = await replayWebhookDeliveryService(ctx.deps, ctx.principal.tenantId, input.webhook_id, input.delivery_id);
    ctx.response.status = 202;
    ctx.response.headers.Location = webhookDeliveryPath(input.webhook_id, delivery.id);
    return delivery;
  });
