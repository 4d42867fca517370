import type { QuantitySampleRecord, SleepSessionRecord } from "@svc/core";
import { emptyParsedRecords, MalformedUpload, type ParsedRecords } from "../parsed-records.ts";
import { modelName } from "./devices.ts";
import { amount, epochSeconds, finiteNumber, idOf, isCalendarDay, isObject, positive, text, type JsonObject } from "./values.ts";

export const WITHINGS_SLEEP_SUMMARIES_FORMAT = "withings-sleep-summaries";

/** Sleep v2 `model`: 16 a tracker or watch (worn), 32 a sleep monitor under the mattress. */
const TRACKER = 16;

/** Figures of a night kept as metadata (seconds, counts and Withings' own indexes). */
const METADATA_FIELDS = [
  "total_timeinbed",
  "wakeupcount",
  "waso",
  "wakeup_latency",
  "nb_rem_episodes",
  "out_of_bed_count",
  "hr_max",
  "rr_min",
  "rr_max",
  "snoring",
  "snoringepisodecount",
  "breathing_disturbances_intensity",
] as const;

/**
 * One page of Sleep v2 - Getsummary (its `body`: `series`) to sleep sessions: bedtime from
 * `startdate` to `enddate` in the night's `timezone`, stage durations, latency, efficiency
 * (0–1), score, heart and breathing rates as sent (seconds, bpm, breaths/min). The night's
 * `id` is the external id. The score and the apnea–hypopnea index (events per hour) are
 * also quantity samples over the night (`sleep_score`, `sleeping_breathing_disturbances`).
 */
export function parseWithingsSleepSummaries(payload: unknown): ParsedRecords {
  if (!isObject(payload) || !Array.isArray(payload.series)) {
    throw new MalformedUpload("series", "a Withings sleep payload is the body of Sleep v2 - Getsummary, with a series list");
  }
  const records = emptyParsedRecords();
  payload.series.forEach((night, index) => {
    const locator = `series[${index}]`;
    const reason = readNight(night, locator, records);
    if (reason) records.rejected.push({ recordKind: "sleep_session", locator, reason });
  });
  return records;
}

function readNight(night: unknown, locator: string, records: ParsedRecords): string | null {
  if (!isObject(night)) return "withings sleep: not an object";
  const id = idOf(night.id);
  const start = epochSeconds(night.startdate);
  const end = epochSeconds(night.enddate);
  if (id === null || start === null || end === null) return "withings sleep: id, startdate or enddate is missing or invalid";
  if (end < start) return "withings sleep: enddate is before startdate";
  const data = isObject(night.data) ? night.data : {};
  const timezone = text(night.timezone, 64);
  const device = modelName(night.model_id);
  const onBody = night.model === TRACKER;

  const light = amount(data.lightsleepduration);
  const deep = amount(data.deepsleepduration);
  const rem = amount(data.remsleepduration);
  const staged = light !== null || deep !== null || rem !== null ? (light ?? 0) + (deep ?? 0) + (rem ?? 0) : null;
  const session: SleepSessionRecord = {
    kind: "sleep",
    bedtime_start: start,
    bedtime_end: end,
    timezone,
    // `asleepduration` is the total of a night from another source, without stages.
    total_sleep_seconds: amount(data.total_sleep_time) ?? amount(data.asleepduration) ?? staged,
    awake_seconds: amount(data.wakeupduration),
    light_seconds: light,
    deep_seconds: deep,
    rem_seconds: rem,
    latency_seconds: amount(data.sleep_latency) ?? amount(data.durationtosleep),
    efficiency: fraction(data.sleep_efficiency),
    score: score(data.sleep_score),
    average_heart_rate: positive(data.hr_average),
    lowest_heart_rate: positive(data.hr_min),
    respiratory_rate: positive(data.rr_average),
    source: "withings",
    source_name: "Withings",
    device,
    on_body: onBody,
    external_id: id,
    metadata: metadataOf(night, data),
    locator,
  };
  records.sleepSessions.push(session);

  const common = {
    start_date: start,
    end_date: end,
    source: "withings",
    source_name: "Withings",
    device,
    device_model: device,
    on_body: onBody,
    external_id: id,
    timezone,
  };
  if (session.score !== null && session.score !== undefined) {
    records.quantitySamples.push({ ...common, type: "sleep_score", value: session.score, unit: "score", locator } satisfies QuantitySampleRecord);
  }
  const ahi = amount(data.apnea_hypopnea_index);
  if (ahi !== null) {
    const disturbances: QuantitySampleRecord = { ...common, type: "sleeping_breathing_disturbances", value: ahi, unit: "count/h", locator };
    records.quantitySamples.push(disturbances);
  }
  return null;
}

function fraction(value: unknown): number | null {
  const number = finiteNumber(value);
  return number !== null && number >= 0 && number <= 1 ? number : null;
}

function score(value: unknown): number | null {
  const number = finiteNumber(value);
  return number !== null && number >= 0 && number <= 100 ? number : null;
}

function metadataOf(night: JsonObject, data: JsonObject): Record<string, unknown> {
  const metadata: Record<string, unknown> = {};
  if (isCalendarDay(night.date)) metadata.date = night.date;
  if (typeof night.model === "number") metadata.withings_model = night.model;
  for (const field of METADATA_FIELDS) {
    const value = finiteNumber(data[field]);
    // Withings writes -1 for figures the device could not measure.
    if (value !== null && value >= 0) metadata[field] = value;
  }
  return metadata;
}
