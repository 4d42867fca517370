import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { SvcMeta } from "../../trpc.ts";
import { ZEventTypes, ZWebhookDescription, ZWebhookEndpoint, ZWebhookPath, ZWebhookUrl } from "./webhook.schema.ts";

export const updateWebhookMeta: OpenApiMeta<SvcMeta> = {
  openapi: {
    method: "PATCH",
    path: "/v1/webhooks/{webhook_id}",
    tags: ["webhooks"],
    summary: "Change a webhook endpoint",
    description:
      "Changes the fields sent; the others stay. enabled false disables the endpoint (disabled_reason \"disabled by the tenant\") and parks its pending deliveries; enabled true makes it active again with disabled_reason and failing_since cleared. Parked deliveries stay parked: retry them one by one. Pending deliveries go to the new url from their next attempt on.",
    errorResponses: {
      400: "Invalid body: url not https or pointing at a private, loopback or link-local address, an unknown event type, description too long",
      401: "Missing, wrong or expired secret",
      403: "Not a tenant API key",
      404: "No such endpoint in the tenant",
    },
  },
};

export const ZUpdateWebhookRequestSchema = z.strictObject({
  ...ZWebhookPath,
  url: ZWebhookUrl.optional(),
  description: ZWebhookDescription.optional(),
  event_types: ZEventTypes.optional(),
  enabled: z.boolean().optional().describe("false disables the endpoint; true makes a disabled one active again."),
});

export const ZUpdateWebhookResponseSchema = ZWebhookEndpoint;
