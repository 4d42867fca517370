import { auditContextOf, getPipelineForAdmin } from "@svc/core";
import { adminProcedure } from "../../middlewares/authenticate.ts";
import { getTenantPipelineMeta, ZGetTenantPipelineRequestSchema, ZGetTenantPipelineResponseSchema } from "./get-tenant-pipeline.types.ts";

export const getTenantPipeline = adminProcedure
  .meta(getTenantPipelineMeta)
  .input(ZGetTenantPipelineRequestSchema)
  .output(ZGetTenantPipelineResponseSchema)
  .query(({ ctx, input }) => getPipelineForAdmin(ctx.deps, auditContextOf(ctx.principal, ctx.requestId), input.tenant_id));
