import { getTenantDeletion } from "@svc/core";
import { adminProcedure } from "../../middlewares/authenticate.ts";
import { getTenantDeletionJobMeta, ZGetTenantDeletionJobRequestSchema, ZGetTenantDeletionJobResponseSchema } from "./get-tenant-deletion.types.ts";

export const getTenantDeletionJob = adminProcedure
  .meta(getTenantDeletionJobMeta)
  .input(ZGetTenantDeletionJobRequestSchema)
  .output(ZGetTenantDeletionJobResponseSchema)
  .query(({ ctx, input }) => getTenantDeletion(ctx.deps, input.job_id));
