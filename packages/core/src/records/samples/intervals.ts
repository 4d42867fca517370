import { Temporal } from "temporal-polyfill";
import { AppError, parseTimeBound } from "../../platform/index.ts";

/**
 * The time-interval math of GET /v1/users/{id}/samples/stats: which buckets a window covers.
 *
 * Day boundaries are the starts of local dates in tz (local midnight, or the first instant of the
 * date where midnight is skipped), so DST days last 23 or 25 hours.
 *
 * Hour boundaries are the instants at which the local clock shows a whole hour (hh:00:00). In
 * Asia/Kolkata they fall at hh:30 UTC; on a fall-back day the local 01:00 occurs twice and starts
 * two buckets; on a spring-forward day 02:00 does not occur and starts none. A shift that is not
 * a whole hour makes a bucket longer (90 minutes around Australia/Lord_Howe's half-hour shifts),
 * but every bucket starts at a local hh:00:00.
 *
 * The window [start, end) is widened to whole intervals: start is floored to the boundary at or
 * before it, end is ceiled to the boundary at or after it. So start == end gives zero intervals
 * when start is on a boundary, and the one interval containing start otherwise.
 */

export type StatsInterval = "hour" | "day";

export interface StatsIntervals {
  /** The IANA zone with Temporal's canonical casing ("utc" -> "UTC"); links stay as given (Etc/UTC, Asia/Calcutta). */
  tz: string;
  interval: StatsInterval;
  /** n + 1 instants: [0] is the widened start, [n] the widened end; strictly increasing. */
  boundaries: Date[];
  /** The n bucket starts, RFC 3339 with the offset of tz, e.g. 2026-03-08T00:00:00-05:00. */
  labels: string[];
  /** boundaries[0], formatted like labels. */
  start: string;
  /** boundaries[n], formatted like labels. */
  end: string;
}

export const MAX_STATS_INTERVALS = 10000;

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
// Every IANA name (Europe/Berlin, Etc/GMT+5, America/Port-au-Prince, EST5EDT) fits this; the
// numeric offsets ("+05:30") and ISO strings ("2026-01-01T00:00Z") that Temporal also takes as
// a time zone do not.
const ZONE_NAME = /^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+)*$/;

/** A boundary with what is needed to find the next one without asking Temporal every time. */
interface Boundary {
  epochMs: number;
  offsetMs: number;
  /** The first offset change after epochMs; null if the zone has none. */
  nextTransitionMs: number | null;
}

export function resolveStatsIntervals(input: {
  start: string;
  end: string;
  interval: StatsInterval;
  tz: string;
}): StatsIntervals {
  const interval = input.interval;
  if (interval !== "hour" && interval !== "day") throw new AppError("bad_request", "interval must be hour or day");
  const tz = resolveTimeZone(input.tz);
  const start = parseStatsBound("start", input.start, tz);
  const end = parseStatsBound("end", input.end, tz);
  if (Temporal.Instant.compare(end, start) < 0) throw new AppError("bad_request", "end must not be before start");

  const first = interval === "hour" ? floorToHour(start, tz) : floorToDay(start, tz);
  const endNs = end.epochNanoseconds;
  const boundaries: Date[] = [new Date(first.epochMs)];
  const labels: string[] = [];
  let current = first;
  while (BigInt(current.epochMs) * 1_000_000n < endNs) {
    // Stop as soon as the count passes the limit rather than after building a huge array.
    if (labels.length === MAX_STATS_INTERVALS) {
      throw new AppError(
        "bad_request",
        `start to end covers more than ${MAX_STATS_INTERVALS} ${interval}s (after widening to whole ${interval}s)`,
      );
    }
    labels.push(formatWithOffset(current));
    current = interval === "hour" ? nextHour(current, tz) : nextDay(current, tz);
    boundaries.push(new Date(current.epochMs));
  }

  return { tz, interval, boundaries, labels, start: formatWithOffset(first), end: formatWithOffset(current) };
}

function resolveTimeZone(tz: string): string {
  if (ZONE_NAME.test(tz)) {
    try {
      return new Temporal.ZonedDateTime(0n, tz).timeZoneId;
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
    }
  }
  throw new AppError("bad_request", "tz must be an IANA time zone such as Europe/Berlin");
}

/** An RFC 3339 time as is, or a YYYY-MM-DD date as the start of that day in tz. */
function parseStatsBound(name: string, value: string, tz: string): Temporal.Instant {
  // Validates both forms (calendar-invalid dates included) and throws the 400. Its result is not
  // used: a date means midnight UTC there, and a Date drops digits past the millisecond.
  parseTimeBound(name, value);
  if (DATE_ONLY.test(value)) return Temporal.PlainDate.from(value).toZonedDateTime({ timeZone: tz }).toInstant();
  return Temporal.Instant.from(value);
}

function boundaryAt(epochMs: number, tz: string): Boundary {
  const zdt = Temporal.Instant.fromEpochMilliseconds(epochMs).toZonedDateTimeISO(tz);
  const transition = zdt.getTimeZoneTransition("next");
  return {
    epochMs,
    offsetMs: zdt.offsetNanoseconds / 1_000_000,
    nextTransitionMs: transition ? transition.epochMilliseconds : null,
  };
}

function floorToDay(instant: Temporal.Instant, tz: string): Boundary {
  const zdt = instant.toZonedDateTimeISO(tz);
  // Where clocks fell back across midnight (America/Goose_Bay until 2010: 00:01 back to 23:01),
  // a date recurs after the next date has started; then that later start is the floor.
  const nextStart = zdt.toPlainDate().add({ days: 1 }).toZonedDateTime({ timeZone: tz });
  const start = Temporal.ZonedDateTime.compare(nextStart, zdt) <= 0 ? nextStart : zdt.startOfDay();
  return boundaryAt(start.epochMilliseconds, tz);
}

function nextDay(current: Boundary, tz: string): Boundary {
  // Fast path: from a local midnight with no offset change within 24 hours, the next midnight is
  // exactly 24 hours later.
  const candidate = current.epochMs + DAY_MS;
  const atMidnight = positiveModulo(current.epochMs + current.offsetMs, DAY_MS) === 0;
  if (atMidnight && (current.nextTransitionMs === null || candidate < current.nextTransitionMs)) {
    return { ...current, epochMs: candidate };
  }
  const zdt = Temporal.Instant.fromEpochMilliseconds(current.epochMs).toZonedDateTimeISO(tz);
  const next = zdt.toPlainDate().add({ days: 1 }).toZonedDateTime({ timeZone: tz });
  return boundaryAt(next.epochMilliseconds, tz);
}

/**
 * The last instant at or before `instant` at which the local clock shows a whole hour.
 * Temporal's round({ smallestUnit: "hour", roundingMode: "floor" }) is not used: it moves a
 * skipped local hour forward, which can land after the input (Pacific/Chatham, whose clocks
 * jump from 02:45 to 03:45, rounds 03:59 down to 04:00).
 */
function floorToHour(instant: Temporal.Instant, tz: string): Boundary {
  let epochMs = instant.epochMilliseconds; // floored to the millisecond; boundaries are whole seconds
  for (;;) {
    const zdt = Temporal.Instant.fromEpochMilliseconds(epochMs).toZonedDateTimeISO(tz);
    const candidate = epochMs - positiveModulo(epochMs + zdt.offsetNanoseconds / 1_000_000, HOUR_MS);
    // The last offset change at or before epochMs (transitions are whole milliseconds).
    const previous = Temporal.Instant.fromEpochMilliseconds(epochMs + 1)
      .toZonedDateTimeISO(tz)
      .getTimeZoneTransition("previous");
    // candidate is a whole local hour only if the offset is the same there; otherwise no whole
    // hour occurred since the change, so look before it.
    if (!previous || candidate >= previous.epochMilliseconds) return boundaryAt(candidate, tz);
    epochMs = previous.epochMilliseconds - 1;
  }
}

/** The first instant after `current` at which the local clock shows a whole hour. */
function nextHour(current: Boundary, tz: string): Boundary {
  let from = current.epochMs + 1;
  let offsetMs = current.offsetMs;
  let nextTransitionMs = current.nextTransitionMs;
  for (;;) {
    const candidate = from + positiveModulo(-(from + offsetMs), HOUR_MS);
    if (nextTransitionMs === null || candidate < nextTransitionMs) return { epochMs: candidate, offsetMs, nextTransitionMs };
    // The offset changes before candidate: carry on from the change with the new offset.
    ({ epochMs: from, offsetMs, nextTransitionMs } = boundaryAt(nextTransitionMs, tz));
  }
}

/**
 * RFC 3339 with a numeric offset and no fraction. RFC 3339 offsets have whole minutes: an old
 * local mean time offset such as -04:56:02 is rounded to -04:56 and the local time shifted to
 * match, so the string still names the exact instant.
 */
function formatWithOffset(boundary: Boundary): string {
  const offsetMinutes = Math.round(boundary.offsetMs / 60_000);
  // toISOString gives "YYYY-MM-DDTHH:MM:SS.sssZ"; boundaries are whole seconds, so drop ".sssZ".
  const local = new Date(boundary.epochMs + offsetMinutes * 60_000).toISOString().slice(0, -5);
  const sign = offsetMinutes < 0 ? "-" : "+";
  const absolute = Math.abs(offsetMinutes);
  const hours = String(Math.floor(absolute / 60)).padStart(2, "0");
  const minutes = String(absolute % 60).padStart(2, "0");
  return `${local}${sign}${hours}:${minutes}`;
}

function positiveModulo(value: number, modulus: number): number {
  return ((value % modulus) + modulus) % modulus;
}
