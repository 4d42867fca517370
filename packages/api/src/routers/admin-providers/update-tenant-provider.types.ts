import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { SvcMeta } from "../../trpc.ts";
import { ZAdminErrors, ZTenantProviderPath, ZTenantProviderSwitch } from "./admin-provider.schema.ts";

export const updateTenantProviderMeta: OpenApiMeta<SvcMeta> = {
  openapi: {
    method: "PATCH",
    path: "/v1/admin/tenants/{tenant_id}/providers/{provider}",
    tags: ["admin"],
    summary: "Switch a provider on or off for a tenant",
    description:
      "While off, GET /v1/providers and the connect page leave the provider out for the tenant; connecting, the OAuth callback, uploads and self reports answer 403; sync now answers 409; no pull is planned and queued pulls end cancelled. Connections and data are kept. Applies at once in this process and within 30 seconds in others.",
    errorResponses: { 400: "tenant_id is not a uuid, or enabled missing", ...ZAdminErrors, 404: "No such tenant, or a provider unknown to this build" },
  },
};

export const ZUpdateTenantProviderRequestSchema = z.strictObject({
  ...ZTenantProviderPath,
  enabled: z.boolean().describe("false switches the provider off for the tenant; true on again."),
});

export const ZUpdateTenantProviderResponseSchema = ZTenantProviderSwitch;
