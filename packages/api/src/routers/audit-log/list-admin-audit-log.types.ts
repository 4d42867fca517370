import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { SvcMeta } from "../../trpc.ts";
import { ZAuditLogFilters, ZAuditLogPage, ZAuditLogResponseSchema } from "./audit-entry.schema.ts";

export const listAdminAuditLogMeta: OpenApiMeta<SvcMeta> = {
  openapi: {
    method: "GET",
    path: "/v1/admin/audit-log",
    tags: ["admin"],
    summary: "Read the instance's audit log",
    description: "Newest first. Every action and mirror read of every instance admin key, on tenants and on the instance's providers. Reading this log is not recorded.",
    errorResponses: { 400: "Invalid limit, cursor or filter", 401: "Missing, wrong or expired secret", 403: "Not an instance admin key" },
  },
};

export const ZListAdminAuditLogRequestSchema = z.object({ ...ZAuditLogPage, ...ZAuditLogFilters });

export const ZListAdminAuditLogResponseSchema = ZAuditLogResponseSchema;
