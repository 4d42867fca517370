import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { SvcMeta } from "../../trpc.ts";
import { ZCursor, ZLimit, ZPage } from "../../schemas/common.ts";
import { ZWebhookEndpoint } from "./webhook.schema.ts";

export const listWebhooksMeta: OpenApiMeta<SvcMeta> = {
  openapi: {
    method: "GET",
    path: "/v1/webhooks",
    tags: ["webhooks"],
    summary: "List webhook endpoints",
    description: "The tenant's endpoints, oldest first, never with their secrets.",
    errorResponses: { 400: "Invalid limit or cursor", 401: "Missing, wrong or expired secret", 403: "Not a tenant API key" },
  },
};

export const ZListWebhooksRequestSchema = z.object({ cursor: ZCursor, limit: ZLimit });

export const ZListWebhooksResponseSchema = ZPage(ZWebhookEndpoint);
