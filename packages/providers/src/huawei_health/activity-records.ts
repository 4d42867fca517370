// Health Kit activity records (`GET /v2/activityRecords`) as workouts. A record: `id`, `name`,
// `startTime`/`endTime`/`modifyTime` and `activeTime` in milliseconds, `timeZone` (+0800),
// `activityType` (a number), `appInfo` of the app that wrote it, and `activitySummary.dataSummary`:
// statistics sample points (ns times) such as com.huawei.continuous.distance.total (`distance`,
// m), .calories.burnt.total (`calories_total`, kcal), .steps.total (`steps`) and
// .exercise_heart_rate.statistics (`avg`, `max`). `deletedActivityRecord` names records the
// user deleted: their ids delete the workouts stored before. A record without an end is still
// in progress and left for a later pull.

import type { WorkoutRecord } from "@svc/core";
import { emptyParsedRecords, MalformedUpload, type ParsedRecords } from "../parsed-records.ts";
import { fieldsOf, instantOfMillis, isObject, type JsonObject } from "./json.ts";
import { activityTypeOf } from "./workout-types.ts";

export const HUAWEI_WORKOUTS_FORMAT = "huawei-health-workouts";

const MAX_TEXT_LENGTH = 200;

export function parseHuaweiWorkouts(payload: unknown): ParsedRecords {
  if (!isObject(payload) || !Array.isArray(payload.activityRecord)) throw new MalformedUpload("workouts", "a Huawei Health workouts payload is an answer of GET activityRecords");
  const out = emptyParsedRecords();
  payload.activityRecord.forEach((record, index) => {
    if (!isObject(record)) return;
    const workout = workoutOf(record);
    if (workout) out.workouts.push({ ...workout, locator: `activityRecord[${index}]` });
    else out.rejected.push({ recordKind: "workout", locator: `activityRecord[${index}]`, reason: "huawei activity record: the start or end time is missing, not a time, or not after the other" });
  });
  const deleted = Array.isArray(payload.deletedActivityRecord) ? payload.deletedActivityRecord : [];
  const deletedIds = deleted.map((record) => (isObject(record) ? textOf(record.id) : null)).filter((id): id is string => id !== null);
  if (deletedIds.length > 0) out.deletedExternalIds = deletedIds;
  return out;
}

function workoutOf(record: JsonObject): WorkoutRecord | null {
  const start = instantOfMillis(record.startTime);
  const end = instantOfMillis(record.endTime);
  if (!start || !end || end <= start) return null;
  const summary = summaryOf(record.activitySummary);
  const figure = (dataTypeName: string, field: string) => {
    const value = summary.get(dataTypeName)?.get(field);
    return value !== undefined && value >= 0 ? value : null;
  };
  const steps = figure("com.huawei.continuous.steps.total", "steps");
  const activeMs = typeof record.activeTime === "number" && record.activeTime > 0 ? record.activeTime : null;
  const metadata: Record<string, unknown> = {};
  if (typeof record.activityType === "number") metadata.huawei_activity_type = record.activityType;
  return {
    activity_type: activityTypeOf(record.activityType),
    name: textOf(record.name),
    start_date: start,
    end_date: end,
    timezone: offsetOf(record.timeZone),
    duration_seconds: activeMs === null ? null : Math.round(activeMs / 1000),
    distance_meters: figure("com.huawei.continuous.distance.total", "distance"),
    total_energy_kcal: figure("com.huawei.continuous.calories.burnt.total", "calories_total"),
    average_heart_rate: figure("com.huawei.continuous.exercise_heart_rate.statistics", "avg"),
    max_heart_rate: figure("com.huawei.continuous.exercise_heart_rate.statistics", "max"),
    steps: steps === null ? null : Math.round(steps),
    source: "huawei",
    on_body: true,
    source_name: isObject(record.appInfo) ? textOf(record.appInfo.appName) : null,
    external_id: textOf(record.id),
    metadata,
  };
}

/** The record's statistics points, by data type name then field name. */
function summaryOf(activitySummary: unknown): Map<string, Map<string, number>> {
  const byType = new Map<string, Map<string, number>>();
  const points = isObject(activitySummary) && Array.isArray(activitySummary.dataSummary) ? activitySummary.dataSummary : [];
  for (const point of points) {
    if (isObject(point) && typeof point.dataTypeName === "string") byType.set(point.dataTypeName, fieldsOf(point));
  }
  return byType;
}

/** Health Kit's zone `+0800` as the catalog's `+08:00`; null for anything else. */
function offsetOf(timeZone: unknown): string | null {
  const match = typeof timeZone === "string" ? /^([+-])(\d{2})(\d{2})$/.exec(timeZone) : null;
  if (!match || Number(match[2]) > 14 || Number(match[3]) > 59) return null;
  return `${match[1]}${match[2]}:${match[3]}`;
}

function textOf(value: unknown): string | null {
  return typeof value === "string" && value.trim() !== "" ? value.slice(0, MAX_TEXT_LENGTH) : null;
}
