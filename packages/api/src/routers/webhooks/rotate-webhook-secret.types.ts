import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { SvcMeta } from "../../trpc.ts";
import { ZWebhookPath, ZWebhookSecret } from "./webhook.schema.ts";

export const rotateWebhookSecretMeta: OpenApiMeta<SvcMeta> = {
  openapi: {
    method: "POST",
    path: "/v1/webhooks/{webhook_id}/rotate-secret",
    tags: ["webhooks"],
    summary: "Rotate a webhook endpoint's secret",
    description:
      "Replaces the signing secret at once and answers the new one, this once. Every attempt from now on, retries of older deliveries included, is signed with it. Also the way out when the instance's encryption key changed and the stored secret no longer opens.",
    responseHeaders: z.object({ "Cache-Control": z.literal("no-store") }),
    errorResponses: {
      400: "webhook_id is not a uuid",
      401: "Missing, wrong or expired secret",
      403: "Not a tenant API key",
      404: "No such endpoint in the tenant",
    },
  },
};

export const ZRotateWebhookSecretRequestSchema = z.strictObject(ZWebhookPath);

export const ZRotateWebhookSecretResponseSchema = z.object({ secret: ZWebhookSecret });
