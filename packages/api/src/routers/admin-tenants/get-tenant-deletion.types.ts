import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { SvcMeta } from "../../trpc.ts";
import { ZId } from "../../schemas/common.ts";
import { ZAdminErrors } from "../admin-providers/admin-provider.schema.ts";
import { ZTenantDeletion } from "./admin-tenant.schema.ts";

export const getTenantDeletionJobMeta: OpenApiMeta<SvcMeta> = {
  openapi: {
    method: "GET",
    path: "/v1/admin/tenant-deletions/{job_id}",
    tags: ["admin"],
    summary: "Follow a tenant's deletion",
    description:
      "The deletion started by DELETE /v1/admin/tenants/{tenant_id}, also once the tenant is gone (a tenant's own routes then answer 404). " +
      "An instance-level read: not recorded in the audit log.",
    errorResponses: { 400: "job_id is not a uuid", ...ZAdminErrors, 404: "No such tenant deletion" },
  },
};

export const ZGetTenantDeletionJobRequestSchema = z.object({ job_id: ZId("tenant deletion") });

export const ZGetTenantDeletionJobResponseSchema = ZTenantDeletion;
