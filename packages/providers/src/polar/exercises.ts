import type { RoutePointRecord, WorkoutRecord } from "@svc/core";
import { emptyParsedRecords, MalformedUpload, type ParsedRecords } from "../parsed-records.ts";
import { activityTypeOf } from "./sports.ts";
import { amount, durationSeconds, finiteNumber, isObject, isUtcOffset, offsetText, positive, text, wallClockMs, type JsonObject } from "./values.ts";

export const POLAR_EXERCISES_FORMAT = "polar-exercises";

/** Exercise figures kept as metadata. */
const METADATA_FIELDS = ["training_load", "running-index", "fat_percentage", "carbohydrate_percentage", "protein_percentage", "club_id"] as const;

/**
 * Exercises of List exercises (`/v3/exercises`, an array) to workouts: `start_time` is the
 * training computer's local time and `start_time_utc_offset` its offset in minutes, so the
 * start is their difference and the zone that offset; the end is the start plus
 * `duration`. Calories are Polar's energy expenditure of the session (total, kcal). The
 * hashed id is the external id. Route points are placed at start + their `time`.
 */
export function parsePolarExercises(payload: unknown): ParsedRecords {
  if (!Array.isArray(payload)) throw new MalformedUpload("exercises", "a Polar exercises payload is the list of List exercises");
  const records = emptyParsedRecords();
  payload.forEach((exercise, index) => {
    const locator = `[${index}]`;
    const read = readExercise(exercise, locator);
    if (typeof read === "string") records.rejected.push({ recordKind: "workout", locator, reason: read });
    else records.workouts.push(read);
  });
  return records;
}

/** The instant an exercise started (local start time less its UTC offset), or null. */
export function exerciseStart(exercise: unknown): Date | null {
  if (!isObject(exercise) || !isUtcOffset(exercise.start_time_utc_offset)) return null;
  const local = wallClockMs(exercise.start_time);
  return local === null ? null : new Date(local - exercise.start_time_utc_offset * 60_000);
}

function readExercise(exercise: unknown, locator: string): WorkoutRecord | string {
  if (!isObject(exercise)) return "polar exercise: not an object";
  const id = text(exercise.id, 64);
  const start = exerciseStart(exercise);
  const duration = durationSeconds(exercise.duration);
  if (!id || !start || duration === null) return "polar exercise: id, start_time, start_time_utc_offset or duration is missing or invalid";
  const heartRate = isObject(exercise.heart_rate) ? exercise.heart_rate : {};
  const sport = text(exercise.sport, 64);
  const detailedSport = text(exercise.detailed_sport_info, 64);
  const workout: WorkoutRecord = {
    activity_type: activityTypeOf(detailedSport, sport),
    start_date: start,
    end_date: new Date(start.getTime() + duration * 1000),
    timezone: offsetText(exercise.start_time_utc_offset as number),
    duration_seconds: duration,
    distance_meters: amount(exercise.distance),
    total_energy_kcal: amount(exercise.calories),
    average_heart_rate: positive(heartRate.average),
    max_heart_rate: positive(heartRate.maximum),
    source: "polar",
    source_name: "Polar",
    device: text(exercise.device),
    on_body: true,
    external_id: id,
    metadata: metadataOf(exercise, sport, detailedSport),
    locator,
  };
  if (Array.isArray(exercise.route)) workout.route = routeOf(exercise.route, start);
  return workout;
}

function routeOf(points: readonly unknown[], start: Date): RoutePointRecord[] {
  const route: RoutePointRecord[] = [];
  for (const point of points) {
    if (!isObject(point)) continue;
    const offset = durationSeconds(point.time);
    const latitude = finiteNumber(point.latitude);
    const longitude = finiteNumber(point.longitude);
    // The writer leaves out points with an invalid time or position (and counts them).
    route.push({
      timestamp: new Date(offset === null ? Number.NaN : start.getTime() + offset * 1000),
      latitude: latitude ?? Number.NaN,
      longitude: longitude ?? Number.NaN,
    });
  }
  return route;
}

function metadataOf(exercise: JsonObject, sport: string | null, detailedSport: string | null): Record<string, unknown> {
  const metadata: Record<string, unknown> = {};
  if (sport) metadata.polar_sport = sport;
  if (detailedSport) metadata.polar_detailed_sport = detailedSport;
  const deviceId = text(exercise.device_id, 64);
  if (deviceId) metadata.device_id = deviceId;
  for (const field of METADATA_FIELDS) {
    const value = finiteNumber(exercise[field]);
    if (value !== null) metadata[field.replaceAll("-", "_")] = value;
  }
  return metadata;
}
