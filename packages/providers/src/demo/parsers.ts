import {
  emptyParsedRecords,
  type DailySummaryRecord,
  type ParsedRecords,
  type PayloadParser,
  type QuantitySampleRecord,
  type SleepPhaseRecord,
} from "@svc/core";
import { MalformedUpload } from "../parsed-records.ts";
import { DEMO_FORMATS } from "./demo-api.ts";

// The demo API's payloads to records. Its units are already the catalog's (count, m, kcal,
// count/min, ms, %, kg), so nothing is converted; zones come from the payload's `timezone`.

type JsonObject = Record<string, unknown>;

const PROVENANCE = { source: "demo", source_name: "svc demo" } as const;
const WATCH = { ...PROVENANCE, device: "Demo Watch", on_body: true } as const;
const SCALE = { ...PROVENANCE, device: "Demo Scale", on_body: false } as const;
const STAGES = new Set(["awake", "light", "deep", "rem"]);
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** An item that cannot be read; the reason names fields, never a value. */
class Reject extends Error {}

const isObject = (value: unknown): value is JsonObject => typeof value === "object" && value !== null && !Array.isArray(value);

function text(item: JsonObject, field: string): string {
  const value = item[field];
  if (typeof value !== "string" || value === "") throw new Reject(`${field} is missing or not a string`);
  return value;
}

function day(item: JsonObject, field = "day"): string {
  const value = text(item, field);
  if (!DAY.test(value)) throw new Reject(`${field} is not a YYYY-MM-DD date`);
  return value;
}

function time(item: JsonObject, field: string): Date {
  const value = text(item, field);
  if (!RFC3339.test(value)) throw new Reject(`${field} is not an RFC 3339 time with an offset`);
  const instant = new Date(value);
  if (Number.isNaN(instant.getTime())) throw new Reject(`${field} is not a valid time`);
  return instant;
}

function amount(item: JsonObject, field: string): number {
  const value = item[field];
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) throw new Reject(`${field} is missing or not a number of at least 0`);
  return value;
}

function optionalAmount(item: JsonObject, field: string): number | null {
  return item[field] === null || item[field] === undefined ? null : amount(item, field);
}

function list(item: JsonObject, field: string): unknown[] {
  const value = item[field];
  if (!Array.isArray(value)) throw new Reject(`${field} is not a list`);
  return value;
}

/** The page's zone and items; throws when the payload as a whole is not a demo page. */
function pageOf(payload: unknown, format: string): { timezone: string; items: unknown[] } {
  if (!isObject(payload) || typeof payload.timezone !== "string" || !Array.isArray(payload.data)) {
    throw new MalformedUpload(format, "a demo payload is an object with timezone and data");
  }
  return { timezone: payload.timezone, items: payload.data };
}

/** Reads every item of the page; an item that cannot be read becomes one rejected record. */
function parsePage(payload: unknown, format: string, recordKind: string, read: (item: JsonObject, timezone: string, parsed: ParsedRecords) => void): ParsedRecords {
  const { timezone, items } = pageOf(payload, format);
  const parsed = emptyParsedRecords();
  items.forEach((item, index) => {
    const locator = `data[${index}]`;
    try {
      if (!isObject(item)) throw new Reject("the item is not an object");
      // Read into a scratch bundle so that a bad field leaves nothing of the item behind.
      const scratch = emptyParsedRecords();
      read(item, timezone, scratch);
      parsed.quantitySamples.push(...scratch.quantitySamples.map((record) => ({ ...record, locator })));
      parsed.sleepSessions.push(...scratch.sleepSessions.map((record) => ({ ...record, locator })));
      parsed.workouts.push(...scratch.workouts.map((record) => ({ ...record, locator })));
      parsed.dailySummaries.push(...scratch.dailySummaries.map((record) => ({ ...record, locator })));
    } catch (error) {
      if (!(error instanceof Reject)) throw error;
      parsed.rejected.push({ recordKind, locator, reason: `${recordKind}: ${error.message}` });
    }
  });
  return parsed;
}

function sample(type: string, value: number, unit: string, start: Date, end: Date, externalId: string, timezone: string, device: typeof WATCH | typeof SCALE): QuantitySampleRecord {
  return { type, value, unit, start_date: start, end_date: end, external_id: externalId, timezone, ...device };
}

const parseActivity: PayloadParser = (payload) =>
  parsePage(payload, DEMO_FORMATS.activity, "demo_activity", (item, timezone, parsed) => {
    const id = text(item, "id");
    const summary: DailySummaryRecord = {
      date: day(item),
      timezone,
      steps: amount(item, "steps"),
      distance_meters: amount(item, "distance_m"),
      active_energy_kcal: amount(item, "active_kcal"),
      total_energy_kcal: amount(item, "total_kcal"),
      active_seconds: amount(item, "active_minutes") * 60,
      resting_heart_rate: amount(item, "resting_bpm"),
      ...WATCH,
      metadata: { demo_id: id },
    };
    parsed.dailySummaries.push(summary);
    for (const interval of list(item, "intervals")) {
      if (!isObject(interval)) throw new Reject("intervals holds an item that is not an object");
      const intervalId = text(interval, "id");
      const start = time(interval, "start");
      const end = time(interval, "end");
      parsed.quantitySamples.push(
        sample("step_count", amount(interval, "steps"), "count", start, end, intervalId, timezone, WATCH),
        sample("distance_walking_running", amount(interval, "distance_m"), "m", start, end, intervalId, timezone, WATCH),
        sample("active_energy_burned", amount(interval, "active_kcal"), "kcal", start, end, intervalId, timezone, WATCH),
      );
    }
  });

const parseHeart: PayloadParser = (payload) =>
  parsePage(payload, DEMO_FORMATS.heart, "demo_heart", (item, timezone, parsed) => {
    const id = text(item, "id");
    if (item.resting !== null && item.resting !== undefined) {
      if (!isObject(item.resting)) throw new Reject("resting is not an object");
      const at = time(item.resting, "time");
      parsed.quantitySamples.push(sample("resting_heart_rate", amount(item.resting, "bpm"), "count/min", at, at, `${id}/resting`, timezone, WATCH));
    }
    for (const entry of list(item, "samples")) {
      if (!isObject(entry)) throw new Reject("samples holds an item that is not an object");
      const at = time(entry, "time");
      // The API gives samples no id of their own: the time is their id within the day.
      parsed.quantitySamples.push(sample("heart_rate", amount(entry, "bpm"), "count/min", at, at, `${id}/${at.toISOString()}`, timezone, WATCH));
    }
  });

const parseSleep: PayloadParser = (payload) =>
  parsePage(payload, DEMO_FORMATS.sleep, "demo_sleep", (item, timezone, parsed) => {
    const id = text(item, "id");
    const start = time(item, "bedtime_start");
    const end = time(item, "bedtime_end");
    if (end <= start) throw new Reject("bedtime_end is not after bedtime_start");
    const phases: SleepPhaseRecord[] = list(item, "phases").map((phase) => {
      if (!isObject(phase)) throw new Reject("phases holds an item that is not an object");
      const stage = text(phase, "stage");
      if (!STAGES.has(stage)) throw new Reject("phases holds an unknown stage");
      return { stage, start_date: time(phase, "start"), end_date: time(phase, "end") };
    });
    const firstAsleep = phases.find((phase) => phase.stage !== "awake");
    const efficiency = amount(item, "efficiency");
    if (efficiency > 1) throw new Reject("efficiency is above 1");
    parsed.sleepSessions.push({
      kind: "sleep",
      bedtime_start: start,
      bedtime_end: end,
      timezone,
      // Stage totals are derived from the phases by the writer.
      latency_seconds: firstAsleep ? (firstAsleep.start_date.getTime() - start.getTime()) / 1000 : null,
      efficiency,
      score: amount(item, "score"),
      average_heart_rate: amount(item, "average_bpm"),
      lowest_heart_rate: amount(item, "lowest_bpm"),
      average_hrv: amount(item, "average_hrv_ms"),
      respiratory_rate: amount(item, "respiratory_rate"),
      external_id: id,
      phases,
      ...WATCH,
    });
    parsed.quantitySamples.push(
      sample("hrv_rmssd", amount(item, "average_hrv_ms"), "ms", start, end, `${id}/hrv`, timezone, WATCH),
      sample("respiratory_rate", amount(item, "respiratory_rate"), "count/min", start, end, `${id}/respiratory_rate`, timezone, WATCH),
      sample("oxygen_saturation", amount(item, "spo2_percent"), "%", start, end, `${id}/spo2`, timezone, WATCH),
    );
  });

const parseBody: PayloadParser = (payload) =>
  parsePage(payload, DEMO_FORMATS.body, "demo_body", (item, timezone, parsed) => {
    const id = text(item, "id");
    const at = time(item, "time");
    parsed.quantitySamples.push(
      sample("body_mass", amount(item, "weight_kg"), "kg", at, at, `${id}/weight`, timezone, SCALE),
      sample("body_fat_percentage", amount(item, "body_fat_percent"), "%", at, at, `${id}/body_fat`, timezone, SCALE),
    );
  });

const parseWorkouts: PayloadParser = (payload) =>
  parsePage(payload, DEMO_FORMATS.workouts, "demo_workout", (item, timezone, parsed) => {
    const start = time(item, "start");
    const end = time(item, "end");
    if (end <= start) throw new Reject("end is not after start");
    parsed.workouts.push({
      activity_type: text(item, "activity"),
      name: typeof item.name === "string" ? item.name : null,
      start_date: start,
      end_date: end,
      timezone,
      distance_meters: optionalAmount(item, "distance_m"),
      active_energy_kcal: amount(item, "active_kcal"),
      average_heart_rate: amount(item, "average_bpm"),
      max_heart_rate: amount(item, "max_bpm"),
      steps: optionalAmount(item, "steps"),
      elevation_gain_meters: optionalAmount(item, "elevation_gain_m"),
      external_id: text(item, "id"),
      ...WATCH,
    });
  });

export const demoParsers: Readonly<Record<string, PayloadParser>> = {
  [DEMO_FORMATS.activity]: parseActivity,
  [DEMO_FORMATS.heart]: parseHeart,
  [DEMO_FORMATS.sleep]: parseSleep,
  [DEMO_FORMATS.body]: parseBody,
  [DEMO_FORMATS.workouts]: parseWorkouts,
};
