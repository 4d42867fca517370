// Health Kit sleep records (`GET /v2/healthRecords`, data type com.huawei.health.record.sleep)
// as sleep sessions. A record's fields: `fall_asleep_time` and `wakeup_time` (ms), the
// durations `all_sleep_time`, `light_sleep_time`, `deep_sleep_time`, `dream_time` (REM) and
// `awake_time` in minutes, `sleep_score`, `wakeup_count`, `go_bed_time` and `off_bed_time`
// (ms) and `sleep_type` (1 scientific sleep, 2 normal sleep, 3 nap). Its stages come as the
// sub data com.huawei.continuous.sleep.fragment: sample points (ns) with `sleep_state` 1 light,
// 2 REM, 3 deep, 4 awake, 5 nap. Health Kit names no zone of a night, so none is stored.

import type { SleepPhaseRecord, SleepSessionRecord } from "@svc/core";
import { emptyParsedRecords, MalformedUpload, type ParsedRecords } from "../parsed-records.ts";
import { fieldsOf, instantOfMillis, instantOfNanos, isObject, type JsonObject } from "./json.ts";

export const HUAWEI_SLEEP_FORMAT = "huawei-health-sleep";
export const SLEEP_RECORD_TYPE = "com.huawei.health.record.sleep";
export const SLEEP_FRAGMENT_TYPE = "com.huawei.continuous.sleep.fragment";

const STAGES: Readonly<Record<number, string>> = { 1: "light", 2: "rem", 3: "deep", 4: "awake", 5: "asleep" };
const NAP_SLEEP_TYPE = 3;
const MINUTE_S = 60;
const MAX_ID_LENGTH = 200;

export function parseHuaweiSleep(payload: unknown): ParsedRecords {
  if (!isObject(payload) || !Array.isArray(payload.healthRecords)) throw new MalformedUpload("sleep", "a Huawei Health sleep payload is an answer of GET healthRecords");
  const out = emptyParsedRecords();
  payload.healthRecords.forEach((record, index) => {
    if (!isObject(record) || (record.dataTypeName !== undefined && record.dataTypeName !== SLEEP_RECORD_TYPE)) return;
    const session = sessionOf(record);
    if (session) out.sleepSessions.push({ ...session, locator: `healthRecords[${index}]` });
    else out.rejected.push({ recordKind: "sleep_session", locator: `healthRecords[${index}]`, reason: "huawei sleep record: the fall-asleep or wake-up time is not a time, or not after the other" });
  });
  return out;
}

function sessionOf(record: JsonObject): SleepSessionRecord | null {
  const fields = fieldsOf(record);
  const asleep = instantOfMillis(fields.get("fall_asleep_time")) ?? instantOfNanos(record.startTime);
  const awake = instantOfMillis(fields.get("wakeup_time")) ?? instantOfNanos(record.endTime);
  if (!asleep || !awake || awake <= asleep) return null;
  // In bed before falling asleep and after waking, when the device measured it.
  const inBed = instantOfMillis(fields.get("go_bed_time"));
  const outOfBed = instantOfMillis(fields.get("off_bed_time"));
  const start = inBed && inBed <= asleep ? inBed : asleep;
  const end = outOfBed && outOfBed >= awake ? outOfBed : awake;
  const seconds = (name: string) => {
    const minutes = fields.get(name);
    return minutes !== undefined && minutes >= 0 ? Math.round(minutes * MINUTE_S) : null;
  };
  const score = fields.get("sleep_score");
  const sleepType = fields.get("sleep_type");
  const wakeups = fields.get("wakeup_count");
  const metadata: Record<string, unknown> = {};
  if (sleepType !== undefined) metadata.sleep_type = sleepType;
  if (wakeups !== undefined && wakeups >= 0) metadata.wakeup_count = Math.round(wakeups);
  if (typeof record.originalDataCollectorId === "string") metadata.data_collector = record.originalDataCollectorId.slice(0, MAX_ID_LENGTH);
  const phases = phasesOf(record.subData);
  return {
    kind: sleepType === NAP_SLEEP_TYPE ? "nap" : "sleep",
    bedtime_start: start,
    bedtime_end: end,
    total_sleep_seconds: seconds("all_sleep_time"),
    light_seconds: seconds("light_sleep_time"),
    deep_seconds: seconds("deep_sleep_time"),
    rem_seconds: seconds("dream_time"),
    awake_seconds: seconds("awake_time"),
    latency_seconds: start < asleep ? Math.round((asleep.getTime() - start.getTime()) / 1000) : null,
    score: score !== undefined && score >= 0 && score <= 100 ? score : null,
    source: "huawei",
    on_body: true,
    external_id: typeof record.id === "string" && record.id !== "" ? record.id.slice(0, MAX_ID_LENGTH) : null,
    metadata,
    ...(phases ? { phases } : {}),
  };
}

/** The record's sleep fragments as phases; undefined when the record carries none (stored phases stay). */
function phasesOf(subData: unknown): SleepPhaseRecord[] | undefined {
  const fragments = isObject(subData) ? subData[SLEEP_FRAGMENT_TYPE] : undefined;
  if (!isObject(fragments) || !Array.isArray(fragments.samplePoints)) return undefined;
  const phases: SleepPhaseRecord[] = [];
  for (const point of fragments.samplePoints) {
    if (!isObject(point)) continue;
    const stage = STAGES[fieldsOf(point).get("sleep_state") ?? Number.NaN];
    const start = instantOfNanos(point.startTime);
    const end = instantOfNanos(point.endTime);
    if (stage && start && end && end > start) phases.push({ stage, start_date: start, end_date: end });
  }
  return phases;
}
