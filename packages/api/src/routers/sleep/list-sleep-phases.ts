import { listSleepPhases as listSleepPhasesService, requireReadableUser } from "@svc/core";
import { readerProcedure } from "../../middlewares/authenticate.ts";
import { listSleepPhasesMeta, ZListSleepPhasesRequestSchema, ZListSleepPhasesResponseSchema } from "./list-sleep-phases.types.ts";

export const listSleepPhases = readerProcedure
  .meta(listSleepPhasesMeta)
  .input(ZListSleepPhasesRequestSchema)
  .output(ZListSleepPhasesResponseSchema)
  .query(async ({ ctx, input }) => {
    const user = await requireReadableUser(ctx.deps.db, ctx.principal, input.id);
    return listSleepPhasesService(ctx.deps.db, user.id, input.session_id, input);
  });
