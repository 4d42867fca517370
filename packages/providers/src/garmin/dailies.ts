// Payload `garmin-dailies`: daily summaries (Health API "dailies").

import { emptyParsedRecords, type ParsedRecords } from "@svc/core";
import {
  amountOf,
  calendarDateOf,
  GARMIN_WORN,
  instantOf,
  isObject,
  numberOf,
  offsetOf,
  offsetReadings,
  positiveOf,
  summariesOf,
  textOf,
  type JsonObject,
} from "./fields.ts";

/** Figures kept as sent in the daily summary's metadata (durations s, energy kcal, stress 1-100, heart rates bpm). */
const METADATA_FIELDS: ReadonlyArray<[string, string]> = [
  ["durationInSeconds", "duration_seconds"],
  ["bmrKilocalories", "bmr_kcal"],
  ["moderateIntensityDurationInSeconds", "moderate_intensity_seconds"],
  ["vigorousIntensityDurationInSeconds", "vigorous_intensity_seconds"],
  ["minHeartRateInBeatsPerMinute", "min_heart_rate"],
  ["maxHeartRateInBeatsPerMinute", "max_heart_rate"],
  ["averageHeartRateInBeatsPerMinute", "seven_day_average_heart_rate"],
  ["averageStressLevel", "average_stress_level"],
  ["maxStressLevel", "max_stress_level"],
  ["stressDurationInSeconds", "stress_seconds"],
  ["restStressDurationInSeconds", "rest_stress_seconds"],
  ["bodyBatteryChargedValue", "body_battery_charged"],
  ["bodyBatteryDrainedValue", "body_battery_drained"],
  ["pushes", "pushes"],
  ["pushDistanceInMeters", "push_distance_meters"],
  ["stepsGoal", "steps_goal"],
];

/**
 * One daily summary per `calendarDate` (the day Garmin Connect shows it on; its zone is the
 * device's offset): steps, distance (m), active kcal, total kcal (active + BMR, when both are
 * sent), floors, active seconds and resting heart rate. Garmin's
 * `averageHeartRateInBeatsPerMinute` averages the last 7 days, not the day, so it is kept in
 * metadata only. Also a `resting_heart_rate` sample over the monitoring period and one
 * `heart_rate` sample per `timeOffsetHeartRateSamples` entry (each stands for the 15 seconds
 * before it, placed at its offset). A day synced again updates: the summary by its date, the
 * resting heart rate by the day's start time (Garmin's identity of a summary).
 */
export function parseGarminDailies(payload: unknown): ParsedRecords {
  const out = emptyParsedRecords();
  summariesOf(payload, "garmin-dailies").forEach((raw, index) => {
    const locator = `dailies[${index}]`;
    const start = isObject(raw) ? instantOf(raw.startTimeInSeconds) : undefined;
    const date = isObject(raw) ? calendarDateOf(raw.calendarDate) : undefined;
    if (!isObject(raw) || !start || !date) {
      out.rejected.push({ recordKind: "daily_summary", locator, reason: "daily summary without a calendarDate or a startTimeInSeconds" });
      return;
    }
    const timezone = offsetOf(raw.startTimeOffsetInSeconds);
    const active = amountOf(raw.activeKilocalories);
    const bmr = amountOf(raw.bmrKilocalories);
    const restingHeartRate = positiveOf(raw.restingHeartRateInBeatsPerMinute);
    out.dailySummaries.push({
      date,
      timezone,
      steps: amountOf(raw.steps),
      distance_meters: amountOf(raw.distanceInMeters),
      active_energy_kcal: active,
      total_energy_kcal: active !== null && bmr !== null ? active + bmr : null,
      floors_climbed: amountOf(raw.floorsClimbed),
      active_seconds: amountOf(raw.activeTimeInSeconds),
      resting_heart_rate: restingHeartRate,
      ...GARMIN_WORN,
      metadata: metadataOf(raw),
      locator,
    });
    const base = { ...GARMIN_WORN, timezone, locator };
    const duration = amountOf(raw.durationInSeconds) ?? 0;
    if (restingHeartRate !== null) {
      out.quantitySamples.push({
        ...base,
        type: "resting_heart_rate",
        value: restingHeartRate,
        unit: "count/min",
        start_date: start,
        end_date: new Date(start.getTime() + duration * 1000),
        external_id: `dailies:${start.getTime() / 1000}`,
      });
    }
    const { readings, unreadable } = offsetReadings(raw.timeOffsetHeartRateSamples, start);
    for (const reading of readings) {
      if (reading.value > 0) out.quantitySamples.push({ ...base, type: "heart_rate", value: reading.value, unit: "count/min", start_date: reading.at });
    }
    if (unreadable > 0) {
      out.rejected.push({ recordKind: "quantity_sample", locator: `${locator}.timeOffsetHeartRateSamples`, reason: `${unreadable} entries without a whole-second offset and a number` });
    }
  });
  return out;
}

function metadataOf(raw: JsonObject): Record<string, unknown> {
  const metadata: Record<string, unknown> = {};
  const summaryId = textOf(raw.summaryId, 100);
  if (summaryId) metadata.summary_id = summaryId;
  for (const [field, name] of METADATA_FIELDS) {
    const value = numberOf(raw[field]);
    if (value !== undefined) metadata[name] = value;
  }
  const qualifier = textOf(raw.stressQualifier, 40);
  if (qualifier) metadata.stress_qualifier = qualifier;
  return metadata;
}
