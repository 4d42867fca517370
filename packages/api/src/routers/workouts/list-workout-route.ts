import { listWorkoutRoute as listWorkoutRouteService, requireReadableUser } from "@svc/core";
import { readerProcedure } from "../../middlewares/authenticate.ts";
import { listWorkoutRouteMeta, ZListWorkoutRouteRequestSchema, ZListWorkoutRouteResponseSchema } from "./list-workout-route.types.ts";

export const listWorkoutRoute = readerProcedure
  .meta(listWorkoutRouteMeta)
  .input(ZListWorkoutRouteRequestSchema)
  .output(ZListWorkoutRouteResponseSchema)
  .query(async ({ ctx, input }) => {
    const user = await requireReadableUser(ctx.deps.db, ctx.principal, input.id);
    return listWorkoutRouteService(ctx.deps.db, user.id, input.workout_id, input);
  });
