import { AppError, type TimeWindow } from "../../platform/index.ts";

/**
 * A FHIR date search value: YYYY, YYYY-MM, YYYY-MM-DD, or a time to the minute, second or
 * millisecond with `Z` or an offset (a time without one is read as UTC). A `+` of an offset
 * that arrived as a space (an unencoded `+` in a query) is read as `+`.
 */
const DATE_VALUE = /^(\d{4})(?:-(\d{2})(?:-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})?)?)?)?$/;

/** The prefixes svc takes; ne, sa, eb and ap are refused. */
const PREFIXES = ["eq", "ge", "gt", "le", "lt"] as const;
type Prefix = (typeof PREFIXES)[number];
const OTHER_PREFIXES = ["ne", "sa", "eb", "ap"];

/** The range a date value stands for: from its first to past its last millisecond, at its precision. */
interface DateRange {
  from: number;
  to: number;
}

function dateRange(name: string, text: string): DateRange {
  const match = DATE_VALUE.exec(text.replace(/ (\d{2}:\d{2})$/, "+$1"));
  if (!match) throw new AppError("bad_request", `${name} must be a FHIR date or dateTime (YYYY, YYYY-MM, YYYY-MM-DD or YYYY-MM-DDThh:mm[:ss[.sss]][Z|+hh:mm]), with a prefix eq, ge, gt, le or lt`);
  const [, y, mo, d, h, mi, s, fraction, zone] = match;
  const year = Number(y);
  const month = mo === undefined ? 1 : Number(mo);
  const day = d === undefined ? 1 : Number(d);
  const [hour, minute, second] = [h, mi, s].map((part) => (part === undefined ? 0 : Number(part))) as [number, number, number];
  const fields = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
  fields.setUTCFullYear(year); // years before 100 as written
  const valid =
    fields.getUTCFullYear() === year && fields.getUTCMonth() === month - 1 && fields.getUTCDate() === day && fields.getUTCHours() === hour && fields.getUTCMinutes() === minute && fields.getUTCSeconds() === second;
  if (!valid || (zone !== undefined && !/^(Z|[+-](0\d|1[0-4]):[0-5]\d)$/.test(zone))) {
    throw new AppError("bad_request", `${name} holds a date that does not exist`);
  }
  const offsetMs = zone === undefined || zone === "Z" ? 0 : (zone.startsWith("-") ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6))) * 60_000;
  const from = fields.getTime() - offsetMs + (fraction ? Math.floor(Number(`0${fraction}`) * 1000) : 0);
  const next = new Date(fields);
  if (fraction !== undefined) next.setTime(fields.getTime() + Math.floor(Number(`0${fraction}`) * 1000) + 1);
  else if (s !== undefined) next.setUTCSeconds(second + 1);
  else if (mi !== undefined) next.setUTCMinutes(minute + 1);
  else if (d !== undefined) next.setUTCDate(day + 1);
  else if (mo !== undefined) next.setUTCMonth(month);
  else next.setUTCFullYear(year + 1);
  return { from, to: next.getTime() - offsetMs };
}

/** The bounds one `date` value sets on an instant: from (inclusive) and to (exclusive). */
function boundsOf(name: string, value: string): { from?: number; to?: number } {
  const prefix = /^[a-z]{2}/.exec(value)?.[0];
  if (prefix !== undefined && OTHER_PREFIXES.includes(prefix)) {
    throw new AppError("bad_request", `The prefix ${prefix} of ${name} is not supported: use eq, ge, gt, le or lt`);
  }
  const known = prefix !== undefined && (PREFIXES as readonly string[]).includes(prefix) ? (prefix as Prefix) : undefined;
  const range = dateRange(name, known ? value.slice(2) : value);
  switch (known ?? "eq") {
    case "eq":
      return { from: range.from, to: range.to };
    case "ge":
      return { from: range.from };
    case "gt":
      return { from: range.to };
    case "le":
      return { to: range.to };
    case "lt":
      return { to: range.from };
  }
}

/** What the values of a date parameter let through: an instant window, or nothing at all (bounds that contradict). */
export type DateCondition = { window: TimeWindow } | { empty: true };

/**
 * The window of instants every value of a date parameter lets through (repeated values all
 * apply: `date=ge2026-01-01&date=lt2026-02-01` is January). Each value has one prefix and no
 * comma (FHIR's OR of dates is not supported: a 400).
 */
export function dateCondition(name: string, values: readonly string[]): DateCondition {
  let from = -Infinity;
  let to = Infinity;
  for (const value of values) {
    if (value.includes(",")) throw new AppError("bad_request", `${name} takes one value per parameter: repeat ${name} for a range`);
    const bounds = boundsOf(name, value);
    if (bounds.from !== undefined) from = Math.max(from, bounds.from);
    if (bounds.to !== undefined) to = Math.min(to, bounds.to);
  }
  if (from >= to) return { empty: true };
  return { window: { ...(from > -Infinity && { start: new Date(from) }), ...(to < Infinity && { end: new Date(to) }) } };
}

/** Whether an instant is in the window (start inclusive, end exclusive). */
export const inWindow = (window: TimeWindow, time: Date): boolean =>
  (!window.start || time >= window.start) && (!window.end || time < window.end);
