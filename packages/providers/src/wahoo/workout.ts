// One Wahoo workout as records. With its FIT file, the activity-file pipeline's FIT parser
// gives the workout (route, laps in its metadata, heart rate, cadence and power samples);
// without one, or with a file that cannot be read, the workout summary's figures make the
// workout. Either way the workout's external id is Wahoo's workout id, so a workout first
// stored from its summary alone is replaced when its file arrives.

import type { WorkoutRecord } from "@svc/core";
import { parseActivityFile } from "../activity-files/activity-file.ts";
import { emptyParsedRecords, MalformedUpload, type ParsedRecords } from "../parsed-records.ts";
import { figure, idOf, instantOf, isObject, type JsonObject } from "./json.ts";
import { activityTypeOfWahoo } from "./workout-types.ts";

export const WAHOO_WORKOUT_FORMAT = "wahoo-workout";

/** What the pull stores per workout: the API's workout and summary, and the FIT file (base64) when there is one. */
export interface WahooWorkoutPayload {
  workout: JsonObject;
  workout_summary: JsonObject;
  fit_file: string | null;
}

/** Summary figures kept as metadata (decimal strings in the API). */
const METADATA_FIGURES = ["cadence_avg", "power_avg", "power_bike_np_last", "power_bike_tss_last", "speed_avg", "work_accum", "duration_paused_accum"] as const;

export function parseWahooWorkout(payload: unknown): ParsedRecords {
  if (!isObject(payload) || !isObject(payload.workout) || !isObject(payload.workout_summary)) {
    throw new MalformedUpload("workout", "a Wahoo workout payload is {workout, workout_summary, fit_file}");
  }
  const { workout, workout_summary: summary } = payload;
  const workoutId = idOf(workout.id);
  if (!workoutId) {
    const out = emptyParsedRecords();
    out.rejected.push({ recordKind: "workout", locator: "workout", reason: "wahoo workout: id is missing or invalid" });
    return out;
  }
  const metadata = metadataOf(workoutId, workout, summary);
  if (typeof payload.fit_file === "string" && payload.fit_file !== "") {
    const fromFile = parseActivityFile(Buffer.from(payload.fit_file, "base64"));
    if (fromFile.workouts.length > 0) {
      fromFile.workouts.forEach((record, index) => {
        record.external_id = index === 0 ? workoutId : `${workoutId}:session:${index}`;
        record.metadata = { ...record.metadata, ...metadata };
        record.name ??= nameOf(workout);
      });
      return fromFile;
    }
    // The file gave no workout (unreadable, or no session): its rejection stays, the summary makes the workout.
    const out = summaryRecords(workoutId, workout, summary, metadata);
    out.rejected.push(...fromFile.rejected);
    out.quantitySamples.push(...fromFile.quantitySamples);
    return out;
  }
  return summaryRecords(workoutId, workout, summary, metadata);
}

/**
 * The workout from the summary: it starts at the workout's `starts` and lasts the summary's
 * `duration_total_accum` (seconds, pauses included); the duration is the active time.
 * Distances in meters, energy in kcal, ascent in meters.
 */
function summaryRecords(workoutId: string, workout: JsonObject, summary: JsonObject, metadata: Record<string, unknown>): ParsedRecords {
  const out = emptyParsedRecords();
  const start = instantOf(workout.starts);
  const total = figure(summary.duration_total_accum) ?? figure(summary.duration_active_accum);
  if (!start || total === null) {
    out.rejected.push({ recordKind: "workout", locator: "workout", reason: "wahoo workout: starts or the summary's duration is missing or invalid" });
    return out;
  }
  const record: WorkoutRecord = {
    activity_type: activityTypeOfWahoo(workout.workout_type_id),
    name: nameOf(workout),
    start_date: start,
    end_date: new Date(start.getTime() + Math.round(total * 1000)),
    duration_seconds: figure(summary.duration_active_accum) ?? total,
    distance_meters: figure(summary.distance_accum),
    total_energy_kcal: figure(summary.calories_accum),
    average_heart_rate: positive(figure(summary.heart_rate_avg)),
    elevation_gain_meters: figure(summary.ascent_accum),
    source: "wahoo",
    source_name: "Wahoo",
    device: null,
    on_body: true,
    external_id: workoutId,
    metadata,
    locator: "workout",
  };
  out.workouts.push(record);
  return out;
}

function metadataOf(workoutId: string, workout: JsonObject, summary: JsonObject): Record<string, unknown> {
  const metadata: Record<string, unknown> = { wahoo_workout_id: workoutId };
  if (typeof workout.workout_type_id === "number") metadata.wahoo_workout_type_id = workout.workout_type_id;
  const summaryId = idOf(summary.id);
  if (summaryId) metadata.wahoo_workout_summary_id = summaryId;
  for (const field of METADATA_FIGURES) {
    const value = figure(summary[field]);
    if (value !== null) metadata[field] = value;
  }
  return metadata;
}

function nameOf(workout: JsonObject): string | null {
  return typeof workout.name === "string" && workout.name.trim() !== "" ? workout.name.trim().slice(0, 200) : null;
}

function positive(value: number | null): number | null {
  return value !== null && value > 0 ? value : null;
}
