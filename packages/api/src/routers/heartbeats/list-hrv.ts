import { listHrvResults, requireReadableUser } from "@svc/core";
import { readerProcedure } from "../../middlewares/authenticate.ts";
import { listHrvMeta, ZListHrvRequestSchema, ZListHrvResponseSchema } from "./list-hrv.types.ts";

export const listHrv = readerProcedure
  .meta(listHrvMeta)
  .input(ZListHrvRequestSchema)
  .output(ZListHrvResponseSchema)
  .query(async ({ ctx, input }) => {
    const user = await requireReadableUser(ctx.deps.db, ctx.principal, input.id);
    return listHrvResults(ctx.deps.db, user.id, input);
  });
