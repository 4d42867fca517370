import { listNutritionLogs, requireReadableUser } from "@svc/core";
import { readerProcedure } from "../../middlewares/authenticate.ts";
import { listNutritionMeta, ZListNutritionRequestSchema, ZListNutritionResponseSchema } from "./list-nutrition.types.ts";

export const listNutrition = readerProcedure
  .meta(listNutritionMeta)
  .input(ZListNutritionRequestSchema)
  .output(ZListNutritionResponseSchema)
  .query(async ({ ctx, input }) => {
    const user = await requireReadableUser(ctx.deps.db, ctx.principal, input.id);
    return listNutritionLogs(ctx.deps.db, user.id, input);
  });
