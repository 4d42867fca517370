// Pulling a window from Suunto: the workouts that start in it, each with its FIT file, the
// daily activity statistics of its UTC days with the 24/7 activity samples, the sleeps and
// the recovery readings. A notification names one of workouts, daily_activity, sleep or
// recovery.

import type { PullContext } from "@svc/core";
import { SUUNTO_ACTIVITY_SAMPLES_FORMAT } from "./activity-samples.ts";
import { pullSuunto247Samples } from "./pull-247-samples.ts";
import { pullSuuntoDailyActivity } from "./pull-daily-activity.ts";
import { pullSuuntoWorkouts } from "./pull-workouts.ts";
import { SUUNTO_RECOVERY_FORMAT } from "./recovery.ts";
import { SUUNTO_SLEEP_FORMAT } from "./sleep.ts";

export const SUUNTO_NOTIFICATION_TYPES = ["workouts", "daily_activity", "sleep", "recovery"] as const;

export async function pullSuunto(context: PullContext): Promise<void> {
  const wanted = (type: (typeof SUUNTO_NOTIFICATION_TYPES)[number]) => context.dataType === null || context.dataType === type;
  if (wanted("workouts")) await pullSuuntoWorkouts(context);
  if (wanted("daily_activity")) {
    await pullSuuntoDailyActivity(context);
    await pullSuunto247Samples(context, "activity", SUUNTO_ACTIVITY_SAMPLES_FORMAT);
  }
  if (wanted("sleep")) await pullSuunto247Samples(context, "sleep", SUUNTO_SLEEP_FORMAT);
  if (wanted("recovery")) await pullSuunto247Samples(context, "recovery", SUUNTO_RECOVERY_FORMAT);
}
