import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { SvcMeta } from "../../trpc.ts";
import { ZDeliveryPath, ZWebhookDeliveryDetail } from "./webhook.schema.ts";

export const retryWebhookDeliveryMeta: OpenApiMeta<SvcMeta> = {
  openapi: {
    method: "POST",
    path: "/v1/webhooks/{webhook_id}/deliveries/{delivery_id}/retry",
    tags: ["webhooks"],
    summary: "Retry a webhook delivery",
    description:
      "Queues a done or parked delivery again from its first attempt: status, attempts, last_status_code, last_error and delivered_at start over; the attempt history goes on. The same event id and payload are sent, signed with the current secret and timestamp.",
    errorResponses: {
      400: "webhook_id is not a uuid, or delivery_id is not a positive integer",
      401: "Missing, wrong or expired secret",
      403: "Not a tenant API key",
      404: "No such endpoint in the tenant, or no such delivery of the endpoint",
      409: "The delivery is pending or running, or the endpoint is disabled",
    },
  },
  successStatus: 202,
};

export const ZRetryWebhookDeliveryRequestSchema = z.strictObject(ZDeliveryPath);

export const ZRetryWebhookDeliveryResponseSchema = ZWebhookDeliveryDetail;
