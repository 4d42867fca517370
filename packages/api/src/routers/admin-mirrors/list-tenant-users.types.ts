import type { OpenApiMeta } from "trpc-to-openapi";
import type { SvcMeta } from "../../trpc.ts";
import { ZListUsersRequestSchema, ZListUsersResponseSchema } from "../users/list-users.types.ts";
import { ZAdminErrors } from "../admin-providers/admin-provider.schema.ts";
import { MIRROR_NOTE, ZTenantPath } from "./admin-mirror.schema.ts";

export const listTenantUsersMeta: OpenApiMeta<SvcMeta> = {
  openapi: {
    method: "GET",
    path: "/v1/admin/tenants/{tenant_id}/users",
    tags: ["admin"],
    summary: "List a tenant's users",
    description: `As GET /v1/users (active users, oldest first, same paging). ${MIRROR_NOTE} Audit action \`users.read\`.`,
    errorResponses: { 400: "tenant_id is not a uuid, or an invalid limit or cursor", ...ZAdminErrors, 404: "No such tenant" },
  },
};

export const ZListTenantUsersRequestSchema = ZListUsersRequestSchema.extend(ZTenantPath);

export const ZListTenantUsersResponseSchema = ZListUsersResponseSchema;
