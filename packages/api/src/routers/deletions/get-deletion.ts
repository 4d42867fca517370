import { getDeletionJob } from "@svc/core";
import { tenantProcedure } from "../../middlewares/authenticate.ts";
import { getDeletionMeta, ZGetDeletionRequestSchema, ZGetDeletionResponseSchema } from "./get-deletion.types.ts";

export const getDeletion = tenantProcedure
  .meta(getDeletionMeta)
  .input(ZGetDeletionRequestSchema)
  .output(ZGetDeletionResponseSchema)
  .query(({ ctx, input }) => getDeletionJob(ctx.deps.db, ctx.principal.tenantId, input.job_id));
