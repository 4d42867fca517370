import { listSleepSessions as listSleepSessionsService, requireReadableUser } from "@svc/core";
import { readerProcedure } from "../../middlewares/authenticate.ts";
import { listSleepSessionsMeta, ZListSleepSessionsRequestSchema, ZListSleepSessionsResponseSchema } from "./list-sleep-sessions.types.ts";

export const listSleepSessions = readerProcedure
  .meta(listSleepSessionsMeta)
  .input(ZListSleepSessionsRequestSchema)
  .output(ZListSleepSessionsResponseSchema)
  .query(async ({ ctx, input }) => {
    const user = await requireReadableUser(ctx.deps.db, ctx.principal, input.id);
    return listSleepSessionsService(ctx.deps.db, user.id, input);
  });
