import type { OpenApiMeta } from "trpc-to-openapi";
import type { SvcMeta } from "../../trpc.ts";
import { ZListSharesRequestSchema, ZListSharesResponseSchema } from "../shares/list-shares.types.ts";
import { ZAdminErrors } from "../admin-providers/admin-provider.schema.ts";
import { MIRROR_NOTE, ZTenantPath } from "./admin-mirror.schema.ts";

export const listTenantSharesMeta: OpenApiMeta<SvcMeta> = {
  openapi: {
    method: "GET",
    path: "/v1/admin/tenants/{tenant_id}/users/{id}/shares",
    tags: ["admin"],
    summary: "List a tenant user's share links",
    description: `As GET /v1/users/{id}/shares (every status, oldest first; never a link, key or passcode). ${MIRROR_NOTE} Audit action \`shares.read\`.`,
    errorResponses: {
      400: "tenant_id or id is not a uuid, or an invalid limit or cursor",
      ...ZAdminErrors,
      404: "No such tenant, or no such user of the tenant (or the user is being deleted)",
    },
  },
};

export const ZListTenantSharesRequestSchema = ZListSharesRequestSchema.extend(ZTenantPath);

export const ZListTenantSharesResponseSchema = ZListSharesResponseSchema;
