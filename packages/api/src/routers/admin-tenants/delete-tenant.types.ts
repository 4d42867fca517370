import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { SvcMeta } from "../../trpc.ts";
import { ZAdminErrors } from "../admin-providers/admin-provider.schema.ts";
import { ZTenantPath } from "../admin-mirrors/admin-mirror.schema.ts";
import { ZTenantDeletion } from "./admin-tenant.schema.ts";

export const deleteTenantMeta: OpenApiMeta<SvcMeta> = {
  openapi: {
    method: "DELETE",
    path: "/v1/admin/tenants/{tenant_id}",
    tags: ["admin"],
    summary: "Delete a tenant and all its data",
    description:
      "The tenant turns deleting at once: its API keys and its users' tokens answer 401, its admin routes 404, and its webhook " +
      "endpoints are disabled, so nothing more is sent to them (no user.deleted events either). A background job then deletes every " +
      "user as DELETE /v1/users/{id} does (grants revoked at the providers best effort, raw files, every row), then the tenant's " +
      "webhook endpoints with their deliveries, its keys, provider switches and own provider keys, outbox, and its own audit " +
      "entries; the instance's audit log keeps the admins' entries, this request's `tenant.delete` among them. Follow the job at " +
      "Location. Asked again while the job runs, the answer is the same job (a failed job is queued again).",
    responseHeaders: z.object({ Location: z.string().describe("/v1/admin/tenant-deletions/{job_id} of the deletion.") }),
    errorResponses: { 400: "tenant_id is not a uuid", ...ZAdminErrors, 404: "No such tenant (or it is deleted already)" },
  },
  successStatus: 202,
};

export const ZDeleteTenantRequestSchema = z.object(ZTenantPath);

export const ZDeleteTenantResponseSchema = ZTenantDeletion;
