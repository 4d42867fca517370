import type { OpenApiMeta } from "trpc-to-openapi";
import type { SvcMeta } from "../../trpc.ts";
import { ZGetWebhookDeliveryRequestSchema, ZGetWebhookDeliveryResponseSchema } from "../webhooks/get-webhook-delivery.types.ts";
import { ZAdminErrors } from "../admin-providers/admin-provider.schema.ts";
import { MIRROR_NOTE, ZTenantPath } from "./admin-mirror.schema.ts";

export const getTenantWebhookDeliveryMeta: OpenApiMeta<SvcMeta> = {
  openapi: {
    method: "GET",
    path: "/v1/admin/tenants/{tenant_id}/webhooks/{webhook_id}/deliveries/{delivery_id}",
    tags: ["admin"],
    summary: "Get a delivery of a tenant's webhook endpoint",
    description: `As GET /v1/webhooks/{webhook_id}/deliveries/{delivery_id}: the payload and the last 20 attempts. ${MIRROR_NOTE} Audit action \`webhook.delivery.read\`.`,
    errorResponses: {
      400: "tenant_id or webhook_id is not a uuid, or delivery_id is not a positive integer",
      ...ZAdminErrors,
      404: "No such tenant, no such endpoint of the tenant, or no such delivery of the endpoint",
    },
  },
};

export const ZGetTenantWebhookDeliveryRequestSchema = ZGetWebhookDeliveryRequestSchema.extend(ZTenantPath);

export const ZGetTenantWebhookDeliveryResponseSchema = ZGetWebhookDeliveryResponseSchema;
