// Small readers of Polar AccessLink JSON values: numbers, dates, ISO 8601 times and durations.

export type JsonObject = Record<string, unknown>;

export const isObject = (value: unknown): value is JsonObject =>
  typeof value === "object" && value !== null && !Array.isArray(value);

export const finiteNumber = (value: unknown): number | null => (typeof value === "number" && Number.isFinite(value) ? value : null);

/** A measured amount: at least 0. */
export function amount(value: unknown): number | null {
  const number = finiteNumber(value);
  return number !== null && number >= 0 ? number : null;
}

/** A heart rate or another figure where 0 means "not measured". */
export function positive(value: unknown): number | null {
  const number = finiteNumber(value);
  return number !== null && number > 0 ? number : null;
}

export function text(value: unknown, max = 100): string | null {
  return typeof value === "string" && value.trim() !== "" ? value.trim().slice(0, max) : null;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Whether a string is a YYYY-MM-DD date of the calendar. */
export function isCalendarDay(value: unknown): value is string {
  if (typeof value !== "string" || !DATE.test(value)) return false;
  return new Date(`${value}T00:00:00Z`).toISOString().slice(0, 10) === value;
}

const WALL_CLOCK = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?$/;
const ZONED = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?)(Z|[+-]\d{2}:?\d{2})$/;

/** A local date-time without a zone (`2024-05-02T18:10:00`), as the milliseconds of the same wall clock in UTC. */
export function wallClockMs(value: unknown): number | null {
  if (typeof value !== "string") return null;
  const m = WALL_CLOCK.exec(value);
  if (!m) return null;
  const [y, mo, d, h, mi, s] = [m[1], m[2], m[3], m[4], m[5], m[6] ?? "0"].map(Number) as [number, number, number, number, number, number];
  const ms = m[7] ? Number(m[7].padEnd(3, "0").slice(0, 3)) : 0;
  const utc = Date.UTC(y, mo - 1, d, h, mi, s, ms);
  const check = new Date(utc);
  if (check.getUTCFullYear() !== y || check.getUTCMonth() !== mo - 1 || check.getUTCDate() !== d || h > 23 || mi > 59 || s > 59) return null;
  return utc;
}

/** An ISO 8601 date-time with an offset (`2020-01-01T00:39:07+03:00`): the instant and the offset in minutes. */
export function zonedDateTime(value: unknown): { instant: Date; offsetMinutes: number } | null {
  if (typeof value !== "string") return null;
  const m = ZONED.exec(value);
  if (!m) return null;
  const local = wallClockMs(m[1]);
  const offsetMinutes = offsetOf(m[2] ?? "");
  if (local === null || offsetMinutes === null) return null;
  return { instant: new Date(local - offsetMinutes * 60_000), offsetMinutes };
}

function offsetOf(zone: string): number | null {
  if (zone === "Z") return 0;
  const m = /^([+-])(\d{2}):?(\d{2})$/.exec(zone);
  if (!m) return null;
  const minutes = Number(m[2]) * 60 + Number(m[3]);
  return minutes > 18 * 60 ? null : (m[1] === "-" ? -1 : 1) * minutes;
}

/** An offset in minutes as `±hh:mm`, the zone svc stores. */
export function offsetText(minutes: number): string {
  const abs = Math.abs(minutes);
  return `${minutes < 0 ? "-" : "+"}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
}

/** Whether an offset in minutes is a real one (UTC-12 to UTC+14, whole minutes). */
export const isUtcOffset = (value: unknown): value is number =>
  typeof value === "number" && Number.isInteger(value) && value >= -12 * 60 && value <= 14 * 60;

const DURATION = /^PT(?:(\d+(?:\.\d+)?)H)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)S)?$/;

/** An ISO 8601 time duration (`PT2H44M`, `PT210.026S`) in seconds. */
export function durationSeconds(value: unknown): number | null {
  if (typeof value !== "string" || value === "PT") return null;
  const m = DURATION.exec(value);
  if (!m) return null;
  return Number(m[1] ?? 0) * 3600 + Number(m[2] ?? 0) * 60 + Number(m[3] ?? 0);
}

/** A time of day (`00:41` or `00:02:08`) in seconds since midnight. */
export function timeOfDaySeconds(value: unknown): number | null {
  if (typeof value !== "string") return null;
  const m = /^(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(value);
  if (!m) return null;
  const [h, mi, s] = [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)];
  return h > 23 || mi > 59 || s > 59 ? null : h * 3600 + mi * 60 + s;
}
