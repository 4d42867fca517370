import type { OpenApiMeta } from "trpc-to-openapi";
import type { SvcMeta } from "../../trpc.ts";
import { ZRetryWebhookDeliveryRequestSchema, ZRetryWebhookDeliveryResponseSchema } from "../webhooks/retry-webhook-delivery.types.ts";
import { ZAdminErrors } from "../admin-providers/admin-provider.schema.ts";
import { ZTenantPath } from "./admin-mirror.schema.ts";

export const retryTenantWebhookDeliveryMeta: OpenApiMeta<SvcMeta> = {
  openapi: {
    method: "POST",
    path: "/v1/admin/tenants/{tenant_id}/webhooks/{webhook_id}/deliveries/{delivery_id}/retry",
    tags: ["admin"],
    summary: "Retry a delivery of a tenant's webhook endpoint",
    description:
      "As POST /v1/webhooks/{webhook_id}/deliveries/{delivery_id}/retry: a done or parked delivery is queued again from its first attempt. Recorded as audit `webhook.delivery.retry` in the instance's log and the tenant's, in the retry's transaction.",
    errorResponses: {
      400: "tenant_id or webhook_id is not a uuid, or delivery_id is not a positive integer",
      ...ZAdminErrors,
      404: "No such tenant, no such endpoint of the tenant, or no such delivery of the endpoint",
      409: "The delivery is pending or running, or the endpoint is disabled",
    },
  },
  successStatus: 202,
};

export const ZRetryTenantWebhookDeliveryRequestSchema = ZRetryWebhookDeliveryRequestSchema.extend(ZTenantPath);

export const ZRetryTenantWebhookDeliveryResponseSchema = ZRetryWebhookDeliveryResponseSchema;
