import type { WorkoutRecord } from "@svc/core";
import { emptyParsedRecords, MalformedUpload, type ParsedRecords } from "../parsed-records.ts";
import { isWornModel, modelName } from "./devices.ts";
import { amount, epochSeconds, finiteNumber, idOf, isObject, positive, text, type JsonObject } from "./values.ts";
import { WORKOUT_CATEGORIES } from "./workout-categories.ts";

export const WITHINGS_WORKOUTS_FORMAT = "withings-workouts";

/** Workout figures kept as metadata (intensity, heart rate zones, pool figures, SpO2). */
const METADATA_FIELDS = [
  "intensity",
  "manual_intensity",
  "hr_min",
  "hr_zone_0",
  "hr_zone_1",
  "hr_zone_2",
  "hr_zone_3",
  "pause_duration",
  "algo_pause_duration",
  "spo2_average",
  "pool_laps",
  "pool_length",
  "strokes",
] as const;

/**
 * One page of Measure v2 - Getworkouts (its `body`: `series`) to workouts: activity type
 * from the category, `startdate`–`enddate` in the workout's `timezone`, moving time (the
 * span less the pauses the user entered), distance (m), active energy (kcal), heart rates,
 * steps. Floors climbed (`elevation`, a count of floors, not meters) stay in metadata.
 */
export function parseWithingsWorkouts(payload: unknown): ParsedRecords {
  if (!isObject(payload) || !Array.isArray(payload.series)) {
    throw new MalformedUpload("series", "a Withings workouts payload is the body of Measure v2 - Getworkouts, with a series list");
  }
  const records = emptyParsedRecords();
  payload.series.forEach((workout, index) => {
    const locator = `series[${index}]`;
    const read = readWorkout(workout, locator);
    if (typeof read === "string") records.rejected.push({ recordKind: "workout", locator, reason: read });
    else records.workouts.push(read);
  });
  return records;
}

function readWorkout(workout: unknown, locator: string): WorkoutRecord | string {
  if (!isObject(workout)) return "withings workout: not an object";
  const id = idOf(workout.id);
  const start = epochSeconds(workout.startdate);
  const end = epochSeconds(workout.enddate);
  if (id === null || start === null || end === null) return "withings workout: id, startdate or enddate is missing or invalid";
  if (end < start) return "withings workout: enddate is before startdate";
  const data = isObject(workout.data) ? workout.data : {};
  const category = typeof workout.category === "number" ? workout.category : null;
  const pause = amount(data.pause_duration) ?? 0;
  const span = (end.getTime() - start.getTime()) / 1000;
  return {
    activity_type: (category !== null ? WORKOUT_CATEGORIES[category] : undefined) ?? "other",
    start_date: start,
    end_date: end,
    timezone: text(workout.timezone, 64),
    duration_seconds: pause > 0 && pause < span ? span - pause : span,
    distance_meters: amount(data.distance) ?? amount(data.manual_distance),
    active_energy_kcal: amount(data.calories) ?? amount(data.manual_calories),
    average_heart_rate: positive(data.hr_average),
    max_heart_rate: positive(data.hr_max),
    steps: amount(data.steps),
    source: "withings",
    source_name: "Withings",
    device: modelName(workout.model),
    on_body: isWornModel(workout.model),
    external_id: id,
    metadata: metadataOf(category, data),
    locator,
  };
}

function metadataOf(category: number | null, data: JsonObject): Record<string, unknown> {
  const metadata: Record<string, unknown> = {};
  if (category !== null) metadata.withings_category = category;
  for (const field of METADATA_FIELDS) {
    const value = finiteNumber(data[field]);
    if (value !== null && value >= 0) metadata[field] = value;
  }
  const floors = amount(data.elevation);
  if (floors !== null) metadata.floors_climbed = floors;
  return metadata;
}
