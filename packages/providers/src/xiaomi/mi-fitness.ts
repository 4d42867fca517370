// Mi Fitness (Xiaomi Wear) data copy: `hlth_center_fitness_data.csv`, columns
// `Uid,Sid,Key,Time,Value,UpdateTime`. Time is UTC epoch seconds; Value is a JSON object
// whose keys depend on Key (`heart_rate` {time, bpm}, `steps` {time, steps, distance},
// `spo2` {time, spo2}, `stress` {time, stress}, `calories` {time, calories}, `weight`
// {weight, bmi, body_fat_rate}, `sleep` {bedtime, wake_up_time, items: [{start_time,
// end_time, state}], ...}). Keys svc does not read (pai, valid_stand, intensity, ...) are
// skipped without a rejection.
import type { QuantitySampleRecord, SleepPhaseRecord } from "@svc/core";
import type { ParsedRecords } from "../parsed-records.ts";
import { externalId, RowReject, type Row, type RowReader, type Upload } from "./rows.ts";
import { formatOffset, parseEpoch } from "./time.ts";
import type { KindSpec } from "./zepp.ts";

type Payload = Record<string, unknown>;

const MINUTE_MS = 60_000;

/** Mi Fitness sleep item `state` to svc's sleep stages. */
const SLEEP_STATES: Readonly<Record<number, string>> = { 2: "deep", 3: "light", 4: "rem", 5: "awake" };

const isObject = (value: unknown): value is Payload => typeof value === "object" && value !== null && !Array.isArray(value);

interface KeyContext {
  upload: Upload;
  row: Row;
  payload: Payload;
  /** The row's Time. */
  time: Date;
  id: string;
  out: ParsedRecords;
}

/** A number of the payload: undefined when missing or null, a rejection when not a finite number. */
function field(payload: Payload, key: string, recordKind: string): number | undefined {
  const value = payload[key];
  if (value === undefined || value === null || value === "") return undefined;
  const n = typeof value === "string" ? Number(value) : value;
  if (typeof n !== "number" || !Number.isFinite(n)) throw new RowReject(recordKind, `Value.${key} is not a number`);
  return n;
}

function epochField(payload: Payload, key: string, recordKind: string): Date | undefined {
  const n = field(payload, key, recordKind);
  if (n === undefined) return undefined;
  const date = parseEpoch(String(Math.trunc(n)));
  if (!date) throw new RowReject(recordKind, `Value.${key} is not epoch seconds`);
  return date;
}

function sample(
  ctx: KeyContext,
  fields: Pick<QuantitySampleRecord, "type" | "value" | "unit" | "start_date" | "end_date">,
  onBody = true,
): QuantitySampleRecord {
  return {
    ...fields,
    source: ctx.upload.source,
    on_body: onBody,
    source_name: "Mi Fitness",
    device: null,
    external_id: ctx.id,
    timezone: ctx.upload.timezone,
    metadata: { file: ctx.upload.kind, key: ctx.row.text("key"), sid: ctx.row.text("sid") },
    locator: ctx.row.locator,
  };
}

/** An instant reading `{time, <name>}`; 0 is no reading. */
const reading =
  (name: string, type: string, unit: string) =>
  (ctx: KeyContext): void => {
    const value = field(ctx.payload, name, "quantity_sample");
    if (value === undefined) throw new RowReject("quantity_sample", `Value.${name} is missing`);
    if (value < 0) throw new RowReject("quantity_sample", `Value.${name} is negative`);
    if (value === 0) return;
    const at = epochField(ctx.payload, "time", "quantity_sample") ?? ctx.time;
    ctx.out.quantitySamples.push(sample(ctx, { type, value, unit, start_date: at, end_date: at }));
  };

/** Steps of a minute `{time, steps, distance}`; a minute without steps or distance is left out. */
function steps(ctx: KeyContext): void {
  const count = field(ctx.payload, "steps", "quantity_sample");
  const distance = field(ctx.payload, "distance", "quantity_sample");
  if (count === undefined) throw new RowReject("quantity_sample", "Value.steps is missing");
  if (count < 0 || (distance !== undefined && distance < 0)) throw new RowReject("quantity_sample", "Value.steps or Value.distance is negative");
  const start = epochField(ctx.payload, "time", "quantity_sample") ?? ctx.time;
  const end = new Date(start.getTime() + MINUTE_MS);
  if (count > 0) ctx.out.quantitySamples.push(sample(ctx, { type: "step_count", value: count, unit: "count", start_date: start, end_date: end }));
  if (distance !== undefined && distance > 0) {
    ctx.out.quantitySamples.push(sample(ctx, { type: "distance_walking_running", value: distance, unit: "m", start_date: start, end_date: end }));
  }
}

/** A scale's reading `{weight, bmi, body_fat_rate}`. */
function weight(ctx: KeyContext): void {
  const at = epochField(ctx.payload, "time", "quantity_sample") ?? ctx.time;
  const add = (type: string, key: string, unit: string) => {
    const value = field(ctx.payload, key, "quantity_sample");
    if (value === undefined || value === 0) return;
    if (value < 0) throw new RowReject("quantity_sample", `Value.${key} is negative`);
    ctx.out.quantitySamples.push(sample(ctx, { type, value, unit, start_date: at, end_date: at }, false));
  };
  if (field(ctx.payload, "weight", "quantity_sample") === undefined) throw new RowReject("quantity_sample", "Value.weight is missing");
  add("body_mass", "weight", "kg");
  add("body_mass_index", "bmi", "kg/m2");
  add("body_fat_percentage", ctx.payload.body_fat_rate !== undefined ? "body_fat_rate" : "fat_rate", "%");
}

/** Mi Fitness writes the zone in quarter hours (32 = +08:00), sometimes in minutes. */
function zoneOf(raw: number | undefined): string | null {
  if (raw === undefined || !Number.isInteger(raw)) return null;
  if (raw >= -48 && raw <= 56) return formatOffset(raw * 15);
  if (raw >= -840 && raw <= 840) return formatOffset(raw);
  return null;
}

function sleep(ctx: KeyContext): void {
  const kind = "sleep_session";
  const start = epochField(ctx.payload, "bedtime", kind) ?? epochField(ctx.payload, "device_bedtime", kind);
  const end = epochField(ctx.payload, "wake_up_time", kind) ?? epochField(ctx.payload, "device_wake_up_time", kind);
  if (!start || !end) throw new RowReject(kind, "Value.bedtime or Value.wake_up_time is missing");
  if (end < start) throw new RowReject(kind, "Value.wake_up_time is before Value.bedtime");
  const minutes = (key: string) => {
    const v = field(ctx.payload, key, kind);
    if (v !== undefined && v < 0) throw new RowReject(kind, `Value.${key} is negative`);
    return v === undefined ? null : Math.round(v * 60);
  };
  const phases: SleepPhaseRecord[] = [];
  let unmapped = 0;
  const items = ctx.payload.items;
  if (items !== undefined && items !== null && !Array.isArray(items)) throw new RowReject(kind, "Value.items is not a list");
  for (const [i, item] of (Array.isArray(items) ? items : []).entries()) {
    if (!isObject(item)) throw new RowReject(kind, `Value.items[${i}] is not an object`);
    const from = epochField(item, "start_time", kind);
    const to = epochField(item, "end_time", kind);
    if (!from || !to) throw new RowReject(kind, `Value.items[${i}]: start_time or end_time is missing`);
    const state = field(item, "state", kind);
    const stage = state === undefined ? undefined : SLEEP_STATES[state];
    if (stage === undefined) {
      unmapped++;
      continue;
    }
    phases.push({ stage, start_date: from, end_date: to });
  }
  const metadata: Record<string, unknown> = { file: ctx.upload.kind, key: ctx.row.text("key"), sid: ctx.row.text("sid") };
  if (unmapped > 0) metadata.unmapped_item_count = unmapped;
  const efficiency = field(ctx.payload, "sleep_efficiency", kind);
  if (efficiency !== undefined) metadata.sleep_efficiency = efficiency;
  const awakeCount = field(ctx.payload, "awake_count", kind);
  if (awakeCount !== undefined) metadata.awake_count = awakeCount;
  const maxHr = field(ctx.payload, "max_hr", kind);
  if (maxHr !== undefined) metadata.max_heart_rate = maxHr;
  const positive = (key: string) => {
    const v = field(ctx.payload, key, kind);
    return v !== undefined && v > 0 ? v : null;
  };
  ctx.out.sleepSessions.push({
    kind: "sleep",
    bedtime_start: start,
    bedtime_end: end,
    timezone: zoneOf(field(ctx.payload, "timezone", kind)) ?? ctx.upload.timezone,
    total_sleep_seconds: minutes("duration"),
    deep_seconds: minutes("sleep_deep_duration"),
    light_seconds: minutes("sleep_light_duration"),
    rem_seconds: minutes("sleep_rem_duration"),
    awake_seconds: minutes("sleep_awake_duration"),
    average_heart_rate: positive("avg_hr"),
    lowest_heart_rate: positive("min_hr"),
    respiratory_rate: positive("avg_breath"),
    source: ctx.upload.source,
    on_body: true,
    source_name: "Mi Fitness",
    device: null,
    external_id: ctx.id,
    metadata,
    locator: ctx.row.locator,
    ...(phases.length > 0 && { phases }),
  });
}

const KEYS: Readonly<Record<string, (ctx: KeyContext) => void>> = {
  heart_rate: reading("bpm", "heart_rate", "count/min"),
  steps,
  calories: reading("calories", "active_energy_burned", "kcal"),
  spo2: reading("spo2", "oxygen_saturation", "%"),
  stress: reading("stress", "stress_level", "score"),
  weight,
  sleep,
};

const fitnessData: RowReader = (upload, row, out) => {
  const key = row.text("key");
  const reader = Object.hasOwn(KEYS, key) ? KEYS[key] : undefined;
  if (!reader) return;
  const time = parseEpoch(row.text("time"));
  if (!time) throw new RowReject("xiaomi_row", "Time is not epoch seconds");
  let payload: unknown;
  try {
    payload = JSON.parse(row.text("value"));
  } catch {
    throw new RowReject("xiaomi_row", "Value is not JSON");
  }
  if (!isObject(payload)) throw new RowReject("xiaomi_row", "Value is not a JSON object");
  const id = externalId(upload, row.text("sid"), key, row.text("time"));
  reader({ upload, row, payload, time, id, out });
};

export const MI_FITNESS_KINDS: Readonly<Record<string, KindSpec>> = {
  hlth_center_fitness_data: { required: ["sid", "key", "time", "value"], needsTimezone: false, read: fitnessData },
};
