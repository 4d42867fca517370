import { getPipeline as getPipelineService } from "@svc/core";
import { tenantProcedure } from "../../middlewares/authenticate.ts";
import { getPipelineMeta, ZGetPipelineRequestSchema, ZGetPipelineResponseSchema } from "./get-pipeline.types.ts";

export const getPipeline = tenantProcedure
  .meta(getPipelineMeta)
  .input(ZGetPipelineRequestSchema)
  .output(ZGetPipelineResponseSchema)
  .query(({ ctx }) => getPipelineService(ctx.deps, ctx.principal.tenantId));
