// One Suunto workout as records. With its FIT file, the activity-file pipeline's FIT parser
// gives the workout (route, laps in its metadata, heart rate and other samples); without
// one, or with a file that cannot be read, the workout's summary figures make the workout.
// Either way the workout's external id is Suunto's workoutKey, so a workout first stored
// from its summary alone is replaced when its file arrives.

import type { WorkoutRecord } from "@svc/core";
import { parseActivityFile } from "../activity-files/activity-file.ts";
import { emptyParsedRecords, MalformedUpload, type ParsedRecords } from "../parsed-records.ts";
import { figure, instantOfMs, isObject, workoutKeyOf, type JsonObject } from "./json.ts";

export const SUUNTO_WORKOUT_FORMAT = "suunto-workout";

/** What the pull stores per workout: the list's workout and its FIT file (base64) when there is one. */
export interface SuuntoWorkoutPayload {
  workout: JsonObject;
  fit_file: string | null;
}

export function parseSuuntoWorkout(payload: unknown): ParsedRecords {
  if (!isObject(payload) || !isObject(payload.workout)) throw new MalformedUpload("workout", "a Suunto workout payload is {workout, fit_file}");
  const { workout } = payload;
  const key = workoutKeyOf(workout.workoutKey);
  if (!key) {
    const out = emptyParsedRecords();
    out.rejected.push({ recordKind: "workout", locator: "workout", reason: "suunto workout: workoutKey is missing or invalid" });
    return out;
  }
  const metadata = metadataOf(key, workout);
  if (typeof payload.fit_file === "string" && payload.fit_file !== "") {
    const fromFile = parseActivityFile(Buffer.from(payload.fit_file, "base64"));
    if (fromFile.workouts.length > 0) {
      fromFile.workouts.forEach((record, index) => {
        record.external_id = index === 0 ? key : `${key}:session:${index}`;
        record.metadata = { ...record.metadata, ...metadata };
      });
      return fromFile;
    }
    // The file gave no workout (unreadable, or no session): its rejection stays, the summary makes the workout.
    const out = summaryRecords(key, workout, metadata);
    out.rejected.push(...fromFile.rejected);
    out.quantitySamples.push(...fromFile.quantitySamples);
    return out;
  }
  return summaryRecords(key, workout, metadata);
}

/**
 * The workout from its summary: `startTime` (epoch ms) to `stopTime`, else start plus
 * `totalTime` (seconds); distance and ascent in meters, energy in kcal, heart rate in bpm.
 * Suunto publishes no table of its activity ids: without a file the type is `other` and the
 * id stays in the metadata.
 */
function summaryRecords(key: string, workout: JsonObject, metadata: Record<string, unknown>): ParsedRecords {
  const out = emptyParsedRecords();
  const start = instantOfMs(workout.startTime);
  const total = figure(workout.totalTime);
  const stop = instantOfMs(workout.stopTime);
  const end = stop && start && stop > start ? stop : start && total !== null ? new Date(start.getTime() + Math.round(total * 1000)) : null;
  if (!start || !end) {
    out.rejected.push({ recordKind: "workout", locator: "workout", reason: "suunto workout: startTime or totalTime is missing or invalid" });
    return out;
  }
  const hr = isObject(workout.hrdata) ? workout.hrdata : {};
  const record: WorkoutRecord = {
    activity_type: "other",
    name: null,
    start_date: start,
    end_date: end,
    duration_seconds: total ?? (end.getTime() - start.getTime()) / 1000,
    distance_meters: figure(workout.totalDistance),
    total_energy_kcal: figure(workout.energyConsumption),
    average_heart_rate: positive(figure(hr.workoutAvgHR)),
    elevation_gain_meters: figure(workout.totalAscent),
    source: "suunto",
    source_name: "Suunto",
    device: null,
    on_body: true,
    external_id: key,
    metadata,
    locator: "workout",
  };
  out.workouts.push(record);
  return out;
}

function metadataOf(key: string, workout: JsonObject): Record<string, unknown> {
  const metadata: Record<string, unknown> = { suunto_workout_key: key };
  if (typeof workout.activityId === "number" && Number.isSafeInteger(workout.activityId)) metadata.suunto_activity_id = workout.activityId;
  const hr = isObject(workout.hrdata) ? workout.hrdata : {};
  const figures: Record<string, unknown> = {
    max_heart_rate: positive(figure(hr.workoutMaxHR)),
    step_count: figure(workout.stepCount),
    elevation_loss_meters: figure(workout.totalDescent),
    average_speed_mps: figure(workout.avgSpeed),
    max_speed_mps: figure(workout.maxSpeed),
    time_offset_minutes: typeof workout.timeOffsetInMinutes === "number" && Number.isSafeInteger(workout.timeOffsetInMinutes) ? workout.timeOffsetInMinutes : null,
  };
  for (const [name, value] of Object.entries(figures)) if (value !== null) metadata[name] = value;
  return metadata;
}

function positive(value: number | null): number | null {
  return value !== null && value > 0 ? value : null;
}
