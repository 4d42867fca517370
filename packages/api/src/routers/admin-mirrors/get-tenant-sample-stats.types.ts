import type { OpenApiMeta } from "trpc-to-openapi";
import type { SvcMeta } from "../../trpc.ts";
import { ZGetSampleStatsRequestSchema, ZGetSampleStatsResponseSchema } from "../samples/get-sample-stats.types.ts";
import { ZAdminErrors } from "../admin-providers/admin-provider.schema.ts";
import { MIRROR_NOTE, ZTenantPath } from "./admin-mirror.schema.ts";

export const getTenantSampleStatsMeta: OpenApiMeta<SvcMeta> = {
  openapi: {
    method: "GET",
    path: "/v1/admin/tenants/{tenant_id}/users/{id}/samples/stats",
    tags: ["admin"],
    summary: "Statistics of a tenant user's quantity samples",
    description: `As GET /v1/users/{id}/samples/stats. ${MIRROR_NOTE} Audit action \`samples.stats.read\` naming the user and the type.`,
    errorResponses: {
      400: "tenant_id or id is not a uuid; type not in the catalog, invalid tz, interval or window, or more than 10000 intervals",
      ...ZAdminErrors,
      404: "No such tenant, or no such user of the tenant (or the user is being deleted)",
    },
  },
};

export const ZGetTenantSampleStatsRequestSchema = ZGetSampleStatsRequestSchema.extend(ZTenantPath);

export const ZGetTenantSampleStatsResponseSchema = ZGetSampleStatsResponseSchema;
