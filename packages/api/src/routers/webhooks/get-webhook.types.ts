import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { SvcMeta } from "../../trpc.ts";
import { ZWebhookEndpoint, ZWebhookPath } from "./webhook.schema.ts";

export const getWebhookMeta: OpenApiMeta<SvcMeta> = {
  openapi: {
    method: "GET",
    path: "/v1/webhooks/{webhook_id}",
    tags: ["webhooks"],
    summary: "Get a webhook endpoint",
    description: "One endpoint with failing_since and last_success_at, never with its secret.",
    errorResponses: {
      400: "webhook_id is not a uuid",
      401: "Missing, wrong or expired secret",
      403: "Not a tenant API key",
      404: "No such endpoint in the tenant",
    },
  },
};

export const ZGetWebhookRequestSchema = z.object(ZWebhookPath);

export const ZGetWebhookResponseSchema = ZWebhookEndpoint;
