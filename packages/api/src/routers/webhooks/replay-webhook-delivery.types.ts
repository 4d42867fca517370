import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { SvcMeta } from "../../trpc.ts";
import { ZDeliveryPath, ZWebhookDeliveryDetail } from "./webhook.schema.ts";

export const replayWebhookDeliveryMeta: OpenApiMeta<SvcMeta> = {
  openapi: {
    method: "POST",
    path: "/v1/webhooks/{webhook_id}/deliveries/{delivery_id}/replay",
    tags: ["webhooks"],
    summary: "Replay a webhook delivery",
    description:
      "Queues a new delivery of the same event (same event id and payload, signed with the current secret and timestamp) with replay_of naming the original. At most 10 replays of an endpoint wait at once.",
    responseHeaders: z.object({ Location: z.string().describe("/v1/webhooks/{webhook_id}/deliveries/{delivery_id} of the new delivery.") }),
    errorResponses: {
      400: "webhook_id is not a uuid, or delivery_id is not a positive integer",
      401: "Missing, wrong or expired secret",
      403: "Not a tenant API key",
      404: "No such endpoint in the tenant, or no such delivery of the endpoint",
      409: "The original delivery is pending or running, or the endpoint is disabled",
      429: "10 replays of the endpoint are already waiting; see Retry-After",
    },
  },
  successStatus: 202,
};

export const ZReplayWebhookDeliveryRequestSchema = z.strictObject(ZDeliveryPath);

export const ZReplayWebhookDeliveryResponseSchema = ZWebhookDeliveryDetail;
