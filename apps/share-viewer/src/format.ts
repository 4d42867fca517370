import { dayNumber, dayOfNumber, type DayRange, type When } from "./bundle/days.ts";

/** How the page writes numbers, dates and durations (the reader's locale; times in the share's zone). */

export const formatNumber = (value: number, digits = 1): string =>
  value.toLocaleString(undefined, { maximumFractionDigits: Math.abs(value) >= 100 ? 0 : digits });

/** An instant on the zone's clock: "Nov 25, 2026, 04:00 PM". */
export const formatDateTime = (ms: number, zone: string): string =>
  new Date(ms).toLocaleString(undefined, { timeZone: zone, year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" });

/** An instant's date on the zone's clock, short: "Nov 25". */
export const formatShortDateAt = (ms: number, zone: string): string => new Date(ms).toLocaleDateString(undefined, { timeZone: zone, month: "short", day: "numeric" });

/**
 * A plain date as written, "Nov 25, 2026": formatted at UTC midnight in UTC, so no zone can
 * move it to the day before.
 */
export function formatPlainDate(day: string, options: Intl.DateTimeFormatOptions = { year: "numeric", month: "short", day: "numeric" }): string {
  const days = dayNumber(day);
  return Number.isNaN(days) ? day : new Date(days * 86_400_000).toLocaleDateString(undefined, { ...options, timeZone: "UTC" });
}

/** A day number of a chart's axis as its short date: "Nov 25". */
export const formatDayNumber = (days: number): string => formatPlainDate(dayOfNumber(days), { month: "short", day: "numeric" });

/** A When: a plain date, or an instant on the zone's clock. */
export const formatWhen = (when: When, zone: string): string => (when.kind === "day" ? formatPlainDate(when.day) : formatDateTime(when.ms, zone));

/** A range of days: one date when it is one day. */
export function formatDayRange(range: DayRange): string {
  const [first, last] = [formatPlainDate(range.first), formatPlainDate(range.last)];
  return first === last ? first : `${first} – ${last}`;
}

/** "7 h 5 min", "45 min". */
export function formatMinutes(minutes: number): string {
  const rounded = Math.round(minutes);
  const hours = Math.floor(rounded / 60);
  const rest = rounded % 60;
  if (hours === 0) return `${rest} min`;
  return rest === 0 ? `${hours} h` : `${hours} h ${rest} min`;
}

/** Bytes as people read them: "840 KB", "2.4 MB". */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} bytes`;
  if (bytes < 1_000_000) return `${formatNumber(bytes / 1000, 0)} KB`;
  return `${formatNumber(bytes / 1_000_000, 1)} MB`;
}

/** A UCUM unit as people write it. */
export function unitLabel(unit: string | undefined): string {
  if (!unit) return "";
  const known: Record<string, string> = { "/min": "per min", "{steps}": "steps", "{score}": "", "{flights}": "floors", "mm[Hg]": "mmHg", "[degF]": "°F", Cel: "°C" };
  return known[unit] ?? unit.replace(/^\{(.*)\}$/, "$1");
}

/** The date part of a download's file name: YYYY-MM-DD (local). */
export function fileDate(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}
