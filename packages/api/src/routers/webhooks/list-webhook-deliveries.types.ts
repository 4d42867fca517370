import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { SvcMeta } from "../../trpc.ts";
import { ZCursor, ZLimit, ZPage } from "../../schemas/common.ts";
import { ZWebhookDelivery, ZWebhookDeliveryStatus, ZWebhookPath } from "./webhook.schema.ts";

export const listWebhookDeliveriesMeta: OpenApiMeta<SvcMeta> = {
  openapi: {
    method: "GET",
    path: "/v1/webhooks/{webhook_id}/deliveries",
    tags: ["webhooks"],
    summary: "List deliveries of a webhook endpoint",
    description:
      "The endpoint's deliveries, newest first, optionally of one status. Items leave out payload and attempt_history: read one delivery for them. Finished deliveries are kept 30 days.",
    errorResponses: {
      400: "webhook_id is not a uuid, or an invalid status, limit or cursor",
      401: "Missing, wrong or expired secret",
      403: "Not a tenant API key",
      404: "No such endpoint in the tenant",
    },
  },
};

export const ZListWebhookDeliveriesRequestSchema = z.object({
  ...ZWebhookPath,
  status: ZWebhookDeliveryStatus.optional(),
  cursor: ZCursor,
  limit: ZLimit,
});

export const ZListWebhookDeliveriesResponseSchema = ZPage(ZWebhookDelivery);
