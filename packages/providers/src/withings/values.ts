// Small readers of Withings JSON values (numbers, times, texts), shared by the parsers.

export type JsonObject = Record<string, unknown>;

export const isObject = (value: unknown): value is JsonObject =>
  typeof value === "object" && value !== null && !Array.isArray(value);

export const finiteNumber = (value: unknown): number | null => (typeof value === "number" && Number.isFinite(value) ? value : null);

/** An amount Withings measured: at least 0. Withings writes -1 (or nothing) for "not measured". */
export function amount(value: unknown): number | null {
  const number = finiteNumber(value);
  return number !== null && number >= 0 ? number : null;
}

/** A heart rate or another figure where 0 means "not measured". */
export function positive(value: unknown): number | null {
  const number = finiteNumber(value);
  return number !== null && number > 0 ? number : null;
}

/** Unix seconds (Withings' `date`, `startdate`, `enddate`) as a Date; null when not a plausible time. */
export function epochSeconds(value: unknown): Date | null {
  const seconds = typeof value === "string" && /^\d{1,12}$/.test(value) ? Number(value) : value;
  if (typeof seconds !== "number" || !Number.isInteger(seconds) || seconds <= 0 || seconds > 253_402_300_799) return null;
  return new Date(seconds * 1000);
}

/** A short trimmed text, or null. */
export function text(value: unknown, max = 100): string | null {
  return typeof value === "string" && value.trim() !== "" ? value.trim().slice(0, max) : null;
}

/** An id Withings sends as a number or a string of digits, as a string. */
export function idOf(value: unknown): string | null {
  if (typeof value === "number" && Number.isSafeInteger(value) && value >= 0) return String(value);
  if (typeof value === "string" && /^\d{1,20}$/.test(value)) return value;
  return null;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Whether a string is a YYYY-MM-DD date of the calendar. */
export function isCalendarDay(value: unknown): value is string {
  if (typeof value !== "string") return false;
  const match = DATE.exec(value);
  if (!match) return false;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return date.toISOString().slice(0, 10) === value;
}
