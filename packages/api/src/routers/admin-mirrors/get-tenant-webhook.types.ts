import type { OpenApiMeta } from "trpc-to-openapi";
import type { SvcMeta } from "../../trpc.ts";
import { ZGetWebhookRequestSchema, ZGetWebhookResponseSchema } from "../webhooks/get-webhook.types.ts";
import { ZAdminErrors } from "../admin-providers/admin-provider.schema.ts";
import { MIRROR_NOTE, ZTenantPath } from "./admin-mirror.schema.ts";

export const getTenantWebhookMeta: OpenApiMeta<SvcMeta> = {
  openapi: {
    method: "GET",
    path: "/v1/admin/tenants/{tenant_id}/webhooks/{webhook_id}",
    tags: ["admin"],
    summary: "Get a tenant's webhook endpoint",
    description: `As GET /v1/webhooks/{webhook_id}: never the secret. ${MIRROR_NOTE} Audit action \`webhook.read\`.`,
    errorResponses: { 400: "tenant_id or webhook_id is not a uuid", ...ZAdminErrors, 404: "No such tenant, or no such endpoint of the tenant" },
  },
};

export const ZGetTenantWebhookRequestSchema = ZGetWebhookRequestSchema.extend(ZTenantPath);

export const ZGetTenantWebhookResponseSchema = ZGetWebhookResponseSchema;
