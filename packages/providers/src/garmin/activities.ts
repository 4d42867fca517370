// Payloads `garmin-activities` (activity summaries) and `garmin-activity-details` (a summary
// with its samples: route, heart rate, cadence, power): workouts.

import { emptyParsedRecords, type ParsedRecords, type QuantitySampleRecord, type RoutePointRecord, type WorkoutRecord } from "@svc/core";
import { cadenceKind } from "../activity-files/activity-types.ts";
import { activityTypeOfGarmin } from "./activity-types.ts";
import { amountOf, instantOf, isObject, numberOf, offsetOf, positiveOf, summariesOf, textOf, type JsonObject } from "./fields.ts";

/** Summary fields kept as sent in the workout's metadata (speeds m/s, cadences per minute, paces min/km). */
const METADATA_FIELDS: ReadonlyArray<[string, string]> = [
  ["averageSpeedInMetersPerSecond", "average_speed"],
  ["maxSpeedInMetersPerSecond", "max_speed"],
  ["averagePaceInMinutesPerKilometer", "average_pace_min_per_km"],
  ["averageRunCadenceInStepsPerMinute", "average_run_cadence"],
  ["averageBikeCadenceInRoundsPerMinute", "average_bike_cadence"],
  ["averageSwimCadenceInStrokesPerMinute", "average_swim_cadence"],
  ["numberOfActiveLengths", "active_lengths"],
  ["totalElevationLossInMeters", "elevation_loss"],
];

interface GarminActivity {
  id: string;
  activityType: string;
  workout: WorkoutRecord;
}

/**
 * The workout of one activity summary: from `startTimeInSeconds` for `durationInSeconds`,
 * distance (m), active kcal, average and highest heart rate, elevation gain (m) and steps.
 * Its external id is the `activityId` (the summaryId without Activity Details' `-detail`), so
 * a summary and its details are one workout.
 */
function readActivity(raw: unknown, detailsId: unknown): GarminActivity | { reason: string } {
  if (!isObject(raw)) return { reason: "activity summary is not an object" };
  const id = idOf(raw.activityId) ?? idOf(detailsId) ?? summaryIdOf(raw.summaryId);
  if (!id) return { reason: "activity without an activityId or a summaryId" };
  const start = instantOf(raw.startTimeInSeconds);
  const duration = amountOf(raw.durationInSeconds);
  if (!start || duration === null) return { reason: "activity without a startTimeInSeconds or a durationInSeconds" };
  const garminType = textOf(raw.activityType, 64);
  const activityType = activityTypeOfGarmin(garminType);
  const device = textOf(raw.deviceName);
  const manual = raw.manual === true;
  const workout: WorkoutRecord = {
    activity_type: activityType,
    name: textOf(raw.activityName, 255) ?? null,
    start_date: start,
    end_date: new Date(start.getTime() + duration * 1000),
    timezone: offsetOf(raw.startTimeOffsetInSeconds),
    duration_seconds: amountOf(raw.movingDurationInSeconds),
    distance_meters: amountOf(raw.distanceInMeters),
    active_energy_kcal: amountOf(raw.activeKilocalories),
    average_heart_rate: positiveOf(raw.averageHeartRateInBeatsPerMinute),
    max_heart_rate: positiveOf(raw.maxHeartRateInBeatsPerMinute),
    elevation_gain_meters: amountOf(raw.totalElevationGainInMeters),
    steps: amountOf(raw.steps),
    source: "garmin",
    // "unknown" is what Garmin names the device of a manual activity.
    device: device && device !== "unknown" ? device : null,
    on_body: !manual,
    external_id: id,
    metadata: metadataOf(raw, garminType),
  };
  return { id, activityType, workout };
}

function idOf(value: unknown): string | undefined {
  if (typeof value === "number" && Number.isInteger(value) && value > 0) return String(value);
  if (typeof value === "string" && /^\d{1,20}$/.test(value)) return value;
  return undefined;
}

function summaryIdOf(value: unknown): string | undefined {
  const text = textOf(value, 100);
  return text?.replace(/-detail$/, "");
}

function metadataOf(raw: JsonObject, garminType: string | undefined): Record<string, unknown> {
  const metadata: Record<string, unknown> = {};
  if (garminType) metadata.garmin_activity_type = garminType;
  const summaryId = textOf(raw.summaryId, 100);
  if (summaryId) metadata.summary_id = summaryId;
  for (const [field, name] of METADATA_FIELDS) {
    const value = numberOf(raw[field]);
    if (value !== undefined) metadata[name] = value;
  }
  for (const flag of ["manual", "isParent"] as const) if (typeof raw[flag] === "boolean") metadata[flag === "isParent" ? "is_parent" : flag] = raw[flag];
  const parent = textOf(raw.parentSummaryId, 100);
  if (parent) metadata.parent_summary_id = parent;
  return metadata;
}

/** Activity summaries: one workout each; a stored route stays. */
export function parseGarminActivities(payload: unknown): ParsedRecords {
  const out = emptyParsedRecords();
  summariesOf(payload, "garmin-activities").forEach((raw, index) => {
    const activity = readActivity(raw, undefined);
    if ("reason" in activity) out.rejected.push({ recordKind: "workout", locator: `activities[${index}]`, reason: activity.reason });
    else out.workouts.push({ ...activity.workout, locator: `activities[${index}]` });
  });
  return out;
}

/**
 * Activity details: the workout of `summary` with its route (samples with a position), and
 * instant samples at each sample's time: `heart_rate` (bpm), `step_cadence` (Garmin's
 * `stepsPerMinute`, for runs, walks and hikes), `cycling_cadence` (`bikeCadenceInRPM`), and
 * `running_power` or `cycling_power` (`powerInWatts`). Zero readings are no readings.
 */
export function parseGarminActivityDetails(payload: unknown): ParsedRecords {
  const out = emptyParsedRecords();
  summariesOf(payload, "garmin-activity-details").forEach((raw, index) => {
    const locator = `activityDetails[${index}]`;
    const activity = isObject(raw) ? readActivity(raw.summary, raw.activityId ?? summaryIdOf(raw.summaryId)) : { reason: "activity details are not an object" };
    if ("reason" in activity) {
      out.rejected.push({ recordKind: "workout", locator, reason: activity.reason });
      return;
    }
    const samples = isObject(raw) && Array.isArray(raw.samples) ? raw.samples : [];
    const route: RoutePointRecord[] = [];
    samples.forEach((sample, i) => {
      const at = isObject(sample) ? instantOf(sample.startTimeInSeconds) : undefined;
      if (!isObject(sample) || !at) return;
      const latitude = numberOf(sample.latitudeInDegree);
      const longitude = numberOf(sample.longitudeInDegree);
      if (latitude !== undefined && longitude !== undefined) {
        route.push({
          timestamp: at,
          latitude,
          longitude,
          altitude: numberOf(sample.elevationInMeters) ?? null,
          speed: amountOf(sample.speedMetersPerSecond),
          heart_rate: positiveOf(sample.heartRate),
        });
      }
      out.quantitySamples.push(...pointSamples(activity, sample, at, `${locator}.samples[${i}]`));
    });
    out.workouts.push({ ...activity.workout, route, locator });
  });
  return out;
}

function pointSamples(activity: GarminActivity, sample: JsonObject, at: Date, locator: string): QuantitySampleRecord[] {
  const base = { start_date: at, source: "garmin", device: activity.workout.device, timezone: activity.workout.timezone, locator };
  const samples: QuantitySampleRecord[] = [];
  const heartRate = positiveOf(sample.heartRate);
  if (heartRate !== null) samples.push({ ...base, type: "heart_rate", value: heartRate, unit: "count/min", on_body: true });
  const kind = cadenceKind(activity.activityType);
  const steps = positiveOf(sample.stepsPerMinute);
  if (steps !== null && kind === "steps") samples.push({ ...base, type: "step_cadence", value: steps, unit: "count/min" });
  const pedal = positiveOf(sample.bikeCadenceInRPM);
  if (pedal !== null && kind === "pedal") samples.push({ ...base, type: "cycling_cadence", value: pedal, unit: "count/min" });
  const watts = positiveOf(sample.powerInWatts);
  if (watts !== null && activity.activityType === "running") samples.push({ ...base, type: "running_power", value: watts, unit: "W" });
  if (watts !== null && kind === "pedal") samples.push({ ...base, type: "cycling_power", value: watts, unit: "W" });
  return samples;
}
