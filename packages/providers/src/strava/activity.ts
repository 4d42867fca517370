// One Strava SummaryActivity (GET /athlete/activities) as a workout.

import type { WorkoutRecord } from "@svc/core";
import { vendorFromName } from "../activity-files/devices.ts";
import { utcOffset } from "../activity-files/shared.ts";
import { idOf, isObject, numberOf, textOf, type JsonObject } from "./json.ts";
import { activityTypeOfStrava } from "./sport-types.ts";

/** What the records made from one activity share. */
export interface StravaActivity {
  id: string;
  start: Date;
  activityType: string;
  timezone: string | null;
  source: string | null;
  device: string | null;
  workout: WorkoutRecord;
}

/** Strava's `timezone` reads `(GMT+01:00) Europe/Paris`: the IANA name after the parenthesis. */
function ianaZoneOf(value: unknown): string | undefined {
  const text = textOf(value, 100);
  const match = text ? /^\([^)]*\)\s*([A-Za-z][A-Za-z0-9_+\-/]*)$/.exec(text) : null;
  return match?.[1];
}

const nonNegative = (value: unknown): number | null => {
  const n = numberOf(value);
  return n !== undefined && n >= 0 ? n : null;
};

const heartRate = (value: unknown): number | null => {
  const n = numberOf(value);
  return n !== undefined && n > 0 ? n : null;
};

/** Strava fields kept as sent in the workout's metadata (speeds m/s, power W, work kJ, elevations m). */
const METADATA_FIELDS = [
  "workout_type",
  "trainer",
  "commute",
  "manual",
  "elapsed_time",
  "average_speed",
  "max_speed",
  "average_cadence",
  "average_watts",
  "weighted_average_watts",
  "max_watts",
  "kilojoules",
  "device_watts",
  "elev_high",
  "elev_low",
] as const;

/**
 * The workout of an activity, or why it cannot be read (never quoting a value). Strava gives
 * no energy in summaries (`kilojoules` is a ride's mechanical work, kept in metadata), so
 * energy stays empty. The end is the start plus the elapsed time; `duration_seconds` is the
 * moving time.
 */
export function readStravaActivity(raw: unknown): StravaActivity | { reason: string } {
  if (!isObject(raw)) return { reason: "activity is not an object" };
  const id = idOf(raw.id);
  if (!id) return { reason: "activity: id is missing or not a positive integer" };
  const startText = textOf(raw.start_date, 40);
  const start = startText && /(Z|[+-]\d{2}:\d{2})$/.test(startText) ? new Date(startText) : undefined;
  if (!start || Number.isNaN(start.getTime())) return { reason: "activity: start_date is missing or not a time with a zone" };
  const elapsed = nonNegative(raw.elapsed_time);
  if (elapsed === null) return { reason: "activity: elapsed_time is missing or negative" };

  const activityType = activityTypeOfStrava(raw.sport_type, raw.type);
  const utcOffsetSeconds = numberOf(raw.utc_offset);
  const timezone = ianaZoneOf(raw.timezone) ?? (utcOffsetSeconds === undefined ? undefined : utcOffset(utcOffsetSeconds)) ?? null;
  const device = textOf(raw.device_name) ?? null;
  const source = vendorFromName(device ?? undefined);
  const workout: WorkoutRecord = {
    activity_type: activityType,
    name: textOf(raw.name, 255) ?? null,
    start_date: start,
    end_date: new Date(start.getTime() + elapsed * 1000),
    timezone,
    duration_seconds: nonNegative(raw.moving_time),
    distance_meters: nonNegative(raw.distance),
    average_heart_rate: heartRate(raw.average_heartrate),
    max_heart_rate: heartRate(raw.max_heartrate),
    elevation_gain_meters: nonNegative(raw.total_elevation_gain),
    source,
    device,
    external_id: id,
    metadata: metadataOf(raw),
    locator: `activity ${id}`,
  };
  return { id, start, activityType, timezone, source, device, workout };
}

function metadataOf(raw: JsonObject): Record<string, unknown> {
  const metadata: Record<string, unknown> = {};
  const sportType = textOf(raw.sport_type, 64);
  const type = textOf(raw.type, 64);
  if (sportType) metadata.strava_sport_type = sportType;
  if (type) metadata.strava_type = type;
  for (const field of METADATA_FIELDS) {
    const value = raw[field];
    if (typeof value === "boolean" || numberOf(value) !== undefined) metadata[field] = value;
  }
  return metadata;
}
