// GET /1.2/user/-/sleep/date/{start}/{end}.json answers to sleep sessions with stages.
import { emptyParsedRecords, type ParsedRecords, type SleepPhaseRecord, type SleepSessionRecord } from "@svc/core";
import { dateOf, isObject, numberOf, textOf, type JsonObject } from "./json.ts";
import { localDateTime } from "../local-time.ts";
import { envelopeOf, type PayloadZone } from "./payload.ts";
import { FITBIT_TRACKER } from "./provenance.ts";

/** Fitbit's stage levels (`stages` logs) and classic levels (`classic` logs) as svc's stages. */
const LEVELS: Readonly<Record<string, string>> = {
  wake: "awake",
  light: "light",
  deep: "deep",
  rem: "rem",
  asleep: "asleep",
  // Fitbit does not count restless minutes as asleep.
  restless: "awake",
  awake: "awake",
};

/**
 * Each sleep log becomes a session: start and end from the local startTime/endTime in
 * the user's zone, the phases from `levels.data` (the 30-second wake periods of
 * `levels.shortData` are not overlaid), totals in seconds from Fitbit's minutes,
 * efficiency from a percentage to a fraction. Logs that are not the main sleep are naps.
 */
export function parseSleep(payload: unknown): ParsedRecords {
  const { response, ...zone } = envelopeOf("fitbit-sleep", payload);
  if (!isObject(response) || !Array.isArray(response.sleep)) throw new Error("fitbit-sleep: the answer has no sleep list");
  const out = emptyParsedRecords();
  response.sleep.forEach((log: unknown, index) => {
    const locator = `sleep[${index}]`;
    const session = isObject(log) ? sessionOf(log, zone, locator) : "not an object";
    if (typeof session === "string") out.rejected.push({ recordKind: "sleep", locator, reason: `sleep: ${session}` });
    else out.sleepSessions.push(session);
  });
  return out;
}

function sessionOf(log: JsonObject, zone: PayloadZone, locator: string): SleepSessionRecord | string {
  const start = localDateTime(log.startTime, zone.zone);
  const end = localDateTime(log.endTime, zone.zone);
  if (!start || !end) return "startTime or endTime is not a local time";
  const logId = numberOf(log.logId);
  if (logId === null) return "logId is missing";
  const levels = isObject(log.levels) ? log.levels : {};
  const summary = isObject(levels.summary) ? levels.summary : {};
  const minutes = (name: string) => (isObject(summary[name]) ? numberOf((summary[name] as JsonObject).minutes) : null);
  const seconds = (value: number | null) => (value === null ? null : value * 60);
  const efficiency = numberOf(log.efficiency);
  const metadata: Record<string, unknown> = { log_type: textOf(log.logType, 30), sleep_type: textOf(log.type, 20) };
  const dateOfSleep = dateOf(log.dateOfSleep);
  if (dateOfSleep) metadata.date_of_sleep = dateOfSleep;
  const inBed = numberOf(log.timeInBed);
  if (inBed !== null) metadata.time_in_bed_minutes = inBed;
  return {
    ...FITBIT_TRACKER,
    kind: log.isMainSleep === false ? "nap" : "sleep",
    bedtime_start: start,
    bedtime_end: end,
    timezone: zone.timezone,
    total_sleep_seconds: seconds(numberOf(log.minutesAsleep)),
    awake_seconds: seconds(numberOf(log.minutesAwake)),
    light_seconds: seconds(minutes("light")),
    deep_seconds: seconds(minutes("deep")),
    rem_seconds: seconds(minutes("rem")),
    latency_seconds: seconds(numberOf(log.minutesToFallAsleep)),
    efficiency: efficiency === null ? null : efficiency / 100,
    external_id: String(logId),
    metadata,
    locator,
    phases: phasesOf(levels.data, zone.zone),
  };
}

function phasesOf(data: unknown, zone: string): SleepPhaseRecord[] {
  if (!Array.isArray(data)) return [];
  const phases: SleepPhaseRecord[] = [];
  for (const entry of data) {
    if (!isObject(entry)) continue;
    const stage = typeof entry.level === "string" && Object.hasOwn(LEVELS, entry.level) ? LEVELS[entry.level] : undefined;
    const start = localDateTime(entry.dateTime, zone);
    const seconds = numberOf(entry.seconds);
    if (!stage || !start || seconds === null || seconds <= 0) continue;
    phases.push({ stage, start_date: start, end_date: new Date(start.getTime() + seconds * 1000) });
  }
  return phases;
}
