import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { SvcMeta } from "../../trpc.ts";
import { ZEventTypes, ZWebhookDescription, ZWebhookEndpoint, ZWebhookSecret, ZWebhookUrl } from "./webhook.schema.ts";

export const createWebhookMeta: OpenApiMeta<SvcMeta> = {
  openapi: {
    method: "POST",
    path: "/v1/webhooks",
    tags: ["webhooks"],
    summary: "Create a webhook endpoint",
    description:
      "Registers a URL that receives signed events. The answer carries the signing secret once; it cannot be read again (rotate-secret makes a new one). A tenant has at most 20 endpoints.",
    responseHeaders: z.object({ "Cache-Control": z.literal("no-store") }),
    errorResponses: {
      400: "Invalid body: url not https or pointing at a private, loopback or link-local address, an unknown event type, description too long",
      401: "Missing, wrong or expired secret",
      403: "Not a tenant API key",
      409: "The tenant already has 20 endpoints",
    },
  },
  successStatus: 201,
};

export const ZCreateWebhookRequestSchema = z.strictObject({
  url: ZWebhookUrl,
  event_types: ZEventTypes.optional(),
  description: ZWebhookDescription.optional(),
});

export const ZCreateWebhookResponseSchema = ZWebhookEndpoint.extend({ secret: ZWebhookSecret });
