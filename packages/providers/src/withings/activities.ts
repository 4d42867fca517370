import type { DailySummaryRecord } from "@svc/core";
import { emptyParsedRecords, MalformedUpload, type ParsedRecords } from "../parsed-records.ts";
import { amount, finiteNumber, isCalendarDay, isObject, positive, text, type JsonObject } from "./values.ts";

export const WITHINGS_ACTIVITIES_FORMAT = "withings-activities";

/** Figures of a day kept as metadata (seconds of each intensity, heart rate zones). */
const METADATA_FIELDS = ["soft", "moderate", "intense", "hr_min", "hr_max", "hr_zone_0", "hr_zone_1", "hr_zone_2", "hr_zone_3", "brand"] as const;

/**
 * One page of Measure v2 - Getactivity (its `body`: `activities`) to daily summaries, one
 * per local `date` in the day's `timezone`: steps, distance (m), floors climbed
 * (`elevation` counts floors), active seconds (`active` = moderate + intense), active and
 * total energy (kcal), average heart rate.
 */
export function parseWithingsActivities(payload: unknown): ParsedRecords {
  if (!isObject(payload) || !Array.isArray(payload.activities)) {
    throw new MalformedUpload("activities", "a Withings activity payload is the body of Measure v2 - Getactivity, with an activities list");
  }
  const records = emptyParsedRecords();
  payload.activities.forEach((day, index) => {
    const locator = `activities[${index}]`;
    if (!isObject(day) || !isCalendarDay(day.date)) {
      records.rejected.push({ recordKind: "daily_summary", locator, reason: "withings activity: date is missing or not a YYYY-MM-DD date" });
      return;
    }
    records.dailySummaries.push(summaryOf(day, day.date, locator));
  });
  return records;
}

function summaryOf(day: JsonObject, date: string, locator: string): DailySummaryRecord {
  const moderate = amount(day.moderate);
  const intense = amount(day.intense);
  const active = amount(day.active) ?? (moderate !== null || intense !== null ? (moderate ?? 0) + (intense ?? 0) : null);
  const metadata: Record<string, unknown> = {};
  for (const field of METADATA_FIELDS) {
    const value = finiteNumber(day[field]);
    if (value !== null && value >= 0) metadata[field] = value;
  }
  if (typeof day.is_tracker === "boolean") metadata.is_tracker = day.is_tracker;
  return {
    date,
    timezone: text(day.timezone, 64),
    steps: amount(day.steps),
    distance_meters: amount(day.distance),
    active_energy_kcal: amount(day.calories),
    total_energy_kcal: amount(day.totalcalories),
    floors_climbed: amount(day.elevation),
    active_seconds: active,
    average_heart_rate: positive(day.hr_average),
    source: "withings",
    device: text(day.model),
    on_body: day.is_tracker === true,
    metadata,
    locator,
  };
}
