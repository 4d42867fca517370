import type { OpenApiMeta } from "trpc-to-openapi";
import type { SvcMeta } from "../../trpc.ts";
import { ZListWebhooksRequestSchema, ZListWebhooksResponseSchema } from "../webhooks/list-webhooks.types.ts";
import { ZAdminErrors } from "../admin-providers/admin-provider.schema.ts";
import { MIRROR_NOTE, ZTenantPath } from "./admin-mirror.schema.ts";

export const listTenantWebhooksMeta: OpenApiMeta<SvcMeta> = {
  openapi: {
    method: "GET",
    path: "/v1/admin/tenants/{tenant_id}/webhooks",
    tags: ["admin"],
    summary: "List a tenant's webhook endpoints",
    description: `As GET /v1/webhooks: oldest first, never a secret. ${MIRROR_NOTE} Audit action \`webhooks.read\`.`,
    errorResponses: { 400: "tenant_id is not a uuid, or an invalid limit or cursor", ...ZAdminErrors, 404: "No such tenant" },
  },
};

export const ZListTenantWebhooksRequestSchema = ZListWebhooksRequestSchema.extend(ZTenantPath);

export const ZListTenantWebhooksResponseSchema = ZListWebhooksResponseSchema;
