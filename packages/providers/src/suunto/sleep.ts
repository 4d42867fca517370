// Suunto's sleep rows (GET /247samples/sleep) as sleep sessions. A row is `{timestamp,
// entryData}`; entryData names the sleep (`SleepId`), its bedtimes (`BedtimeStart`,
// `BedtimeEnd`, local times with their offset; some rows give only `DateTime`), `Duration`
// (bedtime to bedtime: the stages plus the time awake after falling asleep) and the deep,
// light and REM durations (seconds), `SleepQualityScore` (0-100), `HRAvg` and `HRMin` (bpm),
// `AvgHRV` (RMSSD, ms) and `IsNap`. Suunto gives no hypnogram: stage totals, no phases.
// Suunto sends a sleep again as it revises it (same SleepId, longer Duration): the longest
// revision of an answer is the sleep. Fields and units are those open-source integrations
// read (docs/providers.md, "Suunto"); what they disagree on is kept in the metadata only.

import type { QuantitySampleRecord, SleepSessionRecord } from "@svc/core";
import { emptyParsedRecords, MalformedUpload, type ParsedRecords } from "../parsed-records.ts";
import { figure, isObject, zonedTimeOf, type JsonObject, type ZonedTime } from "./json.ts";

export const SUUNTO_SLEEP_FORMAT = "suunto-sleep";

const MAX_SLEEP_SECONDS = 24 * 3600;
/**
 * A heart rate outside this range is not read as one: some Suunto exports give heart rates
 * in beats per second, and a figure of 1 must not become 1 bpm.
 */
const HEART_RATE_BPM = { min: 20, max: 250 };
/** Metadata kept as sent: fields only one integration reads, or whose unit they do not agree on. */
const METADATA_FIELDS: ReadonlyArray<[string, string]> = [
  ["Duration", "duration_seconds"],
  ["SleepOnsetLatencyDuration", "sleep_onset_latency_seconds"],
  ["WakeAfterSleepOnsetDuration", "wake_after_sleep_onset_seconds"],
  ["WakeBeforeOffBedDuration", "wake_before_off_bed_seconds"],
  ["MaxSpo2", "max_spo2"],
  ["AvgHRVSampleCount", "hrv_sample_count"],
];

interface SleepRow {
  index: number;
  entry: JsonObject;
  start: ZonedTime;
  end: Date;
  externalId: string;
  duration: number;
}

export function parseSuuntoSleep(payload: unknown): ParsedRecords {
  if (!Array.isArray(payload)) throw new MalformedUpload("sleep", "a Suunto sleep payload is the list of sleep rows");
  const out = emptyParsedRecords();
  const latest = new Map<string, SleepRow>();
  payload.forEach((row, index) => {
    const read = readRow(row, index);
    if (!read) {
      out.rejected.push({ recordKind: "sleep_session", locator: `[${index}]`, reason: "suunto sleep: the bedtimes or the duration are missing or invalid" });
      return;
    }
    const known = latest.get(read.externalId);
    if (!known || read.duration >= known.duration) latest.set(read.externalId, read);
  });
  for (const row of [...latest.values()].sort((a, b) => a.index - b.index)) addSleep(row, out);
  return out;
}

function readRow(row: unknown, index: number): SleepRow | null {
  if (!isObject(row) || !isObject(row.entryData)) return null;
  const entry = row.entryData;
  const start = zonedTimeOf(entry.BedtimeStart) ?? zonedTimeOf(entry.DateTime) ?? zonedTimeOf(row.timestamp);
  const duration = bounded(figure(entry.Duration), MAX_SLEEP_SECONDS);
  if (!start) return null;
  const end = zonedTimeOf(entry.BedtimeEnd)?.instant ?? (duration !== null ? new Date(start.instant.getTime() + Math.round(duration * 1000)) : null);
  if (!end || end <= start.instant || end.getTime() - start.instant.getTime() > MAX_SLEEP_SECONDS * 1000) return null;
  return { index, entry, start, end, externalId: `sleep:${sleepIdOf(entry.SleepId) ?? start.instant.getTime()}`, duration: duration ?? (end.getTime() - start.instant.getTime()) / 1000 };
}

function addSleep({ index, entry, start, end, externalId }: SleepRow, out: ParsedRecords): void {
  const deep = bounded(figure(entry.DeepSleepDuration), MAX_SLEEP_SECONDS);
  const light = bounded(figure(entry.LightSleepDuration), MAX_SLEEP_SECONDS);
  const rem = bounded(figure(entry.REMSleepDuration), MAX_SLEEP_SECONDS);
  const staged = deep !== null || light !== null || rem !== null;
  const asleep = Math.round((deep ?? 0) + (light ?? 0) + (rem ?? 0));
  const duration = bounded(figure(entry.Duration), MAX_SLEEP_SECONDS);
  const score = figure(entry.SleepQualityScore);
  const hrv = figure(entry.AvgHRV);
  const common = { source: "suunto", source_name: "Suunto", on_body: true, timezone: start.offset, external_id: externalId, locator: `[${index}]` };
  const session: SleepSessionRecord = {
    ...common,
    kind: entry.IsNap === true ? "nap" : "sleep",
    bedtime_start: start.instant,
    bedtime_end: end,
    total_sleep_seconds: staged ? asleep : null,
    // What the session's span holds beyond the stages is the time awake after falling asleep.
    awake_seconds: staged && duration !== null && duration >= asleep ? Math.round(duration - asleep) : null,
    deep_seconds: deep,
    light_seconds: light,
    rem_seconds: rem,
    score: score !== null && score <= 100 ? score : null,
    average_heart_rate: heartRate(entry.HRAvg),
    lowest_heart_rate: heartRate(entry.HRMin),
    average_hrv: hrv !== null && hrv > 0 && hrv <= 500 ? hrv : null,
    metadata: metadataOf(entry),
  };
  out.sleepSessions.push(session);
  if (session.score !== null && session.score !== undefined) {
    out.quantitySamples.push({ ...common, type: "sleep_score", value: session.score, unit: "score", start_date: start.instant, end_date: end } satisfies QuantitySampleRecord);
  }
}

/** Suunto's sleep id (a number today); null when missing or not an id. */
function sleepIdOf(value: unknown): string | null {
  if (typeof value === "number" && Number.isSafeInteger(value) && value > 0) return String(value);
  return typeof value === "string" && /^[A-Za-z0-9_-]{1,64}$/.test(value) ? value : null;
}

function heartRate(value: unknown): number | null {
  const bpm = figure(value);
  return bpm !== null && bpm >= HEART_RATE_BPM.min && bpm <= HEART_RATE_BPM.max ? bpm : null;
}

function bounded(value: number | null, max: number): number | null {
  return value !== null && value <= max ? value : null;
}

function metadataOf(entry: JsonObject): Record<string, unknown> {
  const metadata: Record<string, unknown> = {};
  const id = sleepIdOf(entry.SleepId);
  if (id !== null) metadata.suunto_sleep_id = id;
  for (const [field, name] of METADATA_FIELDS) {
    const value = figure(entry[field]);
    if (value !== null) metadata[name] = value;
  }
  return metadata;
}
