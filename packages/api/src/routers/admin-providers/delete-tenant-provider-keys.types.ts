import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { SvcMeta } from "../../trpc.ts";
import { ZAdminErrors, ZTenantProviderKeysChange, ZTenantProviderPath } from "./admin-provider.schema.ts";

export const deleteTenantProviderKeysMeta: OpenApiMeta<SvcMeta> = {
  openapi: {
    method: "DELETE",
    path: "/v1/admin/tenants/{tenant_id}/providers/{provider}/keys",
    tags: ["admin"],
    summary: "Remove a tenant's own keys of a provider",
    description:
      "The tenant uses the instance's keys again. Its active connections made with its own keys move to needs_reauth (reason keys_changed, action reconnect), counted in reauth_required. Removing keys the tenant does not have answers not_set with reauth_required 0.",
    errorResponses: {
      400: "tenant_id is not a uuid",
      ...ZAdminErrors,
      404: "No such tenant, or a provider unknown to this build",
      409: "The provider takes no keys (a device or built-in provider)",
    },
  },
};

export const ZDeleteTenantProviderKeysRequestSchema = z.object(ZTenantProviderPath);

export const ZDeleteTenantProviderKeysResponseSchema = ZTenantProviderKeysChange;
