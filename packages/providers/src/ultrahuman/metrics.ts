// One user day of the Ultrahuman Partner API (GET /user_data/metrics?date=): `metric_data`, a
// list of `{type, object}`. Readings (hr, hrv, steps) are `object.values`, each `{value,
// timestamp}` in epoch seconds; daily figures (recovery_index, vo2_max) are `object.value` at
// `object.day_start_timestamp`; the night is the `Sleep` object. Other types are not read.

import { emptyParsedRecords, type ParsedRecords, type QuantitySampleRecord } from "@svc/core";
import { calendarDateOf, isObject, numberOf, textOf, type JsonObject } from "../json-fields.ts";
import { MalformedUpload } from "../parsed-records.ts";

export const ULTRAHUMAN_METRICS_FORMAT = "ultrahuman-metrics";

/** What the pull stores: the date asked for and the answer's metric list. */
export interface UltrahumanMetricsPayload {
  date: string;
  metric_data: unknown[];
}

/** Provenance of every Ultrahuman record: worn on a finger, measured by the ring. */
const PROVENANCE = { source: "ultrahuman", device: "Ultrahuman Ring", on_body: true, source_name: "Ultrahuman" } as const;

/** Time series: Ultrahuman type -> catalog type and unit. The documentation does not name the HRV method; it is taken as RMSSD (docs/providers.md). */
const READINGS: Readonly<Record<string, { type: string; unit: string }>> = {
  hr: { type: "heart_rate", unit: "count/min" },
  hrv: { type: "hrv_rmssd", unit: "ms" },
  steps: { type: "step_count", unit: "count" },
};

/** Daily figures: Ultrahuman type -> catalog type and unit. */
const DAILY: Readonly<Record<string, { type: string; unit: string }>> = {
  recovery_index: { type: "recovery_score", unit: "score" },
  vo2_max: { type: "vo2_max", unit: "mL/(kg.min)" },
};

/** sleep_stages types -> the session's stage totals. */
const STAGES = { deep_sleep: "deep_seconds", light_sleep: "light_seconds", rem_sleep: "rem_seconds", awake: "awake_seconds" } as const;

/** Epoch seconds between 2015 and 2100: anything else is not a reading's time. */
const EPOCH_MIN = 1_420_070_400;
const EPOCH_MAX = 4_102_444_800;

export function parseUltrahumanMetrics(payload: unknown): ParsedRecords {
  const date = isObject(payload) ? calendarDateOf(payload.date) : null;
  if (!isObject(payload) || !date || !Array.isArray(payload.metric_data)) {
    throw new MalformedUpload("payload", "an ultrahuman-metrics payload is {date, metric_data: [...]}");
  }
  const out = emptyParsedRecords();
  payload.metric_data.forEach((item, index) => {
    const locator = `metric_data[${index}]`;
    const type = isObject(item) ? textOf(item.type) : null;
    const object = isObject(item) && isObject(item.object) ? item.object : null;
    if (!type || !object) {
      out.rejected.push({ recordKind: "quantity_sample", locator, reason: "a metric needs a type and an object" });
      return;
    }
    const reading = READINGS[type];
    const daily = DAILY[type];
    if (reading) readingsOf(out, object, reading, locator);
    else if (daily) dailyFigureOf(out, object, daily, date, locator);
    else if (type === "Sleep") sleepOf(out, object, date, locator);
  });
  return out;
}

function readingsOf(out: ParsedRecords, object: JsonObject, target: { type: string; unit: string }, locator: string): void {
  if (!Array.isArray(object.values)) {
    out.rejected.push({ recordKind: "quantity_sample", locator, reason: "a time series needs a values array" });
    return;
  }
  object.values.forEach((entry, index) => {
    const at = isObject(entry) ? instantOfEpoch(entry.timestamp) : null;
    const value = isObject(entry) ? numberOf(entry.value) : null;
    if (!at || value === null || value < 0) {
      out.rejected.push({ recordKind: "quantity_sample", locator: `${locator}.object.values[${index}]`, reason: "a reading needs an epoch timestamp and a non-negative value" });
      return;
    }
    out.quantitySamples.push({ type: target.type, value, unit: target.unit, start_date: at, end_date: at, ...PROVENANCE, locator: `${locator}.object.values[${index}]` });
  });
}

function dailyFigureOf(out: ParsedRecords, object: JsonObject, target: { type: string; unit: string }, date: string, locator: string): void {
  const value = numberOf(object.value);
  if (value === null) return; // a day without the figure (not computed yet)
  const at = instantOfEpoch(object.day_start_timestamp);
  if (!at || value < 0) {
    out.rejected.push({ recordKind: "quantity_sample", locator, reason: "a daily figure needs a day_start_timestamp and a non-negative value" });
    return;
  }
  const sample: QuantitySampleRecord = { type: target.type, value, unit: target.unit, start_date: at, end_date: at, ...PROVENANCE, external_id: `${target.type}-${date}`, metadata: { day: date }, locator };
  out.quantitySamples.push(sample);
}

/** The night: bedtime_start/bedtime_end (epoch seconds), stage totals, time in bed and efficiency (percent). */
function sleepOf(out: ParsedRecords, object: JsonObject, date: string, locator: string): void {
  const start = instantOfEpoch(object.bedtime_start);
  const end = instantOfEpoch(object.bedtime_end);
  if (!start || !end || end < start) {
    out.rejected.push({ recordKind: "sleep_session", locator, reason: "a night needs bedtime_start and bedtime_end (epoch seconds), in order" });
    return;
  }
  const stages: Partial<Record<(typeof STAGES)[keyof typeof STAGES], number>> = {};
  for (const stage of Array.isArray(object.sleep_stages) ? object.sleep_stages : []) {
    const name = isObject(stage) ? textOf(stage.type) : null;
    const seconds = isObject(stage) ? numberOf(stage.stage_time) : null;
    const field = name && name in STAGES ? STAGES[name as keyof typeof STAGES] : null;
    if (field && seconds !== null && seconds >= 0) stages[field] = seconds;
  }
  const quick: Record<string, number> = {};
  for (const metric of Array.isArray(object.quick_metrics) ? object.quick_metrics : []) {
    const name = isObject(metric) ? textOf(metric.type) : null;
    const value = isObject(metric) ? numberOf(metric.value) : null;
    if (name && value !== null && value >= 0) quick[name] = value;
  }
  const { deep_seconds, light_seconds, rem_seconds } = stages;
  const asleep = deep_seconds !== undefined && light_seconds !== undefined && rem_seconds !== undefined ? deep_seconds + light_seconds + rem_seconds : null;
  const efficiency = quick.sleep_efic;
  out.sleepSessions.push({
    kind: "sleep",
    bedtime_start: start,
    bedtime_end: end,
    total_sleep_seconds: asleep,
    awake_seconds: stages.awake_seconds ?? null,
    light_seconds: light_seconds ?? null,
    deep_seconds: deep_seconds ?? null,
    rem_seconds: rem_seconds ?? null,
    // Ultrahuman rates efficiency in percent; the session keeps a fraction.
    efficiency: efficiency !== undefined && efficiency <= 100 ? efficiency / 100 : null,
    ...PROVENANCE,
    external_id: `sleep-${Math.round(start.getTime() / 1000)}`,
    metadata: { day: date, time_in_bed_seconds: quick.time_in_bed ?? null },
    locator,
  });
}

function instantOfEpoch(value: unknown): Date | null {
  const seconds = numberOf(value);
  return seconds !== null && seconds >= EPOCH_MIN && seconds < EPOCH_MAX ? new Date(seconds * 1000) : null;
}
