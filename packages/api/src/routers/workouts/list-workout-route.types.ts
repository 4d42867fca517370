import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { SvcMeta } from "../../trpc.ts";
import { ZCursor, ZId, ZLimit, ZPage } from "../../schemas/common.ts";
import { readErrors, ZUserPath, ZWindowEnd, ZWindowStart } from "../../schemas/records.ts";
import { ZRoutePoint } from "./workout.schema.ts";

export const listWorkoutRouteMeta: OpenApiMeta<SvcMeta> = {
  openapi: {
    method: "GET",
    path: "/v1/users/{id}/workouts/{workout_id}/route",
    tags: ["records"],
    summary: "List the route points of a workout",
    description: "The GPS positions of one workout ordered by timestamp, oldest first; the window applies to timestamp.",
    errorResponses: {
      ...readErrors,
      400: "Invalid workout id, window, limit or cursor",
      404: "No such user in the tenant (or not the token's user), no such workout of the user, or the user is being deleted",
    },
  },
};

export const ZListWorkoutRouteRequestSchema = z.object({
  ...ZUserPath,
  workout_id: ZId("workout"),
  start: ZWindowStart,
  end: ZWindowEnd,
  cursor: ZCursor,
  limit: ZLimit,
});

export const ZListWorkoutRouteResponseSchema = ZPage(ZRoutePoint);
