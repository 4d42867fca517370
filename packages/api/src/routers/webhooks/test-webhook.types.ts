import { z } from "zod";
import { EVENT_TYPES } from "@svc/core";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { SvcMeta } from "../../trpc.ts";
import { ZWebhookDeliveryDetail, ZWebhookPath } from "./webhook.schema.ts";

export const testWebhookMeta: OpenApiMeta<SvcMeta> = {
  openapi: {
    method: "POST",
    path: "/v1/webhooks/{webhook_id}/test",
    tags: ["webhooks"],
    summary: "Send a test event",
    description:
      "Queues one delivery for this endpoint only, whatever its event_types, with test: true at the top level of the body. With no body it sends the generic webhook.test event (data: endpoint_id); with event_type it sends that type's sample about a non-existent user (user_id all zeros, external_ref sample-user). Answers the delivery; follow it at the URL in Location.",
    responseHeaders: z.object({ Location: z.string().describe("/v1/webhooks/{webhook_id}/deliveries/{delivery_id} of the new delivery.") }),
    errorResponses: {
      400: "webhook_id is not a uuid, or event_type is not an event type",
      401: "Missing, wrong or expired secret",
      403: "Not a tenant API key",
      404: "No such endpoint in the tenant",
      409: "The endpoint is disabled",
    },
  },
  successStatus: 202,
};

export const ZTestWebhookRequestSchema = z.strictObject({
  ...ZWebhookPath,
  event_type: z.enum(EVENT_TYPES).optional().describe("Send a sample of this event type; absent: webhook.test."),
});

export const ZTestWebhookResponseSchema = ZWebhookDeliveryDetail;
