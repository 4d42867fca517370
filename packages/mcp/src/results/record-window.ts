import { parseTimeWindow } from "@svc/core";

export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;

/**
 * How a list's start..end window selects its records: the field it applies to, and the
 * defaults of the MCP tool (REST has no default window: it reads from the first record).
 */
export interface RecordWindow {
  /** The record field the window applies to (its time, or its date). */
  key: string;
  /** `time`: keys to the millisecond; `date`: YYYY-MM-DD keys, bounds compared as dates. */
  unit: "time" | "date";
  /** An oldest-first read without start (or cursor) covers this long before end, or before now. */
  defaultSpanMs: number;
  /** The default span in words, for the tool's description: "the day", "the 30 days". */
  defaultSpanText: string;
  /** How far back a newest-first read looks first; it looks eight times further while records are few. */
  firstStepMs: number;
}

/** The smallest step between two keys: a millisecond, or a day. */
export const keyStep = (window: RecordWindow): number => (window.unit === "date" ? DAY_MS : 1);

/** A bound as the REST route takes it. */
export function formatBound(window: RecordWindow, ms: number): string {
  const iso = new Date(ms).toISOString();
  return window.unit === "date" ? iso.slice(0, 10) : iso;
}

/** A record's key in milliseconds (a date: its midnight UTC). */
export const keyOf = (window: RecordWindow, record: Record<string, unknown>): number => Date.parse(String(record[window.key]));

/**
 * The bounds as the REST route reads them, in milliseconds (a date-compared window: the
 * bound's date part at midnight UTC). A bound REST refuses is refused with its message.
 */
export function parseBounds(window: RecordWindow, args: { start?: unknown; end?: unknown }): { start?: number; end?: number } {
  const start = typeof args.start === "string" ? args.start : undefined;
  const end = typeof args.end === "string" ? args.end : undefined;
  const parsed = parseTimeWindow({ start, end });
  const ms = (text: string | undefined, date: Date | undefined) =>
    text === undefined || date === undefined ? undefined : window.unit === "date" ? Date.parse(`${text.slice(0, 10)}T00:00:00Z`) : date.getTime();
  const bounds: { start?: number; end?: number } = {};
  const startMs = ms(start, parsed.start);
  const endMs = ms(end, parsed.end);
  if (startMs !== undefined) bounds.start = startMs;
  if (endMs !== undefined) bounds.end = endMs;
  return bounds;
}

/** Midnight UTC of the day of `ms`. */
export const dayOf = (ms: number): number => Math.floor(ms / DAY_MS) * DAY_MS;
