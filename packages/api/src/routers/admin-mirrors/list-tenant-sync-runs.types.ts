import type { OpenApiMeta } from "trpc-to-openapi";
import type { SvcMeta } from "../../trpc.ts";
import { ZListSyncRunsRequestSchema, ZListSyncRunsResponseSchema } from "../sync/list-sync-runs.types.ts";
import { ZAdminErrors } from "../admin-providers/admin-provider.schema.ts";
import { MIRROR_NOTE, ZTenantPath } from "./admin-mirror.schema.ts";

export const listTenantSyncRunsMeta: OpenApiMeta<SvcMeta> = {
  openapi: {
    method: "GET",
    path: "/v1/admin/tenants/{tenant_id}/users/{id}/sync-runs",
    tags: ["admin"],
    summary: "List a tenant user's sync runs",
    description: `As GET /v1/users/{id}/sync-runs (oldest first, same paging). ${MIRROR_NOTE} Audit action \`sync_runs.read\`.`,
    errorResponses: {
      400: "tenant_id or id is not a uuid, or an invalid limit or cursor",
      ...ZAdminErrors,
      404: "No such tenant, or no such user of the tenant (or the user is being deleted)",
    },
  },
};

export const ZListTenantSyncRunsRequestSchema = ZListSyncRunsRequestSchema.extend(ZTenantPath);

export const ZListTenantSyncRunsResponseSchema = ZListSyncRunsResponseSchema;
