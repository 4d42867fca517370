// Payload `garmin-user-metrics`: per-day metrics Garmin computes (VO2 max, fitness age).

import { emptyParsedRecords, type ParsedRecords } from "@svc/core";
import { calendarDateOf, GARMIN_WORN, isObject, numberOf, positiveOf, summariesOf, textOf } from "./fields.ts";

/**
 * A `vo2_max` sample (mL/(kg·min)) per calendar date. User metrics have a date and no time:
 * the sample is placed at 00:00 UTC of that date, without a zone, so its day is the date
 * Garmin gives. The cycling VO2 max, fitness age and `enhanced` stay in metadata. External id
 * `userMetrics:<date>` (the latest value of a day replaces the earlier one).
 */
export function parseGarminUserMetrics(payload: unknown): ParsedRecords {
  const out = emptyParsedRecords();
  summariesOf(payload, "garmin-user-metrics").forEach((raw, index) => {
    const locator = `userMetrics[${index}]`;
    const date = isObject(raw) ? calendarDateOf(raw.calendarDate) : undefined;
    if (!isObject(raw) || !date) {
      out.rejected.push({ recordKind: "quantity_sample", locator, reason: "user metrics without a calendarDate" });
      return;
    }
    const vo2Max = positiveOf(raw.vo2Max);
    if (vo2Max === null) return;
    const metadata: Record<string, unknown> = { calendar_date: date };
    const summaryId = textOf(raw.summaryId, 100);
    if (summaryId) metadata.summary_id = summaryId;
    const cycling = numberOf(raw.vo2MaxCycling);
    if (cycling !== undefined) metadata.vo2_max_cycling = cycling;
    const fitnessAge = numberOf(raw.fitnessAge);
    if (fitnessAge !== undefined) metadata.fitness_age = fitnessAge;
    if (typeof raw.enhanced === "boolean") metadata.enhanced = raw.enhanced;
    out.quantitySamples.push({
      ...GARMIN_WORN,
      type: "vo2_max",
      value: vo2Max,
      unit: "mL/(kg.min)",
      start_date: new Date(`${date}T00:00:00Z`),
      external_id: `userMetrics:${date}`,
      metadata,
      locator,
    });
  });
  return out;
}
