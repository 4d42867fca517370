import { auditContextOf, getDeletionJobForAdmin } from "@svc/core";
import { adminProcedure } from "../../middlewares/authenticate.ts";
import { getTenantDeletionMeta, ZGetTenantDeletionRequestSchema, ZGetTenantDeletionResponseSchema } from "./get-tenant-deletion.types.ts";

export const getTenantDeletion = adminProcedure
  .meta(getTenantDeletionMeta)
  .input(ZGetTenantDeletionRequestSchema)
  .output(ZGetTenantDeletionResponseSchema)
  .query(({ ctx, input }) => getDeletionJobForAdmin(ctx.deps, auditContextOf(ctx.principal, ctx.requestId), input.tenant_id, input.job_id));
