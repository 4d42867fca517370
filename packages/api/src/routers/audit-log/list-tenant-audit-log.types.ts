import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { SvcMeta } from "../../trpc.ts";
import { ZId } from "../../schemas/common.ts";
import { ZAuditLogFilters, ZAuditLogPage, ZAuditLogResponseSchema } from "./audit-entry.schema.ts";

export const listTenantAuditLogMeta: OpenApiMeta<SvcMeta> = {
  openapi: {
    method: "GET",
    path: "/v1/admin/tenants/{tenant_id}/audit-log",
    tags: ["admin"],
    summary: "Read a tenant's audit log",
    description: "As GET /v1/audit-log for the tenant, newest first. The read is recorded afterwards as `audit_log.read`, in the instance's log and the tenant's.",
    errorResponses: { 400: "tenant_id is not a uuid, or an invalid limit, cursor or filter", 401: "Missing, wrong or expired secret", 403: "Not an instance admin key", 404: "No such tenant" },
  },
};

export const ZListTenantAuditLogRequestSchema = z.object({ tenant_id: ZId("tenant"), ...ZAuditLogPage, ...ZAuditLogFilters });

export const ZListTenantAuditLogResponseSchema = ZAuditLogResponseSchema;
