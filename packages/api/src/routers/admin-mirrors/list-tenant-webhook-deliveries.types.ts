import type { OpenApiMeta } from "trpc-to-openapi";
import type { SvcMeta } from "../../trpc.ts";
import { ZListWebhookDeliveriesRequestSchema, ZListWebhookDeliveriesResponseSchema } from "../webhooks/list-webhook-deliveries.types.ts";
import { ZAdminErrors } from "../admin-providers/admin-provider.schema.ts";
import { MIRROR_NOTE, ZTenantPath } from "./admin-mirror.schema.ts";

export const listTenantWebhookDeliveriesMeta: OpenApiMeta<SvcMeta> = {
  openapi: {
    method: "GET",
    path: "/v1/admin/tenants/{tenant_id}/webhooks/{webhook_id}/deliveries",
    tags: ["admin"],
    summary: "List deliveries of a tenant's webhook endpoint",
    description: `As GET /v1/webhooks/{webhook_id}/deliveries (newest first, optionally of one status). ${MIRROR_NOTE} Audit action \`webhook.deliveries.read\`.`,
    errorResponses: {
      400: "tenant_id or webhook_id is not a uuid, or an invalid status, limit or cursor",
      ...ZAdminErrors,
      404: "No such tenant, or no such endpoint of the tenant",
    },
  },
};

export const ZListTenantWebhookDeliveriesRequestSchema = ZListWebhookDeliveriesRequestSchema.extend(ZTenantPath);

export const ZListTenantWebhookDeliveriesResponseSchema = ZListWebhookDeliveriesResponseSchema;
