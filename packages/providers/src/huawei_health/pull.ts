// Pulling a window from Health Kit: the samples (daily statistics and readings of
// sampleSet:polymerize), the sleep records (GET healthRecords) and the activity records (GET
// activityRecords). Each part is asked only when the grant holds its read scope (the user
// picks scopes on HUAWEI ID's consent page), so one scope left out does not cost the others;
// a notified pull asks only the part its event named. Each answer is stored as one payload.

import type { PullContext } from "@svc/core";
import { pullActivityRecords, pullSleepRecords } from "./records-pull.ts";
import { pullSamples } from "./samples-pull.ts";

const SCOPE = "https://www.huawei.com/healthkit/";

/** Daily statistics: the detail type asked for, and the read scope it needs. */
export const DAILY_TYPES = [
  { dataTypeName: "com.huawei.continuous.steps.delta", scope: `${SCOPE}step.read` },
  { dataTypeName: "com.huawei.continuous.distance.delta", scope: `${SCOPE}distance.read` },
  { dataTypeName: "com.huawei.continuous.calories.burnt", scope: `${SCOPE}calories.read` },
] as const;

/** Details read as readings, with the read scope each needs. */
export const READING_TYPES = [
  { dataTypeName: "com.huawei.instantaneous.heart_rate", scope: `${SCOPE}heartrate.read` },
  { dataTypeName: "com.huawei.instantaneous.resting_heart_rate", scope: `${SCOPE}heartrate.read` },
  { dataTypeName: "com.huawei.heart_rate_variability", scope: `${SCOPE}heartrate.read` },
  { dataTypeName: "com.huawei.instantaneous.spo2", scope: `${SCOPE}oxygensaturation.read` },
  { dataTypeName: "com.huawei.instantaneous.blood_pressure", scope: `${SCOPE}bloodpressure.read` },
  { dataTypeName: "com.huawei.instantaneous.body_weight", scope: `${SCOPE}heightweight.read` },
  { dataTypeName: "com.huawei.instantaneous.body.temperature", scope: `${SCOPE}bodytemperature.read` },
] as const;

/** Sleep records (health records of com.huawei.health.record.sleep). */
export const SLEEP_SCOPE = `${SCOPE}sleep.read`;
/** Activity records (workouts). */
export const ACTIVITY_RECORD_SCOPE = `${SCOPE}activityrecord.read`;
/** Health Kit answers only data from after the authorization unless the grant holds a history scope: this one opens the month before (the backfill's 30 days). */
export const HISTORY_SCOPE = `${SCOPE}historydata.open.month`;

/** The parts a notification can name (the connector's notificationTypes). */
export const PULL_PARTS = ["samples", "sleep", "workouts"] as const;

export async function pullHuaweiHealth(context: PullContext): Promise<void> {
  const granted = (scope: string) => context.scopes.length === 0 || context.scopes.includes(scope);
  const wanted = (part: (typeof PULL_PARTS)[number]) => context.dataType === null || context.dataType === part;
  if (wanted("samples")) {
    const ofGrant = (types: ReadonlyArray<{ dataTypeName: string; scope: string }>) => types.filter((type) => granted(type.scope)).map(({ dataTypeName }) => ({ dataTypeName }));
    await pullSamples(context, ofGrant(DAILY_TYPES), ofGrant(READING_TYPES));
  }
  if (wanted("sleep") && granted(SLEEP_SCOPE)) await pullSleepRecords(context);
  if (wanted("workouts") && granted(ACTIVITY_RECORD_SCOPE)) await pullActivityRecords(context);
}
