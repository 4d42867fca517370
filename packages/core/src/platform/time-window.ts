import { AppError } from "./errors/app-error.ts";

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
// RFC 3339 date-time: a T (or t, or space), optional fraction, and a Z or numeric offset.
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/;

/**
 * Parses a window bound: an RFC 3339 time or a YYYY-MM-DD date (midnight UTC).
 * Calendar-invalid values (2026-02-30, 25:00) are refused, not rolled over.
 */
export function parseTimeBound(name: string, value: string): Date {
  const date = DATE_ONLY.exec(value);
  if (date) {
    const [, y, m, d] = date.map(Number) as [number, number, number, number];
    const parsed = new Date(Date.UTC(y, m - 1, d));
    if (parsed.getUTCFullYear() === y && parsed.getUTCMonth() === m - 1 && parsed.getUTCDate() === d) return parsed;
  } else {
    const time = DATE_TIME.exec(value);
    if (time) {
      const [, y, m, d, hh, mm, ss] = time.map(Number) as [number, number, number, number, number, number, number];
      const calendar = new Date(Date.UTC(y, m - 1, d, hh, mm, ss));
      const sameFields =
        calendar.getUTCFullYear() === y &&
        calendar.getUTCMonth() === m - 1 &&
        calendar.getUTCDate() === d &&
        calendar.getUTCHours() === hh &&
        calendar.getUTCMinutes() === mm &&
        calendar.getUTCSeconds() === ss;
      const parsed = new Date(value.replace(" ", "T"));
      if (sameFields && !Number.isNaN(parsed.getTime())) return parsed;
    }
  }
  throw new AppError("bad_request", `${name} must be an RFC 3339 time or a YYYY-MM-DD date`);
}

export interface TimeWindow {
  /** Inclusive. */
  start?: Date;
  /** Exclusive. */
  end?: Date;
}

/** A half-open window [start, end); end before start is a 400. */
export function parseTimeWindow(input: { start?: string | undefined; end?: string | undefined }): TimeWindow {
  const start = input.start === undefined ? undefined : parseTimeBound("start", input.start);
  const end = input.end === undefined ? undefined : parseTimeBound("end", input.end);
  if (start && end && end < start) throw new AppError("bad_request", "end must not be before start");
  return { ...(start && { start }), ...(end && { end }) };
}
