import { listMenstrualCycles as listMenstrualCyclesService, requireReadableUser } from "@svc/core";
import { readerProcedure } from "../../middlewares/authenticate.ts";
import { listMenstrualCyclesMeta, ZListMenstrualCyclesRequestSchema, ZListMenstrualCyclesResponseSchema } from "./list-menstrual-cycles.types.ts";

export const listMenstrualCycles = readerProcedure
  .meta(listMenstrualCyclesMeta)
  .input(ZListMenstrualCyclesRequestSchema)
  .output(ZListMenstrualCyclesResponseSchema)
  .query(async ({ ctx, input }) => {
    const user = await requireReadableUser(ctx.deps.db, ctx.principal, input.id);
    return listMenstrualCyclesService(ctx.deps.db, user.id, input);
  });
