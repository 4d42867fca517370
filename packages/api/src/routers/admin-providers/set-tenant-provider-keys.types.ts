import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { SvcMeta } from "../../trpc.ts";
import { ZAdminErrors, ZKeysBody, ZTenantProviderKeysChange, ZTenantProviderPath } from "./admin-provider.schema.ts";

export const setTenantProviderKeysMeta: OpenApiMeta<SvcMeta> = {
  openapi: {
    method: "PUT",
    path: "/v1/admin/tenants/{tenant_id}/providers/{provider}/keys",
    tags: ["admin"],
    summary: "Set a tenant's own keys of a provider",
    description:
      "Replaces every key (sealed with SVC_ENCRYPTION_KEY). New connections of the tenant use them; an existing connection keeps the keys it was made with. When the keys name another application (another CLIENT_ID, REGION or ENVIRONMENT), the tenant's active connections made with its earlier keys, and with the instance's keys when it had none, move to needs_reauth (connection.needs_reauth and connection.broken, reason keys_changed, action reconnect), counted in reauth_required. A rotated secret of the same application keeps them. Applies at once in this process and within 30 seconds in others.",
    errorResponses: {
      400: "tenant_id is not a uuid, a required key missing, or a key the provider does not take (named)",
      ...ZAdminErrors,
      404: "No such tenant, or a provider unknown to this build",
      409: "The provider takes no keys (a device or built-in provider)",
      422: "The provider's own rules refuse the keys (the reason is in detail)",
    },
  },
};

export const ZSetTenantProviderKeysRequestSchema = z.strictObject({ ...ZTenantProviderPath, keys: ZKeysBody });

export const ZSetTenantProviderKeysResponseSchema = ZTenantProviderKeysChange;
