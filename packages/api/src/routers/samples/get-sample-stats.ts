import { getSampleStats as getSampleStatsService, requireReadableUser } from "@svc/core";
import { readerProcedure } from "../../middlewares/authenticate.ts";
import { getSampleStatsMeta, ZGetSampleStatsRequestSchema, ZGetSampleStatsResponseSchema } from "./get-sample-stats.types.ts";

export const getSampleStats = readerProcedure
  .meta(getSampleStatsMeta)
  .input(ZGetSampleStatsRequestSchema)
  .output(ZGetSampleStatsResponseSchema)
  .query(async ({ ctx, input }) => {
    const user = await requireReadableUser(ctx.deps.db, ctx.principal, input.id);
    return getSampleStatsService(ctx.deps.db, user.id, input);
  });
