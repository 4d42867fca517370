import { auditContextOf, getSampleStatsForAdmin } from "@svc/core";
import { adminProcedure } from "../../middlewares/authenticate.ts";
import { getTenantSampleStatsMeta, ZGetTenantSampleStatsRequestSchema, ZGetTenantSampleStatsResponseSchema } from "./get-tenant-sample-stats.types.ts";

export const getTenantSampleStats = adminProcedure
  .meta(getTenantSampleStatsMeta)
  .input(ZGetTenantSampleStatsRequestSchema)
  .output(ZGetTenantSampleStatsResponseSchema)
  .query(({ ctx, input }) => {
    const { tenant_id, id, ...query } = input;
    return getSampleStatsForAdmin(ctx.deps, auditContextOf(ctx.principal, ctx.requestId), tenant_id, id, query);
  });
