import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { SvcMeta } from "../../trpc.ts";
import { ZId } from "../../schemas/common.ts";
import { ZGetUserResponseSchema } from "../users/get-user.types.ts";
import { ZAdminErrors } from "../admin-providers/admin-provider.schema.ts";
import { MIRROR_NOTE, ZTenantPath } from "./admin-mirror.schema.ts";

export const getTenantUserMeta: OpenApiMeta<SvcMeta> = {
  openapi: {
    method: "GET",
    path: "/v1/admin/tenants/{tenant_id}/users/{id}",
    tags: ["admin"],
    summary: "Get a tenant's user",
    description: `As GET /v1/users/{id}, and also a user being deleted (status \`deleting\`, external_ref null), so support sees why its reads answer 404. ${MIRROR_NOTE} Audit action \`user.read\`.`,
    errorResponses: { 400: "tenant_id or id is not a uuid", ...ZAdminErrors, 404: "No such tenant, or no such user of the tenant (or its deletion is done)" },
  },
};

export const ZGetTenantUserRequestSchema = z.object({ ...ZTenantPath, id: ZId("user") });

export const ZGetTenantUserResponseSchema = ZGetUserResponseSchema;
