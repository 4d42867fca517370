import type { QuantitySampleRecord, SleepPhaseRecord, SleepSessionRecord } from "@svc/core";
import { emptyParsedRecords, MalformedUpload, type ParsedRecords } from "../parsed-records.ts";
import { amount, finiteNumber, isCalendarDay, isObject, offsetText, positive, text, timeOfDaySeconds, zonedDateTime, type JsonObject } from "./values.ts";

export const POLAR_NIGHTS_FORMAT = "polar-nights";

/** The shape svc stores a night in: Polar's sleep and Nightly Recharge answers of one date, as sent. */
export interface PolarNight {
  date: string;
  sleep: unknown;
  nightly_recharge: unknown;
}

/** Hypnogram stages: 0 wake, 1 REM, 2 lighter and 3 light non-REM, 4 deep non-REM, 5 unknown. */
const STAGES: Readonly<Record<number, string>> = { 0: "awake", 1: "rem", 2: "light", 3: "light", 4: "deep", 5: "asleep" };
/** Nightly Recharge measures a 4-hour period starting 30 minutes after falling asleep. */
const RECHARGE_DELAY_MS = 30 * 60_000;
const RECHARGE_SPAN_MS = 4 * 3600_000;
const SLEEP_METADATA = [
  "continuity",
  "continuity_class",
  "unrecognized_sleep_stage",
  "sleep_charge",
  "sleep_goal",
  "sleep_rating",
  "short_interruption_duration",
  "long_interruption_duration",
  "sleep_cycles",
  "group_duration_score",
  "group_solidity_score",
  "group_regeneration_score",
] as const;
const RECHARGE_METADATA = ["heart_rate_avg", "beat_to_beat_avg", "nightly_recharge_status", "ans_charge", "ans_charge_status"] as const;

/**
 * A night (`{date, sleep, nightly_recharge}`) to a sleep session: from `sleep_start_time`
 * to `sleep_end_time` in their offset, light/deep/REM seconds, interruptions as awake,
 * score, phases from the hypnogram (local times of the night), and from Nightly Recharge
 * the average RMSSD (ms) and breathing rate. Also quantity samples: the sleep's 5-minute
 * `heart_rate`, `sleep_score` over the night, `hrv_rmssd` and `respiratory_rate` over
 * Nightly Recharge's 4 hours. Polar gives a night no id: the date is its external id.
 */
export function parsePolarNight(payload: unknown): ParsedRecords {
  if (!isObject(payload) || !isCalendarDay(payload.date)) {
    throw new MalformedUpload("date", "a Polar night payload is {date, sleep, nightly_recharge} with a YYYY-MM-DD date");
  }
  const records = emptyParsedRecords();
  const date = payload.date;
  const recharge = isObject(payload.nightly_recharge) ? payload.nightly_recharge : null;
  if (!isObject(payload.sleep)) {
    const reason = "polar nightly recharge: the night's sleep times are not known";
    if (recharge) records.rejected.push({ recordKind: "quantity_sample", locator: "nightly_recharge", reason });
    return records;
  }
  const start = zonedDateTime(payload.sleep.sleep_start_time);
  const end = zonedDateTime(payload.sleep.sleep_end_time);
  if (!start || !end || end.instant < start.instant) {
    const reason = "polar sleep: sleep_start_time or sleep_end_time is missing or invalid";
    records.rejected.push({ recordKind: "sleep_session", locator: "sleep", reason });
    return records;
  }
  readNight(date, payload.sleep, recharge, start, end.instant, records);
  return records;
}

function readNight(
  date: string,
  sleep: JsonObject,
  recharge: JsonObject | null,
  start: { instant: Date; offsetMinutes: number },
  end: Date,
  records: ParsedRecords,
): void {
  const timezone = offsetText(start.offsetMinutes);
  const device = text(sleep.device_id, 64);
  const common = { source: "polar", source_name: "Polar", device, on_body: true, timezone };
  const light = amount(sleep.light_sleep);
  const deep = amount(sleep.deep_sleep);
  const rem = amount(sleep.rem_sleep);
  const unrecognized = amount(sleep.unrecognized_sleep_stage);
  const score = finiteNumber(sleep.sleep_score);
  const session: SleepSessionRecord = {
    ...common,
    kind: "sleep",
    bedtime_start: start.instant,
    bedtime_end: end,
    total_sleep_seconds: light !== null || deep !== null || rem !== null ? (light ?? 0) + (deep ?? 0) + (rem ?? 0) + (unrecognized ?? 0) : null,
    awake_seconds: amount(sleep.total_interruption_duration),
    light_seconds: light,
    deep_seconds: deep,
    rem_seconds: rem,
    score: score !== null && score >= 0 && score <= 100 ? score : null,
    average_hrv: recharge ? positive(recharge.heart_rate_variability_avg) : null,
    respiratory_rate: recharge ? positive(recharge.breathing_rate_avg) : null,
    external_id: `sleep:${date}`,
    metadata: metadataOf(date, sleep, recharge),
    locator: "sleep",
  };
  // Each series of local times is read in its own order.
  if (isObject(sleep.hypnogram)) session.phases = phasesOf(sleep.hypnogram, localTimesOf(start, end), start.instant, end);
  records.sleepSessions.push(session);

  const night = { ...common, start_date: start.instant, end_date: end };
  if (session.score !== null && session.score !== undefined) {
    records.quantitySamples.push({ ...night, type: "sleep_score", value: session.score, unit: "score", external_id: `sleep:${date}`, locator: "sleep" });
  }
  if (isObject(sleep.heart_rate_samples)) {
    const localTimes = localTimesOf(start, end);
    for (const [time, value] of Object.entries(sleep.heart_rate_samples)) {
      const at = localTimes(time);
      const bpm = positive(value);
      if (!at || bpm === null) {
        const reason = "polar sleep heart rate: a sample's time or value is invalid";
        records.rejected.push({ recordKind: "quantity_sample", locator: "sleep.heart_rate_samples", reason });
        continue;
      }
      records.quantitySamples.push({
        ...common,
        type: "heart_rate",
        value: bpm,
        unit: "count/min",
        start_date: at,
        external_id: `sleep:${date}:${time}`,
        locator: "sleep.heart_rate_samples",
      });
    }
  }
  if (recharge) {
    // Clamped to the night: a short night ends before Nightly Recharge's 4 hours do.
    const from = Math.min(start.instant.getTime() + RECHARGE_DELAY_MS, end.getTime());
    const to = Math.min(from + RECHARGE_SPAN_MS, end.getTime());
    const span = { ...common, start_date: new Date(from), end_date: new Date(to), external_id: `nightly-recharge:${date}` };
    const recharged: Array<[string, number | null, string]> = [
      ["hrv_rmssd", positive(recharge.heart_rate_variability_avg), "ms"],
      ["respiratory_rate", positive(recharge.breathing_rate_avg), "count/min"],
    ];
    for (const [type, value, unit] of recharged) {
      if (value !== null) records.quantitySamples.push({ ...span, type, value, unit, locator: "nightly_recharge" } satisfies QuantitySampleRecord);
    }
  }
}

/**
 * The instant of a local time of the night (`00:41`): the first time of day at or after
 * the previous one (a minute's slack), starting from the night's start, in the start's
 * offset (a change of offset during the night is not known).
 */
function localTimesOf(start: { instant: Date; offsetMinutes: number }, end: Date): (time: string) => Date | null {
  const offsetMs = start.offsetMinutes * 60_000;
  const localStart = start.instant.getTime() + offsetMs;
  const localMidnight = localStart - (localStart % 86_400_000);
  let previous = start.instant.getTime() - 60_000;
  return (time) => {
    const seconds = timeOfDaySeconds(time);
    if (seconds === null) return null;
    let instant = localMidnight + seconds * 1000 - offsetMs;
    while (instant < previous - 60_000) instant += 86_400_000;
    if (instant > end.getTime() + 60_000) return null;
    previous = instant;
    return new Date(instant);
  };
}

function phasesOf(hypnogram: JsonObject, localTimes: (time: string) => Date | null, start: Date, end: Date): SleepPhaseRecord[] {
  const marks: Array<{ at: Date; stage: string }> = [];
  for (const [time, value] of Object.entries(hypnogram)) {
    const at = localTimes(time);
    const stage = typeof value === "number" ? STAGES[value] : undefined;
    if (at && stage) marks.push({ at: at < start ? start : at, stage });
  }
  return marks.map((mark, i) => ({ stage: mark.stage, start_date: mark.at, end_date: marks[i + 1]?.at ?? end }));
}

function metadataOf(date: string, sleep: JsonObject, recharge: JsonObject | null): Record<string, unknown> {
  const metadata: Record<string, unknown> = { date };
  for (const field of SLEEP_METADATA) {
    const value = finiteNumber(sleep[field]);
    if (value !== null) metadata[field] = value;
  }
  for (const field of RECHARGE_METADATA) {
    const value = recharge ? finiteNumber(recharge[field]) : null;
    if (value !== null) metadata[`nightly_recharge_${field}`] = value;
  }
  return metadata;
}
