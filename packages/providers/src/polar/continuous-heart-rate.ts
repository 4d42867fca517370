import type { QuantitySampleRecord } from "@svc/core";
import { emptyParsedRecords, MalformedUpload, type ParsedRecords } from "../parsed-records.ts";
import { isCalendarDay, isObject, isUtcOffset, offsetText, positive, timeOfDaySeconds } from "./values.ts";

export const POLAR_CONTINUOUS_HEART_RATE_FORMAT = "polar-continuous-heart-rate";

/**
 * The shape svc stores a day of continuous heart rate in: Polar's answer as sent, and the
 * UTC offset of the user's device that day (Polar's samples are device times without a
 * zone; the offset comes from the user's sleep times of that day or the nearest one).
 */
export interface PolarContinuousHeartRateDay {
  utc_offset_minutes: number | null;
  continuous_heart_rate: unknown;
}

/**
 * A day of continuous heart rate (5-minute averages, bpm) to `heart_rate` samples at the
 * date and `sample_time` in the day's offset. Without an offset the day's samples cannot be
 * placed in time: one rejected record for the day.
 */
export function parsePolarContinuousHeartRate(payload: unknown): ParsedRecords {
  if (!isObject(payload) || !isObject(payload.continuous_heart_rate) || !isCalendarDay(payload.continuous_heart_rate.date)) {
    const expected = "a Polar continuous heart rate payload is {utc_offset_minutes, continuous_heart_rate} with a dated answer";
    throw new MalformedUpload("continuous_heart_rate", expected);
  }
  const records = emptyParsedRecords();
  const { date, heart_rate_samples: samples } = payload.continuous_heart_rate;
  if (!Array.isArray(samples)) return records;
  const offset = payload.utc_offset_minutes;
  if (!isUtcOffset(offset)) {
    if (samples.length > 0) {
      const reason = "polar continuous heart rate: no UTC offset is known for the day";
      records.rejected.push({ recordKind: "quantity_sample", locator: "heart_rate_samples", reason });
    }
    return records;
  }
  const midnight = Date.parse(`${date}T00:00:00Z`) - offset * 60_000;
  samples.forEach((sample, index) => {
    const locator = `heart_rate_samples[${index}]`;
    const seconds = isObject(sample) ? timeOfDaySeconds(sample.sample_time) : null;
    const bpm = isObject(sample) ? positive(sample.heart_rate) : null;
    if (!isObject(sample) || seconds === null || bpm === null) {
      records.rejected.push({ recordKind: "quantity_sample", locator, reason: "polar continuous heart rate: sample_time or heart_rate is invalid" });
      return;
    }
    records.quantitySamples.push({
      type: "heart_rate",
      value: bpm,
      unit: "count/min",
      start_date: new Date(midnight + seconds * 1000),
      source: "polar",
      source_name: "Polar",
      on_body: true,
      timezone: offsetText(offset),
      external_id: `chr:${date}T${String(sample.sample_time)}`,
      locator,
    } satisfies QuantitySampleRecord);
  });
  return records;
}
