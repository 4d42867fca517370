import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { SvcMeta } from "../../trpc.ts";
import { ZCursor, ZLimit, ZPage } from "../../schemas/common.ts";
import { readErrors, ZUserPath, ZView, ZWindowEnd, ZWindowStart } from "../../schemas/records.ts";
import { ZWorkout } from "./workout.schema.ts";

export const listWorkoutsMeta: OpenApiMeta<SvcMeta> = {
  openapi: {
    method: "GET",
    path: "/v1/users/{id}/workouts",
    tags: ["records"],
    summary: "List workouts",
    description:
      "Workouts ordered by start_date, oldest first, each with the summary of its GPS route. In the merged view (default) two workouts of any activity type match when they share at least half of the shorter one; the workout of the better ranked source (metric `workout`) is kept and lists in `outranked` the sources it was preferred to. The type filter applies to the workouts kept.",
    errorResponses: { ...readErrors, 400: "Invalid type, window, view, limit or cursor" },
  },
};

export const ZListWorkoutsRequestSchema = z.object({
  ...ZUserPath,
  type: z
    .string()
    .regex(/^[a-z][a-z0-9_]{0,63}$/, "type must be a snake_case activity type of at most 64 characters")
    .describe("Only workouts of this activity type, e.g. `running`; omit for every type.")
    .optional(),
  start: ZWindowStart,
  end: ZWindowEnd,
  view: ZView,
  cursor: ZCursor,
  limit: ZLimit,
});

export const ZListWorkoutsResponseSchema = ZPage(ZWorkout);
