import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { SvcMeta } from "../../trpc.ts";
import { ZCursor, ZLimit, ZPage } from "../../schemas/common.ts";
import { ZAdminErrors } from "../admin-providers/admin-provider.schema.ts";
import { ZTenantSummary } from "./admin-tenant.schema.ts";

export const listTenantsMeta: OpenApiMeta<SvcMeta> = {
  openapi: {
    method: "GET",
    path: "/v1/admin/tenants",
    tags: ["admin"],
    summary: "List the instance's tenants",
    description: "Every tenant, oldest first, with its count of active users; one being deleted shows with status `deleting` until it is gone. An instance-level list: not recorded in the audit log.",
    errorResponses: { 400: "Invalid limit or cursor", ...ZAdminErrors },
  },
};

export const ZListTenantsRequestSchema = z.object({ cursor: ZCursor, limit: ZLimit });

export const ZListTenantsResponseSchema = ZPage(ZTenantSummary);
