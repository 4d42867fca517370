import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { SvcMeta } from "../../trpc.ts";
import { ZAuditLogFilters, ZAuditLogPage, ZAuditLogResponseSchema } from "./audit-entry.schema.ts";

export const listAuditLogMeta: OpenApiMeta<SvcMeta> = {
  openapi: {
    method: "GET",
    path: "/v1/audit-log",
    tags: ["audit"],
    summary: "Read the tenant's audit log",
    description:
      "Newest first. What instance admins did to the tenant or read of it (provider switches and keys, webhook secret rotations, mirror reads of records, connections, runs, deletions, the pipeline and this log), and the tenant's own keys' changes of webhook endpoints (created, changed, deleted, secret rotated).",
    errorResponses: { 400: "Invalid limit, cursor or filter", 401: "Missing, wrong or expired secret", 403: "Not a tenant API key" },
  },
};

export const ZListAuditLogRequestSchema = z.object({ ...ZAuditLogPage, ...ZAuditLogFilters });

export const ZListAuditLogResponseSchema = ZAuditLogResponseSchema;
