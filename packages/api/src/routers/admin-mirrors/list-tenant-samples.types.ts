import type { OpenApiMeta } from "trpc-to-openapi";
import type { SvcMeta } from "../../trpc.ts";
import { ZListSamplesRequestSchema, ZListSamplesResponseSchema } from "../samples/list-samples.types.ts";
import { ZAdminErrors } from "../admin-providers/admin-provider.schema.ts";
import { MIRROR_NOTE, ZTenantPath } from "./admin-mirror.schema.ts";

export const listTenantSamplesMeta: OpenApiMeta<SvcMeta> = {
  openapi: {
    method: "GET",
    path: "/v1/admin/tenants/{tenant_id}/users/{id}/samples",
    tags: ["admin"],
    summary: "List a tenant user's quantity samples",
    description: `As GET /v1/users/{id}/samples (same filters, view and paging). ${MIRROR_NOTE} Audit action \`samples.read\` naming the user and the type.`,
    errorResponses: {
      400: "tenant_id or id is not a uuid; type not in the catalog (and the user has none), invalid window, limit or cursor",
      ...ZAdminErrors,
      404: "No such tenant, or no such user of the tenant (or the user is being deleted)",
    },
  },
};

export const ZListTenantSamplesRequestSchema = ZListSamplesRequestSchema.extend(ZTenantPath);

export const ZListTenantSamplesResponseSchema = ZListSamplesResponseSchema;
