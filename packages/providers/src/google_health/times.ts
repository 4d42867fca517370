// The Google Health API's times: RFC 3339 instants with a separate UTC offset
// (`startUtcOffset: "3600s"`), durations as `"1234.5s"`, and calendar dates as
// `{year, month, day}` for the daily data types.
import { isObject, numberOf } from "./json.ts";

const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;

/** An RFC 3339 instant, or null. */
export function instantOf(value: unknown): Date | null {
  if (typeof value !== "string" || !INSTANT.test(value)) return null;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : new Date(ms);
}

/** Seconds of a google-duration (`"3600s"`, `"-25200s"`, `"1800.5s"`), or null. */
export function durationSeconds(value: unknown): number | null {
  if (typeof value !== "string") return null;
  const m = /^(-?\d+(?:\.\d+)?)s$/.exec(value);
  return m ? Number(m[1]) : null;
}

/** A UTC offset duration as `±hh:mm`; null when missing or beyond ±18 h. */
export function offsetOf(value: unknown): string | null {
  const seconds = durationSeconds(value);
  if (seconds === null || Math.abs(seconds) > 18 * 3600) return null;
  const minutes = Math.round(seconds / 60);
  const abs = Math.abs(minutes);
  return `${minutes < 0 ? "-" : "+"}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
}

/** A google.type.Date `{year, month, day}` as YYYY-MM-DD, or null when it is not a full calendar date. */
export function calendarDateOf(value: unknown): string | null {
  if (!isObject(value)) return null;
  const [year, month, day] = [numberOf(value.year), numberOf(value.month), numberOf(value.day)];
  if (year === null || month === null || day === null || year < 1 || month < 1 || day < 1) return null;
  const ms = Date.UTC(year, month - 1, day);
  const date = new Date(ms);
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return date.toISOString().slice(0, 10);
}

/** YYYY-MM-DD as a google.type.Date. */
export function dateObject(date: string): { year: number; month: number; day: number } {
  const [year, month, day] = date.split("-").map(Number);
  return { year: year ?? 1970, month: month ?? 1, day: day ?? 1 };
}

/** A YYYY-MM-DD date moved by whole days. */
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}
