// Dates of the dev seed: UTC days as YYYY-MM-DD, local times in the user's zone.

/** The seeded user's zone, written into every record's `timezone`. */
export const ZONE = "Europe/Berlin";

export const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

const parts = new Intl.DateTimeFormat("en-US", {
  timeZone: ZONE,
  hourCycle: "h23",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
});

/** Minutes the zone is ahead of UTC at an instant. */
export function zoneOffsetMinutes(instant: number): number {
  const p = Object.fromEntries(parts.formatToParts(new Date(instant)).map((x) => [x.type, x.value]));
  const asUtc = Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute), Number(p.second));
  return Math.round((asUtc - Math.floor(instant / SECOND) * SECOND) / MINUTE);
}

/** UTC midnight of a YYYY-MM-DD date, in ms. */
export const midnightUtc = (date: string): number => Date.parse(`${date}T00:00:00Z`);

export const isoDate = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

export const addDays = (date: string, days: number): string => isoDate(midnightUtc(date) + days * DAY);

/** Days since 1970-01-01: an absolute day number, so schedules do not depend on "today". */
export const dayNumber = (date: string): number => Math.round(midnightUtc(date) / DAY);

/** 0 = Sunday … 6 = Saturday. */
export const weekday = (date: string): number => new Date(midnightUtc(date)).getUTCDay();

export const isWeekend = (date: string): boolean => weekday(date) === 0 || weekday(date) === 6;

/**
 * The instant of a local wall-clock time: `minutes` after local midnight of `date` (may be
 * negative or beyond a day), rounded to the whole second.
 */
export function localTime(date: string, minutes: number): Date {
  const wall = midnightUtc(date) + Math.round(minutes * 60) * SECOND;
  let utc = wall - zoneOffsetMinutes(wall) * MINUTE;
  utc = wall - zoneOffsetMinutes(utc) * MINUTE;
  return new Date(utc);
}

/** The `count` whole UTC days before the day of `now`, oldest first. */
export function daysBefore(now: Date, count: number): string[] {
  const today = isoDate(now.getTime());
  return Array.from({ length: count }, (_, i) => addDays(today, i - count));
}

/** Seconds since the epoch (integer). */
export const epochSeconds = (instant: number): number => Math.floor(instant / SECOND);
