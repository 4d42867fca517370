import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { SvcMeta } from "../../trpc.ts";
import { ZDeliveryPath, ZWebhookDeliveryDetail } from "./webhook.schema.ts";

export const getWebhookDeliveryMeta: OpenApiMeta<SvcMeta> = {
  openapi: {
    method: "GET",
    path: "/v1/webhooks/{webhook_id}/deliveries/{delivery_id}",
    tags: ["webhooks"],
    summary: "Get a webhook delivery",
    description: "One delivery with the exact body it sends (payload) and its last 20 attempts, oldest first.",
    errorResponses: {
      400: "webhook_id is not a uuid, or delivery_id is not a positive integer",
      401: "Missing, wrong or expired secret",
      403: "Not a tenant API key",
      404: "No such endpoint in the tenant, or no such delivery of the endpoint",
    },
  },
};

export const ZGetWebhookDeliveryRequestSchema = z.object(ZDeliveryPath);

export const ZGetWebhookDeliveryResponseSchema = ZWebhookDeliveryDetail;
