import type { OpenApiMeta } from "trpc-to-openapi";
import type { SvcMeta } from "../../trpc.ts";
import { ZListConnectionsRequestSchema, ZListConnectionsResponseSchema } from "../connections/list-connections.types.ts";
import { ZAdminErrors } from "../admin-providers/admin-provider.schema.ts";
import { MIRROR_NOTE, ZTenantPath } from "./admin-mirror.schema.ts";

export const listTenantConnectionsMeta: OpenApiMeta<SvcMeta> = {
  openapi: {
    method: "GET",
    path: "/v1/admin/tenants/{tenant_id}/users/{id}/connections",
    tags: ["admin"],
    summary: "List a tenant user's connections with their health",
    description: `As GET /v1/users/{id}/connections (never a token). ${MIRROR_NOTE} Audit action \`connections.read\`.`,
    errorResponses: {
      400: "tenant_id or id is not a uuid",
      ...ZAdminErrors,
      404: "No such tenant, or no such user of the tenant (or the user is being deleted)",
    },
  },
};

export const ZListTenantConnectionsRequestSchema = ZListConnectionsRequestSchema.extend(ZTenantPath);

export const ZListTenantConnectionsResponseSchema = ZListConnectionsResponseSchema;
