import { sendTestEvent, webhookDeliveryPath } from "@svc/core";
import { tenantProcedure } from "../../middlewares/authenticate.ts";
import { testWebhookMeta, ZTestWebhookRequestSchema, ZTestWebhookResponseSchema } from "./test-webhook.types.ts";

export const testWebhook = tenantProcedure
  .meta(testWebhookMeta)
  .input(ZTestWebhookRequestSchema)
  .output(ZTestWebhookResponseSchema)
  .mutation(async ({ ctx, input }) => {
    const delivery = await sendTestEvent(ctx.deps, ctx.principal.tenantId, input.webhook_id, { event_type: input.event_type });
    ctx.response.status = 202;
    ctx.response.headers.Location = webhookDeliveryPath(input.webhook_id, delivery.id);
    return delivery;
  });
