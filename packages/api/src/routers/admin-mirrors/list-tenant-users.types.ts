import { z } from "zod";
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
    summary: "List or find a tenant's users",
    description: `As GET /v1/users (active users, oldest first, same paging), optionally narrowed by external_ref: \`external_ref\` matches it exactly, \`external_ref_prefix\` by its beginning (case-sensitive; both given: both must hold). A user is found by id at GET /v1/admin/tenants/{tenant_id}/users/{id}. ${MIRROR_NOTE} Audit action \`users.read\`.`,
    errorResponses: { 400: "tenant_id is not a uuid, or an invalid limit, cursor or filter", ...ZAdminErrors, 404: "No such tenant" },
  },
};

const externalRef = z.string().min(1).max(255);

export const ZListTenantUsersRequestSchema = ZListUsersRequestSchema.extend({
  ...ZTenantPath,
  external_ref: externalRef.describe("Only the user whose external_ref is exactly this.").optional(),
  external_ref_prefix: externalRef.describe("Only users whose external_ref starts with this (case-sensitive, no wildcards).").optional(),
});

export const ZListTenantUsersResponseSchema = ZListUsersResponseSchema;
