import { listRrIntervals as listRrIntervalsService, requireReadableUser } from "@svc/core";
import { readerProcedure } from "../../middlewares/authenticate.ts";
import { listRrIntervalsMeta, ZListRrIntervalsRequestSchema, ZListRrIntervalsResponseSchema } from "./list-rr-intervals.types.ts";

export const listRrIntervals = readerProcedure
  .meta(listRrIntervalsMeta)
  .input(ZListRrIntervalsRequestSchema)
  .output(ZListRrIntervalsResponseSchema)
  .query(async ({ ctx, input }) => {
    const user = await requireReadableUser(ctx.deps.db, ctx.principal, input.id);
    return listRrIntervalsService(ctx.deps.db, user.id, input);
  });
