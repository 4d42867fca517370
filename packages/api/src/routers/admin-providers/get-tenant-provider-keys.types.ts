import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { SvcMeta } from "../../trpc.ts";
import { ZAdminErrors, ZTenantProviderKeys, ZTenantProviderPath } from "./admin-provider.schema.ts";

export const getTenantProviderKeysMeta: OpenApiMeta<SvcMeta> = {
  openapi: {
    method: "GET",
    path: "/v1/admin/tenants/{tenant_id}/providers/{provider}/keys",
    tags: ["admin"],
    summary: "Read a tenant's own keys of a provider (without values)",
    description: "Which keys are set, their status, the masked client id and the addresses to register at the provider. Never a value.",
    errorResponses: {
      400: "tenant_id is not a uuid",
      ...ZAdminErrors,
      404: "No such tenant, or a provider unknown to this build",
      409: "The provider takes no keys (a device or built-in provider)",
    },
  },
};

export const ZGetTenantProviderKeysRequestSchema = z.object(ZTenantProviderPath);

export const ZGetTenantProviderKeysResponseSchema = ZTenantProviderKeys;
