import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { SvcMeta } from "../../trpc.ts";
import { ZRotateWebhookSecretRequestSchema, ZRotateWebhookSecretResponseSchema } from "../webhooks/rotate-webhook-secret.types.ts";
import { ZAdminErrors } from "../admin-providers/admin-provider.schema.ts";
import { ZTenantPath } from "./admin-mirror.schema.ts";

export const rotateTenantWebhookSecretMeta: OpenApiMeta<SvcMeta> = {
  openapi: {
    method: "POST",
    path: "/v1/admin/tenants/{tenant_id}/webhooks/{webhook_id}/rotate-secret",
    tags: ["admin"],
    summary: "Rotate a tenant's webhook secret",
    description:
      "As POST /v1/webhooks/{webhook_id}/rotate-secret: the new secret, this once, used from the next attempt on; hand it to the tenant. Location points at the endpoint's admin route. Recorded (without the secret) as audit `webhook.rotate_secret` in the instance's log and the tenant's, in the same transaction.",
    responseHeaders: z.object({
      "Cache-Control": z.literal("no-store"),
      Location: z.string().describe("/v1/admin/tenants/{tenant_id}/webhooks/{webhook_id} of the endpoint."),
    }),
    errorResponses: { 400: "tenant_id or webhook_id is not a uuid", ...ZAdminErrors, 404: "No such tenant, or no such endpoint of the tenant" },
  },
};

export const ZRotateTenantWebhookSecretRequestSchema = ZRotateWebhookSecretRequestSchema.extend(ZTenantPath);

export const ZRotateTenantWebhookSecretResponseSchema = ZRotateWebhookSecretResponseSchema;
