import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { SvcMeta } from "../../trpc.ts";
import { ZAdminErrors } from "../admin-providers/admin-provider.schema.ts";
import { ZTenantPath } from "../admin-mirrors/admin-mirror.schema.ts";
import { ZTenantSummary } from "./admin-tenant.schema.ts";

export const getTenantMeta: OpenApiMeta<SvcMeta> = {
  openapi: {
    method: "GET",
    path: "/v1/admin/tenants/{tenant_id}",
    tags: ["admin"],
    summary: "Get one tenant",
    description: "The tenant as the tenant list shows it, also while it is being deleted (status `deleting`). An instance-level read: not recorded in the audit log.",
    errorResponses: { 400: "tenant_id is not a uuid", ...ZAdminErrors, 404: "No such tenant (or it was deleted)" },
  },
};

export const ZGetTenantRequestSchema = z.object(ZTenantPath);

export const ZGetTenantResponseSchema = ZTenantSummary;
