// Pulling a window from Suunto: the workouts that start in it, each with its FIT file, and
// the daily activity statistics of its UTC days. A notification names one of the two.

import type { PullContext } from "@svc/core";
import { pullSuuntoDailyActivity } from "./pull-daily-activity.ts";
import { pullSuuntoWorkouts } from "./pull-workouts.ts";

export async function pullSuunto(context: PullContext): Promise<void> {
  if (context.dataType === null || context.dataType === "workouts") await pullSuuntoWorkouts(context);
  if (context.dataType === null || context.dataType === "daily_activity") await pullSuuntoDailyActivity(context);
}
