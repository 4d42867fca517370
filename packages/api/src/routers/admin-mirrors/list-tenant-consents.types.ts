import type { OpenApiMeta } from "trpc-to-openapi";
import type { SvcMeta } from "../../trpc.ts";
import { ZListConsentsRequestSchema, ZListConsentsResponseSchema } from "../consents/list-consents.types.ts";
import { ZAdminErrors } from "../admin-providers/admin-provider.schema.ts";
import { MIRROR_NOTE, ZTenantPath } from "./admin-mirror.schema.ts";

export const listTenantConsentsMeta: OpenApiMeta<SvcMeta> = {
  openapi: {
    method: "GET",
    path: "/v1/admin/tenants/{tenant_id}/users/{id}/consents",
    tags: ["admin"],
    summary: "List a tenant user's consents per source",
    description: `As GET /v1/users/{id}/consents (one entry per source, every category with whether it is granted; one page). ${MIRROR_NOTE} Audit action \`consents.read\`.`,
    errorResponses: {
      400: "tenant_id or id is not a uuid",
      ...ZAdminErrors,
      404: "No such tenant, or no such user of the tenant (or the user is being deleted)",
    },
  },
};

export const ZListTenantConsentsRequestSchema = ZListConsentsRequestSchema.extend(ZTenantPath);

export const ZListTenantConsentsResponseSchema = ZListConsentsResponseSchema;
