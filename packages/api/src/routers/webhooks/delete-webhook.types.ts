import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { SvcMeta } from "../../trpc.ts";
import { ZWebhookPath } from "./webhook.schema.ts";

export const deleteWebhookMeta: OpenApiMeta<SvcMeta> = {
  openapi: {
    method: "DELETE",
    path: "/v1/webhooks/{webhook_id}",
    tags: ["webhooks"],
    summary: "Delete a webhook endpoint",
    description: "Deletes the endpoint with every delivery of it, sent or not.",
    errorResponses: {
      400: "webhook_id is not a uuid",
      401: "Missing, wrong or expired secret",
      403: "Not a tenant API key",
      404: "No such endpoint in the tenant",
    },
  },
  successStatus: 204,
};

export const ZDeleteWebhookRequestSchema = z.object(ZWebhookPath);

export const ZDeleteWebhookResponseSchema = z.void();
