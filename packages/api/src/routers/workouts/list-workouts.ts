import { listWorkouts as listWorkoutsService, requireReadableUser } from "@svc/core";
import { readerProcedure } from "../../middlewares/authenticate.ts";
import { listWorkoutsMeta, ZListWorkoutsRequestSchema, ZListWorkoutsResponseSchema } from "./list-workouts.types.ts";

export const listWorkouts = readerProcedure
  .meta(listWorkoutsMeta)
  .input(ZListWorkoutsRequestSchema)
  .output(ZListWorkoutsResponseSchema)
  .query(async ({ ctx, input }) => {
    const user = await requireReadableUser(ctx.deps.db, ctx.principal, input.id);
    return listWorkoutsService(ctx.deps.db, user.id, input);
  });
