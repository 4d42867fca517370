// The `exercise` session data type to workouts.
import type { WorkoutRecord } from "@svc/core";
import type { Provenance } from "./data-source.ts";
import { isObject, numberOf, textOf, type JsonObject } from "./json.ts";
import { durationSeconds, instantOf, offsetOf } from "./times.ts";

const EXERCISE_TYPES: Readonly<Record<string, string>> = {
  RUNNING: "running",
  WALKING: "walking",
  BIKING: "cycling",
  SWIMMING: "swimming",
  HIKING: "hiking",
  YOGA: "yoga",
  PILATES: "pilates",
  WORKOUT: "mixed_cardio",
  HIIT: "high_intensity_interval_training",
  WEIGHTLIFTING: "strength_training",
  STRENGTH_TRAINING: "strength_training",
  OTHER: "other",
};

/** Millimetres (Google Health's distance unit) as metres. */
const metres = (millimetres: number | null) => (millimetres === null ? null : millimetres / 1000);

/**
 * A workout from the physical interval, `activeDuration` as moving time and the metrics
 * summary: distance and elevation gain from millimetres to metres, calories as the total
 * energy of the exercise, average heart rate and steps (int64 strings).
 */
export function exerciseWorkout(body: JsonObject, provenance: Provenance, externalId: string | null): WorkoutRecord | string {
  const interval = isObject(body.interval) ? body.interval : {};
  const start = instantOf(interval.startTime);
  const end = instantOf(interval.endTime);
  if (!start || !end) return "interval.startTime or endTime is not an RFC 3339 time";
  const summary = isObject(body.metricsSummary) ? body.metricsSummary : {};
  const type = typeof body.exerciseType === "string" && Object.hasOwn(EXERCISE_TYPES, body.exerciseType) ? EXERCISE_TYPES[body.exerciseType] : undefined;
  const metadata: Record<string, unknown> = { ...provenance.metadata, exercise_type: textOf(body.exerciseType, 40) };
  const vo2 = numberOf(summary.runVo2Max);
  if (vo2 !== null) metadata.run_vo2_max = vo2;
  return {
    ...provenance,
    activity_type: type ?? "other",
    name: textOf(body.displayName, 100),
    start_date: start,
    end_date: end,
    timezone: offsetOf(interval.startUtcOffset),
    duration_seconds: durationSeconds(body.activeDuration),
    distance_meters: metres(numberOf(summary.distanceMillimeters)),
    total_energy_kcal: numberOf(summary.caloriesKcal),
    average_heart_rate: numberOf(summary.averageHeartRateBeatsPerMinute),
    elevation_gain_meters: metres(numberOf(summary.elevationGainMillimeters)),
    steps: numberOf(summary.steps),
    external_id: externalId,
    metadata,
  };
}
