import type { DailySummaryRecord } from "@svc/core";
import { emptyParsedRecords, MalformedUpload, type ParsedRecords } from "../parsed-records.ts";
import { amount, durationSeconds, finiteNumber, isCalendarDay, isObject, type JsonObject } from "./values.ts";

export const POLAR_ACTIVITIES_FORMAT = "polar-activities";

/**
 * List activities (`/v3/users/activities`, an array of daily summaries) to daily summaries.
 * A day is the device's local date (`samples.date`, else the date of `start_time`, the
 * start of the day on the device's clock; Polar gives no zone). Steps, distance from steps
 * (m), active seconds (`active_duration`), active and total energy (kcal).
 */
export function parsePolarActivities(payload: unknown): ParsedRecords {
  const days = Array.isArray(payload) ? payload : isObject(payload) && Array.isArray(payload.activities) ? payload.activities : null;
  if (!days) throw new MalformedUpload("activities", "a Polar activities payload is the list of List activities");
  const records = emptyParsedRecords();
  days.forEach((day, index) => {
    const locator = `[${index}]`;
    const date = isObject(day) ? dateOf(day) : null;
    if (!isObject(day) || !date) {
      records.rejected.push({ recordKind: "daily_summary", locator, reason: "polar activity: its date (start_time) is missing or invalid" });
      return;
    }
    records.dailySummaries.push(summaryOf(day, date, locator));
  });
  return records;
}

function dateOf(day: JsonObject): string | null {
  if (isObject(day.samples) && isCalendarDay(day.samples.date)) return day.samples.date;
  const start = typeof day.start_time === "string" ? day.start_time.slice(0, 10) : null;
  return isCalendarDay(start) ? start : null;
}

function summaryOf(day: JsonObject, date: string, locator: string): DailySummaryRecord {
  const metadata: Record<string, unknown> = {};
  const dailyActivity = finiteNumber(day.daily_activity);
  if (dailyActivity !== null) metadata.daily_activity_percent = dailyActivity;
  const alerts = amount(day.inactivity_alert_count);
  if (alerts !== null) metadata.inactivity_alert_count = alerts;
  const inactive = durationSeconds(day.inactive_duration);
  if (inactive !== null) metadata.inactive_seconds = inactive;
  return {
    date,
    steps: amount(day.steps),
    distance_meters: amount(day.distance_from_steps),
    active_energy_kcal: amount(day.active_calories),
    total_energy_kcal: amount(day.calories),
    active_seconds: durationSeconds(day.active_duration),
    source: "polar",
    on_body: true,
    metadata,
    locator,
  };
}
