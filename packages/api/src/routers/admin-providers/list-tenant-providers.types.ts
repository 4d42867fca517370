import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { SvcMeta } from "../../trpc.ts";
import { ZId } from "../../schemas/common.ts";
import { ZAdminErrors, ZTenantProviderSwitch } from "./admin-provider.schema.ts";

export const listTenantProvidersMeta: OpenApiMeta<SvcMeta> = {
  openapi: {
    method: "GET",
    path: "/v1/admin/tenants/{tenant_id}/providers",
    tags: ["admin"],
    summary: "List a tenant's provider switches",
    description: "Every provider of this build for the tenant, in the registry's order: the admin switch, the instance status, own keys and availability. One page: next_cursor is always null.",
    errorResponses: { 400: "tenant_id is not a uuid", ...ZAdminErrors, 404: "No such tenant" },
  },
};

export const ZListTenantProvidersRequestSchema = z.object({ tenant_id: ZId("tenant") });

export const ZListTenantProvidersResponseSchema = z.object({
  data: z.array(ZTenantProviderSwitch),
  next_cursor: z.null().describe("Always null: every provider fits in one page."),
});
