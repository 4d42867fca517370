import { listDailySummaries as listDailySummariesService, requireReadableUser } from "@svc/core";
import { readerProcedure } from "../../middlewares/authenticate.ts";
import { listDailySummariesMeta, ZListDailySummariesRequestSchema, ZListDailySummariesResponseSchema } from "./list-daily-summaries.types.ts";

export const listDailySummaries = readerProcedure
  .meta(listDailySummariesMeta)
  .input(ZListDailySummariesRequestSchema)
  .output(ZListDailySummariesResponseSchema)
  .query(async ({ ctx, input }) => {
    const user = await requireReadableUser(ctx.deps.db, ctx.principal, input.id);
    return listDailySummariesService(ctx.deps.db, user.id, input);
  });
