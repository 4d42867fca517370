// Reading Garmin Health and Activity API summaries field by field: times are UTC epoch
// seconds, `...OffsetInSeconds` the offset of the device's display time, maps of readings
// are keyed by seconds from the summary's start.

import { utcOffset } from "../activity-files/shared.ts";

export type JsonObject = Record<string, unknown>;

export const isObject = (value: unknown): value is JsonObject => typeof value === "object" && value !== null && !Array.isArray(value);

/** A finite number, or undefined. */
export function numberOf(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

/** A number of at least 0, or null. */
export function amountOf(value: unknown): number | null {
  const n = numberOf(value);
  return n !== undefined && n >= 0 ? n : null;
}

/** A number above 0, or null (Garmin sends 0 for a heart rate it did not measure). */
export function positiveOf(value: unknown): number | null {
  const n = numberOf(value);
  return n !== undefined && n > 0 ? n : null;
}

/** A non-blank string (trimmed, at most `max` characters), or undefined. */
export function textOf(value: unknown, max = 200): string | undefined {
  return typeof value === "string" && value.trim() !== "" ? value.trim().slice(0, max) : undefined;
}

/** Epoch seconds after 2000 and before 2100 as an instant, or undefined. */
export function instantOf(seconds: unknown): Date | undefined {
  const n = numberOf(seconds);
  if (n === undefined || n < 946_684_800 || n > 4_102_444_800) return undefined;
  return new Date(Math.round(n * 1000));
}

/** The device's offset from UTC as `±hh:mm` (rounded to 15 minutes), or null. */
export function offsetOf(seconds: unknown): string | null {
  const n = numberOf(seconds);
  return n === undefined ? null : (utcOffset(n) ?? null);
}

/** A `yyyy-mm-dd` calendar date, or undefined. */
export function calendarDateOf(value: unknown): string | undefined {
  return typeof value === "string" && /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : undefined;
}

/** The readings of a `timeOffset...` map (`{"60": 15.3, ...}`) as instants from `start`, in time order; unreadable entries are counted. */
export function offsetReadings(map: unknown, start: Date): { readings: Array<{ at: Date; value: number }>; unreadable: number } {
  const readings: Array<{ at: Date; value: number }> = [];
  let unreadable = 0;
  if (!isObject(map)) return { readings, unreadable };
  for (const [key, value] of Object.entries(map)) {
    const offset = /^\d{1,7}$/.test(key) ? Number(key) : undefined;
    const reading = numberOf(value);
    if (offset === undefined || reading === undefined) unreadable++;
    else readings.push({ at: new Date(start.getTime() + offset * 1000), value: reading });
  }
  readings.sort((a, b) => a.at.getTime() - b.at.getTime());
  return { readings, unreadable };
}

/** The summaries of a payload: Garmin answers (and pushes) a list of summaries of one type. */
export function summariesOf(payload: unknown, format: string): unknown[] {
  if (!Array.isArray(payload)) throw new Error(`${format}: the payload is not a list of summaries`);
  return payload;
}

/** What every record made from Garmin's wellness data carries. */
export const GARMIN_WORN = { source: "garmin", on_body: true } as const;
