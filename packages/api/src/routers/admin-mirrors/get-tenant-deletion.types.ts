import type { OpenApiMeta } from "trpc-to-openapi";
import type { SvcMeta } from "../../trpc.ts";
import { ZGetDeletionRequestSchema, ZGetDeletionResponseSchema } from "../deletions/get-deletion.types.ts";
import { ZAdminErrors } from "../admin-providers/admin-provider.schema.ts";
import { MIRROR_NOTE, ZTenantPath } from "./admin-mirror.schema.ts";

export const getTenantDeletionMeta: OpenApiMeta<SvcMeta> = {
  openapi: {
    method: "GET",
    path: "/v1/admin/tenants/{tenant_id}/deletions/{job_id}",
    tags: ["admin"],
    summary: "Follow a tenant's deletion job",
    description: `As GET /v1/deletions/{job_id}. ${MIRROR_NOTE} Audit action \`deletion.read\`.`,
    errorResponses: { 400: "tenant_id or job_id is not a uuid", ...ZAdminErrors, 404: "No such tenant, or no such deletion job of the tenant" },
  },
};

export const ZGetTenantDeletionRequestSchema = ZGetDeletionRequestSchema.extend(ZTenantPath);

export const ZGetTenantDeletionResponseSchema = ZGetDeletionResponseSchema;
