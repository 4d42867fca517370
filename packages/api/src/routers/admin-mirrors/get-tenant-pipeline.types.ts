import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { SvcMeta } from "../../trpc.ts";
import { ZPipeline } from "../pipeline/pipeline.schema.ts";
import { ZAdminErrors } from "../admin-providers/admin-provider.schema.ts";
import { MIRROR_NOTE, ZTenantPath } from "./admin-mirror.schema.ts";

export const getTenantPipelineMeta: OpenApiMeta<SvcMeta> = {
  openapi: {
    method: "GET",
    path: "/v1/admin/tenants/{tenant_id}/pipeline",
    tags: ["admin"],
    summary: "Get a tenant's pipeline",
    description: `As GET /v1/pipeline. ${MIRROR_NOTE} Audit action \`pipeline.read\`.`,
    errorResponses: { 400: "tenant_id is not a uuid", ...ZAdminErrors, 404: "No such tenant" },
  },
};

export const ZGetTenantPipelineRequestSchema = z.object(ZTenantPath);

export const ZGetTenantPipelineResponseSchema = ZPipeline;
