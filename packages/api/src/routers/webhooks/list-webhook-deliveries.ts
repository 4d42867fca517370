import { listWebhookDeliveries as listWebhookDeliveriesService } from "@svc/core";
import { tenantProcedure } from "../../middlewares/authenticate.ts";
import {
  listWebhookDeliveriesMeta,
  ZListWebhookDeliveriesRequestSchema,
  ZListWebhookDeliveriesResponseSchema,
} from "./list-webhook-deliveries.types.ts";

export const listWebhookDeliveries = tenantProcedure
  .meta(listWebhookDeliveriesMeta)
  .input(ZListWebhookDeliveriesRequestSchema)
  .output(ZListWebhookDeliveriesResponseSchema)
  .query(({ ctx, input }) => {
    const { webhook_id, ...page } = input;
    return listWebhookDeliveriesService(ctx.deps.db, ctx.principal.tenantId, webhook_id, page);
  });
