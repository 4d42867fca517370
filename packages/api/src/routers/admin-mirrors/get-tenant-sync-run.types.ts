import type { OpenApiMeta } from "trpc-to-openapi";
import type { SvcMeta } from "../../trpc.ts";
import { ZGetSyncRunRequestSchema, ZGetSyncRunResponseSchema } from "../sync/get-sync-run.types.ts";
import { ZAdminErrors } from "../admin-providers/admin-provider.schema.ts";
import { MIRROR_NOTE, ZTenantPath } from "./admin-mirror.schema.ts";

export const getTenantSyncRunMeta: OpenApiMeta<SvcMeta> = {
  openapi: {
    method: "GET",
    path: "/v1/admin/tenants/{tenant_id}/users/{id}/sync-runs/{run_id}",
    tags: ["admin"],
    summary: "Get a tenant user's sync run",
    description: `As GET /v1/users/{id}/sync-runs/{run_id}. ${MIRROR_NOTE} Audit action \`sync_run.read\`.`,
    errorResponses: {
      400: "tenant_id or id is not a uuid, or run_id is not a positive integer",
      ...ZAdminErrors,
      404: "No such tenant, no such user of the tenant, or no such run of the user",
    },
  },
};

export const ZGetTenantSyncRunRequestSchema = ZGetSyncRunRequestSchema.extend(ZTenantPath);

export const ZGetTenantSyncRunResponseSchema = ZGetSyncRunResponseSchema;
