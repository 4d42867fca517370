// One Health Connect record (a parsed NDJSON line) to svc's record shapes.
import type {
  CategorySampleRecord,
  NutritionLogRecord,
  QuantitySampleRecord,
  RoutePointRecord,
  SleepPhaseRecord,
  WorkoutRecord,
} from "@svc/core";
import type { ParsedRecords, RecordListName } from "../parsed-records.ts";
import { CANONICAL_UNITS, readMeasurement, type Measurement, type UnitKind } from "./units.ts";
import {
  BLOOD_PRESSURE_LOCATIONS,
  BODY_POSITIONS,
  DEVICE_TYPES,
  EXERCISE_TYPES,
  FLOWS,
  MANUFACTURER_SOURCES,
  MEAL_TYPES,
  MINDFULNESS_TYPES,
  MUCUS_APPEARANCES,
  MUCUS_SENSATIONS,
  ON_BODY_DEVICE_TYPES,
  OVULATION_RESULTS,
  PACKAGE_SOURCES,
  PROTECTIONS,
  RECORDING_METHOD_MANUAL_ENTRY,
  RECORDING_METHODS,
  RELATIONS_TO_MEAL,
  SKIN_TEMPERATURE_LOCATIONS,
  SLEEP_STAGES,
  SPECIMEN_SOURCES,
  TEMPERATURE_LOCATIONS,
  VO2_MAX_METHODS,
} from "./vocabulary.ts";

export type JsonObject = Record<string, unknown>;

export const isObject = (value: unknown): value is JsonObject =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const finite = (value: unknown): value is number => typeof value === "number" && Number.isFinite(value);

/** A record that cannot be stored: why (naming fields, never quoting a value) and as what. */
class Reject extends Error {
  readonly recordKind: string;
  constructor(recordKind: string, reason: string) {
    super(reason);
    this.recordKind = recordKind;
  }
}

// ---------------------------------------------------------------------------------------
// Times and zone offsets.

const INSTANT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(Z|z|[+-]\d{2}(?::?\d{2}){0,2})$/;

/**
 * An instant as java.time.Instant (or OffsetDateTime) prints it: ISO-8601 with `Z` or an
 * offset (a time without a zone is refused: it would be read in the server's zone), or epoch
 * milliseconds as a number.
 */
export function parseInstant(raw: unknown): Date | null {
  if (typeof raw === "number") {
    if (!Number.isFinite(raw) || Math.abs(raw) > 8.64e15) return null;
    return new Date(raw);
  }
  if (typeof raw !== "string" || raw.length > 64) return null;
  const m = INSTANT.exec(raw);
  if (!m) return null;
  const [, y, mo, d, h, mi, s, frac, zone] = m;
  const ms = frac ? Number(frac.padEnd(3, "0").slice(0, 3)) : 0;
  const utc = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s ?? "0"), ms);
  // Date.UTC rolls over (month 13, hour 25): such a string is not a time.
  const check = new Date(utc);
  if (
    check.getUTCFullYear() !== Number(y) ||
    check.getUTCMonth() !== Number(mo) - 1 ||
    check.getUTCDate() !== Number(d) ||
    Number(h) > 23 ||
    Number(mi) > 59 ||
    Number(s ?? "0") > 59
  ) {
    return null;
  }
  const offset = zone === undefined ? null : offsetMinutes(zone);
  if (offset === null) return null;
  return new Date(utc - offset * 60_000);
}

function offsetMinutes(zone: string): number | null {
  if (zone === "Z" || zone === "z") return 0;
  const m = /^([+-])(\d{2}):?(\d{2})?(?::?(\d{2}))?$/.exec(zone);
  if (!m) return null;
  const hours = Number(m[2]);
  const minutes = Number(m[3] ?? "0");
  if (hours > 18 || minutes > 59) return null;
  return (m[1] === "-" ? -1 : 1) * (hours * 60 + minutes);
}

/**
 * java.time.ZoneOffset as `±hh:mm` (also `Z`, `±hh`, `±hhmm`, `±hh:mm:ss`, or its total
 * seconds as a number); null when missing or unreadable (the zone is optional).
 */
export function parseZoneOffset(raw: unknown): string | null {
  let minutes: number | null = null;
  if (typeof raw === "number" && Number.isInteger(raw) && Math.abs(raw) <= 18 * 3600) minutes = Math.trunc(raw / 60);
  else if (typeof raw === "string" && raw.length <= 16) minutes = offsetMinutes(raw.trim());
  else if (isObject(raw) && typeof raw.totalSeconds === "number") return parseZoneOffset(raw.totalSeconds);
  if (minutes === null) return null;
  const sign = minutes < 0 ? "-" : "+";
  const abs = Math.abs(minutes);
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
}

// ---------------------------------------------------------------------------------------
// Provenance.

export interface Provenance {
  external_id: string | null;
  source: string | null;
  device: string | null;
  on_body: boolean;
  source_name: string | null;
  source_bundle_id: string | null;
  device_model: string | null;
  was_user_entered: boolean;
  metadata: JsonObject;
}

const SHORT_TEXT = 200;
const text = (value: unknown, max = SHORT_TEXT): string | null =>
  typeof value === "string" && value.trim() !== "" ? value.trim().slice(0, max) : null;

/** The vendor slug: the device's manufacturer when svc knows it, else the app that wrote the record. */
export function sourceOf(manufacturer: string | null, packageName: string | null): string | null {
  if (manufacturer) {
    const name = manufacturer.toLowerCase();
    for (const [pattern, slug] of MANUFACTURER_SOURCES) if (pattern.test(name)) return slug;
  }
  if (packageName && Object.hasOwn(PACKAGE_SOURCES, packageName)) return PACKAGE_SOURCES[packageName] ?? null;
  return null;
}

function enumName(table: Readonly<Record<number, string>>, raw: unknown): string | undefined {
  if (typeof raw === "number" && Number.isInteger(raw)) return Object.hasOwn(table, raw) ? table[raw] : `unknown_${raw}`;
  if (typeof raw === "string" && /^[A-Za-z_]{1,40}$/.test(raw)) return raw.toLowerCase();
  return undefined;
}

export function provenanceOf(recordType: string, record: JsonObject): Provenance {
  const meta = isObject(record.metadata) ? record.metadata : {};
  const origin = meta.dataOrigin;
  const packageName = text(isObject(origin) ? origin.packageName : origin);
  const device = isObject(meta.device) ? meta.device : {};
  const manufacturer = text(device.manufacturer);
  const model = text(device.model);
  const deviceType = typeof device.type === "number" && Number.isInteger(device.type) ? device.type : null;
  const recordingMethod = typeof meta.recordingMethod === "number" && Number.isInteger(meta.recordingMethod) ? meta.recordingMethod : null;
  const metadata: JsonObject = { record_type: recordType };
  if (packageName) metadata.data_origin = packageName;
  if (manufacturer) metadata.device_manufacturer = manufacturer;
  if (deviceType !== null) metadata.device_type = DEVICE_TYPES[deviceType] ?? `unknown_${deviceType}`;
  if (recordingMethod !== null) metadata.recording_method = RECORDING_METHODS[recordingMethod] ?? `unknown_${recordingMethod}`;
  const clientRecordId = text(meta.clientRecordId);
  if (clientRecordId) metadata.client_record_id = clientRecordId;
  if (finite(meta.clientRecordVersion)) metadata.client_record_version = meta.clientRecordVersion;
  const lastModified = parseInstant(meta.lastModifiedTime);
  if (lastModified) metadata.last_modified_time = lastModified.toISOString();
  return {
    external_id: text(meta.id),
    source: sourceOf(manufacturer, packageName),
    device: model,
    on_body: deviceType !== null && ON_BODY_DEVICE_TYPES.has(deviceType),
    source_name: packageName,
    source_bundle_id: packageName,
    device_model: model,
    was_user_entered: recordingMethod === RECORDING_METHOD_MANUAL_ENTRY,
    metadata,
  };
}

// ---------------------------------------------------------------------------------------
// The record types.

interface Ctx {
  recordType: string;
  record: JsonObject;
  locator: string;
  prov: Provenance;
  out: ParsedRecords;
}

interface Interval {
  start: Date;
  end: Date;
  timezone: string | null;
}

function interval(ctx: Ctx, kind: string): Interval {
  const start = parseInstant(ctx.record.startTime);
  const end = parseInstant(ctx.record.endTime);
  if (!start) throw new Reject(kind, "startTime is missing or not an ISO-8601 instant with a zone");
  if (!end) throw new Reject(kind, "endTime is missing or not an ISO-8601 instant with a zone");
  if (end < start) throw new Reject(kind, "endTime is before startTime");
  return { start, end, timezone: parseZoneOffset(ctx.record.startZoneOffset) ?? parseZoneOffset(ctx.record.endZoneOffset) };
}

function instant(ctx: Ctx, kind: string): Interval {
  const time = parseInstant(ctx.record.time);
  if (!time) throw new Reject(kind, "time is missing or not an ISO-8601 instant with a zone");
  return { start: time, end: time, timezone: parseZoneOffset(ctx.record.zoneOffset) };
}

function measurement(raw: unknown, kind: UnitKind, field: string, recordKind: string, required: true): Measurement;
function measurement(raw: unknown, kind: UnitKind, field: string, recordKind: string, required: false): Measurement | undefined;
function measurement(raw: unknown, kind: UnitKind, field: string, recordKind: string, required: boolean): Measurement | undefined {
  const m = readMeasurement(raw, kind, field);
  if (m === undefined) {
    if (required) throw new Reject(recordKind, `${field} is missing`);
    return undefined;
  }
  if ("error" in m) throw new Reject(recordKind, m.error);
  return m;
}

function number(raw: unknown, field: string, recordKind: string, required: true): number;
function number(raw: unknown, field: string, recordKind: string, required: false): number | undefined;
function number(raw: unknown, field: string, recordKind: string, required: boolean): number | undefined {
  if (raw === undefined || raw === null) {
    if (required) throw new Reject(recordKind, `${field} is missing`);
    return undefined;
  }
  if (!finite(raw)) throw new Reject(recordKind, `${field} is not a finite number`);
  return raw;
}

function integer(raw: unknown, field: string, recordKind: string, fallback: number): number {
  if (raw === undefined || raw === null) return fallback;
  if (typeof raw !== "number" || !Number.isInteger(raw)) throw new Reject(recordKind, `${field} is not an integer`);
  return raw;
}

function list(raw: unknown, field: string, recordKind: string): unknown[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) throw new Reject(recordKind, `${field} is not a list`);
  return raw;
}

function quantity(
  ctx: Ctx,
  type: string,
  value: number,
  unit: string,
  when: Interval,
  extra: { external_id?: string | null; metadata?: JsonObject; locator?: string } = {},
): void {
  const { metadata, ...prov } = ctx.prov;
  const sample: QuantitySampleRecord = {
    type,
    value,
    unit,
    start_date: when.start,
    end_date: when.end,
    ...prov,
    external_id: extra.external_id === undefined ? prov.external_id : extra.external_id,
    timezone: when.timezone,
    metadata: { ...metadata, ...extra.metadata },
    locator: extra.locator ?? ctx.locator,
  };
  ctx.out.quantitySamples.push(sample);
}

function category(ctx: Ctx, type: string, value: string, when: Interval, metadata: JsonObject = {}): void {
  const { metadata: base, ...prov } = ctx.prov;
  const sample: CategorySampleRecord = {
    type,
    value,
    start_date: when.start,
    end_date: when.end,
    source: prov.source,
    device: prov.device,
    on_body: prov.on_body,
    source_name: prov.source_name,
    source_bundle_id: prov.source_bundle_id,
    device_model: prov.device_model,
    external_id: prov.external_id,
    was_user_entered: prov.was_user_entered,
    timezone: when.timezone,
    metadata: { ...base, ...metadata },
    locator: ctx.locator,
  };
  ctx.out.categorySamples.push(sample);
}

/** A sample of a series record: its own time, and an id of its own (`<record id>#<time>`). */
function seriesId(ctx: Ctx, time: Date): string | null {
  return ctx.prov.external_id === null ? null : `${ctx.prov.external_id}#${time.toISOString()}`;
}

/**
 * The samples of a series record (HeartRate, Speed, Power, StepsCadence, ...), each an
 * instant. A sample that cannot be read is rejected on its own; the others are kept.
 */
function series(
  ctx: Ctx,
  field: string,
  read: (sample: JsonObject, index: number) => { type: string; value: number; unit: string; time: Date; metadata?: JsonObject },
): void {
  const when = interval(ctx, "quantity_sample");
  list(ctx.record[field], field, "quantity_sample").forEach((raw, i) => {
    const locator = `${ctx.locator}, ${field}[${i}]`;
    try {
      if (!isObject(raw)) throw new Reject("quantity_sample", `${field}[${i}] is not an object`);
      const s = read(raw, i);
      const at: Interval = { start: s.time, end: s.time, timezone: when.timezone };
      quantity(ctx, s.type, s.value, s.unit, at, { external_id: seriesId(ctx, s.time), locator, ...(s.metadata && { metadata: s.metadata }) });
    } catch (error) {
      if (!(error instanceof Reject)) throw error;
      ctx.out.rejected.push({ recordKind: error.recordKind, locator, reason: error.message });
    }
  });
}

function sampleTime(sample: JsonObject, field: string, i: number): Date {
  const time = parseInstant(sample.time);
  if (!time) throw new Reject("quantity_sample", `${field}[${i}].time is missing or not an ISO-8601 instant with a zone`);
  return time;
}

/** An instantaneous record with one unit value stored as one quantity sample. */
const single =
  (type: string, field: string, kind: UnitKind, metadataOf?: (record: JsonObject) => JsonObject) =>
  (ctx: Ctx): void => {
    const when = instant(ctx, "quantity_sample");
    const m = measurement(ctx.record[field], kind, field, "quantity_sample", true);
    quantity(ctx, type, m.value, m.unit, when, { metadata: metadataOf?.(ctx.record) ?? {} });
  };

/** An interval record with one unit value stored as one quantity sample. */
const total =
  (type: string, field: string, kind: UnitKind) =>
  (ctx: Ctx): void => {
    const when = interval(ctx, "quantity_sample");
    const m = measurement(ctx.record[field], kind, field, "quantity_sample", true);
    quantity(ctx, type, m.value, m.unit, when);
  };

/** An interval record with a plain number. */
const count =
  (type: string, field: string, unit: string) =>
  (ctx: Ctx): void => {
    const when = interval(ctx, "quantity_sample");
    quantity(ctx, type, number(ctx.record[field], field, "quantity_sample", true), unit, when);
  };

/** An instantaneous record with a plain number. */
const reading =
  (type: string, field: string, unit: string, metadataOf?: (record: JsonObject) => JsonObject) =>
  (ctx: Ctx): void => {
    const when = instant(ctx, "quantity_sample");
    quantity(ctx, type, number(ctx.record[field], field, "quantity_sample", true), unit, when, { metadata: metadataOf?.(ctx.record) ?? {} });
  };

const withEnum = (key: string, table: Readonly<Record<number, string>>, field: string) => (record: JsonObject): JsonObject => {
  const name = enumName(table, record[field]);
  return name === undefined ? {} : { [key]: name };
};

const temperatureLocation = withEnum("measurement_location", TEMPERATURE_LOCATIONS, "measurementLocation");

/** A category sample whose value is an integer constant of the record. */
const enumerated =
  (
    type: string,
    field: string,
    table: Readonly<Record<number, string>>,
    options: { fallback?: number; at: "instant" | "interval"; metadataOf?: (record: JsonObject) => JsonObject },
  ) =>
  (ctx: Ctx): void => {
    const when = options.at === "instant" ? instant(ctx, "category_sample") : interval(ctx, "category_sample");
    const raw = ctx.record[field];
    if ((raw === undefined || raw === null) && options.fallback === undefined) throw new Reject("category_sample", `${field} is missing`);
    const code = integer(raw, field, "category_sample", options.fallback ?? 0);
    const value = table[code];
    if (value === undefined) throw new Reject("category_sample", `${field} is not one of the values svc knows for ${ctx.recordType}`);
    category(ctx, type, value, when, options.metadataOf?.(ctx.record));
  };

const event =
  (type: string, at: "instant" | "interval") =>
  (ctx: Ctx): void => {
    const when = at === "instant" ? instant(ctx, "category_sample") : interval(ctx, "category_sample");
    category(ctx, type, "not_applicable", when);
  };

function heartRate(ctx: Ctx): void {
  series(ctx, "samples", (s, i) => ({
    type: "heart_rate",
    value: number(s.beatsPerMinute, `samples[${i}].beatsPerMinute`, "quantity_sample", true),
    unit: "count/min",
    time: sampleTime(s, "samples", i),
  }));
}

function speed(ctx: Ctx): void {
  series(ctx, "samples", (s, i) => {
    const m = measurement(s.speed, "velocity", `samples[${i}].speed`, "quantity_sample", true);
    // Health Connect does not say what moved; svc keeps a type of its own, in m/s.
    return { type: "speed", value: m.canonical, unit: CANONICAL_UNITS.velocity, time: sampleTime(s, "samples", i) };
  });
}

function power(ctx: Ctx): void {
  series(ctx, "samples", (s, i) => {
    const m = measurement(s.power, "power", `samples[${i}].power`, "quantity_sample", true);
    return { type: "power", value: m.canonical, unit: CANONICAL_UNITS.power, time: sampleTime(s, "samples", i) };
  });
}

function stepsCadence(ctx: Ctx): void {
  series(ctx, "samples", (s, i) => ({
    type: "step_cadence",
    value: number(s.rate, `samples[${i}].rate`, "quantity_sample", true),
    unit: "count/min",
    time: sampleTime(s, "samples", i),
  }));
}

function cyclingCadence(ctx: Ctx): void {
  series(ctx, "samples", (s, i) => ({
    type: "cycling_cadence",
    value: number(s.revolutionsPerMinute, `samples[${i}].revolutionsPerMinute`, "quantity_sample", true),
    unit: "count/min",
    time: sampleTime(s, "samples", i),
  }));
}

function skinTemperature(ctx: Ctx): void {
  const extra: JsonObject = {};
  const baseline = measurement(ctx.record.baseline, "temperature", "baseline", "quantity_sample", false);
  if (baseline) extra.baseline_celsius = baseline.canonical;
  const location = enumName(SKIN_TEMPERATURE_LOCATIONS, ctx.record.measurementLocation);
  if (location) extra.measurement_location = location;
  series(ctx, "deltas", (s, i) => {
    const m = measurement(s.delta, "temperature_delta", `deltas[${i}].delta`, "quantity_sample", true);
    return { type: "skin_temperature_deviation", value: m.value, unit: m.unit, time: sampleTime(s, "deltas", i), metadata: extra };
  });
}

function bloodPressure(ctx: Ctx): void {
  const when = instant(ctx, "quantity_sample");
  const systolic = measurement(ctx.record.systolic, "pressure", "systolic", "quantity_sample", true);
  const diastolic = measurement(ctx.record.diastolic, "pressure", "diastolic", "quantity_sample", true);
  const metadata = {
    ...withEnum("body_position", BODY_POSITIONS, "bodyPosition")(ctx.record),
    ...withEnum("measurement_location", BLOOD_PRESSURE_LOCATIONS, "measurementLocation")(ctx.record),
  };
  quantity(ctx, "blood_pressure_systolic", systolic.value, systolic.unit, when, { metadata });
  quantity(ctx, "blood_pressure_diastolic", diastolic.value, diastolic.unit, when, { metadata });
}

function bloodGlucose(ctx: Ctx): void {
  const when = instant(ctx, "quantity_sample");
  const level = measurement(ctx.record.level, "blood_glucose", "level", "quantity_sample", true);
  const metadata: JsonObject = {
    ...withEnum("specimen_source", SPECIMEN_SOURCES, "specimenSource")(ctx.record),
    ...withEnum("meal_type", { 0: "unknown", ...MEAL_TYPES }, "mealType")(ctx.record),
    ...withEnum("relation_to_meal", RELATIONS_TO_MEAL, "relationToMeal")(ctx.record),
  };
  quantity(ctx, "blood_glucose", level.value, level.unit, when, { metadata });
}

function basalMetabolicRate(ctx: Ctx): void {
  const when = instant(ctx, "quantity_sample");
  const m = measurement(ctx.record.basalMetabolicRate, "power", "basalMetabolicRate", "quantity_sample", true);
  // A rate, not an amount burned: a type of its own (outside the catalog) in kcal/d.
  quantity(ctx, "basal_metabolic_rate", m.canonical / (4184 / 86_400), "kcal/d", when);
}

function elevationGained(ctx: Ctx): void {
  const when = interval(ctx, "quantity_sample");
  const m = measurement(ctx.record.elevation, "length", "elevation", "quantity_sample", true);
  quantity(ctx, "elevation_gained", m.canonical, CANONICAL_UNITS.length, when);
}

function cervicalMucus(ctx: Ctx): void {
  const when = instant(ctx, "category_sample");
  const appearance = integer(ctx.record.appearance, "appearance", "category_sample", 0);
  const value = MUCUS_APPEARANCES[appearance];
  if (value === undefined) throw new Reject("category_sample", "appearance is unknown or not one of the values svc knows; cervical_mucus_quality needs one");
  category(ctx, "cervical_mucus_quality", value, when, withEnum("sensation", MUCUS_SENSATIONS, "sensation")(ctx.record));
}

function mindfulness(ctx: Ctx): void {
  enumerated("mindful_session", "mindfulnessSessionType", MINDFULNESS_TYPES, {
    fallback: 0,
    at: "interval",
    metadataOf: (r) => titleAndNotes(r),
  })(ctx);
}

function titleAndNotes(record: JsonObject): JsonObject {
  const out: JsonObject = {};
  const title = text(record.title, 500);
  const notes = text(record.notes, 2000);
  if (title) out.title = title;
  if (notes) out.notes = notes;
  return out;
}

function sleepSession(ctx: Ctx): void {
  const when = interval(ctx, "sleep_session");
  const phases: SleepPhaseRecord[] = [];
  list(ctx.record.stages, "stages", "sleep_session").forEach((raw, i) => {
    if (!isObject(raw)) throw new Reject("sleep_session", `stages[${i}] is not an object`);
    const start = parseInstant(raw.startTime);
    const end = parseInstant(raw.endTime);
    if (!start || !end) throw new Reject("sleep_session", `stages[${i}]: startTime or endTime is missing or not an ISO-8601 instant with a zone`);
    const code = integer(raw.stage, `stages[${i}].stage`, "sleep_session", 0);
    const stage = SLEEP_STAGES[code];
    if (stage === undefined) throw new Reject("sleep_session", `stages[${i}].stage is not a sleep stage svc knows`);
    phases.push({ stage, start_date: start, end_date: end });
  });
  const { metadata, ...prov } = ctx.prov;
  ctx.out.sleepSessions.push({
    kind: "sleep",
    bedtime_start: when.start,
    bedtime_end: when.end,
    timezone: when.timezone,
    source: prov.source,
    device: prov.device,
    on_body: prov.on_body,
    source_name: prov.source_name,
    external_id: prov.external_id,
    metadata: { ...metadata, ...titleAndNotes(ctx.record) },
    locator: ctx.locator,
    phases,
  });
}

function routeOf(record: JsonObject): unknown[] | undefined {
  // ExerciseSessionRecord's constructor takes `exerciseRoute` (ExerciseRoute.Data with a
  // `route` list); the property read back is `exerciseRouteResult` holding `exerciseRoute`.
  const result = isObject(record.exerciseRouteResult) ? record.exerciseRouteResult.exerciseRoute : undefined;
  const route = record.exerciseRoute ?? result;
  if (Array.isArray(route)) return route;
  if (isObject(route) && Array.isArray(route.route)) return route.route;
  return undefined;
}

function routePoint(raw: unknown): RoutePointRecord {
  if (!isObject(raw)) return { timestamp: new Date(Number.NaN), latitude: Number.NaN, longitude: Number.NaN };
  const length = (value: unknown): number | null => {
    const m = readMeasurement(value, "length", "point");
    return m === undefined || "error" in m ? null : m.canonical;
  };
  return {
    timestamp: parseInstant(raw.time) ?? new Date(Number.NaN),
    latitude: finite(raw.latitude) ? raw.latitude : Number.NaN,
    longitude: finite(raw.longitude) ? raw.longitude : Number.NaN,
    altitude: length(raw.altitude),
    accuracy: length(raw.horizontalAccuracy),
  };
}

function exerciseSession(ctx: Ctx): void {
  const when = interval(ctx, "workout");
  const code = integer(ctx.record.exerciseType, "exerciseType", "workout", 0);
  const [hcName, activity] = EXERCISE_TYPES[code] ?? [undefined, "other"];
  const metadata: JsonObject = { ...ctx.prov.metadata, exercise_type: code, ...(hcName && { exercise_type_name: hcName }), ...titleAndNotes(ctx.record) };
  const segments = list(ctx.record.segments, "segments", "workout");
  if (segments.length > 0) metadata.segments = segments.filter(isObject).map(segmentSummary);
  const laps = list(ctx.record.laps, "laps", "workout");
  if (laps.length > 0) metadata.laps = laps.filter(isObject).map(lapSummary);
  if (finite(ctx.record.rateOfPerceivedExertion)) metadata.rate_of_perceived_exertion = ctx.record.rateOfPerceivedExertion;
  const plannedId = text(ctx.record.plannedExerciseSessionId);
  if (plannedId) metadata.planned_exercise_session_id = plannedId;
  const route = routeOf(ctx.record);
  const prov = ctx.prov;
  const workout: WorkoutRecord = {
    activity_type: activity,
    name: text(ctx.record.title, 500),
    start_date: when.start,
    end_date: when.end,
    timezone: when.timezone,
    source: prov.source,
    device: prov.device,
    on_body: prov.on_body,
    source_name: prov.source_name,
    external_id: prov.external_id,
    metadata,
    locator: ctx.locator,
    ...(route !== undefined && { route: route.map(routePoint) }),
  };
  ctx.out.workouts.push(workout);
}

function segmentSummary(segment: JsonObject): JsonObject {
  const out: JsonObject = {};
  const start = parseInstant(segment.startTime);
  const end = parseInstant(segment.endTime);
  if (start) out.start = start.toISOString();
  if (end) out.end = end.toISOString();
  if (typeof segment.segmentType === "number") out.segment_type = segment.segmentType;
  if (finite(segment.repetitions)) out.repetitions = segment.repetitions;
  if (finite(segment.setIndex)) out.set_index = segment.setIndex;
  const weight = readMeasurement(segment.weight, "mass", "weight");
  if (weight !== undefined && !("error" in weight)) out.weight_kg = weight.canonical / 1000;
  return out;
}

function lapSummary(lap: JsonObject): JsonObject {
  const out: JsonObject = {};
  const start = parseInstant(lap.startTime);
  const end = parseInstant(lap.endTime);
  if (start) out.start = start.toISOString();
  if (end) out.end = end.toISOString();
  const length = readMeasurement(lap.length, "length", "length");
  if (length !== undefined && !("error" in length)) out.length_meters = length.canonical;
  return out;
}

/**
 * NutritionRecord's nutrients: the writer's named amounts, and the others in `nutrients`
 * by snake_case name, masses in mg (fats in g), energies in kcal.
 */
/** Nutrient field → the writer's named amount and its factor from grams. */
const NAMED_NUTRIENTS = {
  protein: ["protein_grams", 1],
  totalCarbohydrate: ["carbohydrates_grams", 1],
  totalFat: ["fat_grams", 1],
  dietaryFiber: ["fiber_grams", 1],
  sugar: ["sugar_grams", 1],
  sodium: ["sodium_milligrams", 1000],
} as const;

const OTHER_NUTRIENTS: Readonly<Record<string, readonly [string, "g" | "mg"]>> = {
  biotin: ["biotin", "mg"],
  caffeine: ["caffeine", "mg"],
  calcium: ["calcium", "mg"],
  chloride: ["chloride", "mg"],
  cholesterol: ["cholesterol", "mg"],
  chromium: ["chromium", "mg"],
  copper: ["copper", "mg"],
  folate: ["folate", "mg"],
  folicAcid: ["folic_acid", "mg"],
  iodine: ["iodine", "mg"],
  iron: ["iron", "mg"],
  magnesium: ["magnesium", "mg"],
  manganese: ["manganese", "mg"],
  molybdenum: ["molybdenum", "mg"],
  monounsaturatedFat: ["monounsaturated_fat", "g"],
  niacin: ["niacin", "mg"],
  pantothenicAcid: ["pantothenic_acid", "mg"],
  phosphorus: ["phosphorus", "mg"],
  polyunsaturatedFat: ["polyunsaturated_fat", "g"],
  potassium: ["potassium", "mg"],
  riboflavin: ["riboflavin", "mg"],
  saturatedFat: ["saturated_fat", "g"],
  selenium: ["selenium", "mg"],
  thiamin: ["thiamin", "mg"],
  transFat: ["trans_fat", "g"],
  unsaturatedFat: ["unsaturated_fat", "g"],
  vitaminA: ["vitamin_a", "mg"],
  vitaminB12: ["vitamin_b12", "mg"],
  vitaminB6: ["vitamin_b6", "mg"],
  vitaminC: ["vitamin_c", "mg"],
  vitaminD: ["vitamin_d", "mg"],
  vitaminE: ["vitamin_e", "mg"],
  vitaminK: ["vitamin_k", "mg"],
  zinc: ["zinc", "mg"],
};

function nutrition(ctx: Ctx): void {
  const when = interval(ctx, "nutrition_log");
  const { metadata, ...prov } = ctx.prov;
  const log: NutritionLogRecord = {
    start_date: when.start,
    end_date: when.end,
    timezone: when.timezone,
    source: prov.source,
    device: prov.device,
    on_body: prov.on_body,
    source_name: prov.source_name,
    external_id: prov.external_id,
    metadata,
    locator: ctx.locator,
    name: text(ctx.record.name, 500),
  };
  // An int (MealType.MEAL_TYPE_*); early Health Connect versions had the name as a string.
  const rawMeal = ctx.record.mealType;
  const mealName = typeof rawMeal === "string" ? rawMeal.toLowerCase() : undefined;
  log.meal_type =
    mealName !== undefined
      ? Object.values(MEAL_TYPES).includes(mealName) ? mealName : null
      : (MEAL_TYPES[integer(rawMeal, "mealType", "nutrition_log", 0)] ?? null);
  const energy = measurement(ctx.record.energy, "energy", "energy", "nutrition_log", false);
  if (energy) log.energy_kcal = energy.canonical;
  for (const [field, [name, factor]] of Object.entries(NAMED_NUTRIENTS)) {
    const m = measurement(ctx.record[field], "mass", field, "nutrition_log", false);
    if (m) log[name] = m.canonical * factor;
  }
  const nutrients: Record<string, { value: number; unit: string }> = {};
  for (const [field, [name, unit]] of Object.entries(OTHER_NUTRIENTS)) {
    const m = measurement(ctx.record[field], "mass", field, "nutrition_log", false);
    if (m) nutrients[name] = { value: unit === "g" ? m.canonical : m.canonical * 1000, unit };
  }
  const fromFat = measurement(ctx.record.energyFromFat, "energy", "energyFromFat", "nutrition_log", false);
  if (fromFat) nutrients.energy_from_fat = { value: fromFat.canonical, unit: "kcal" };
  if (Object.keys(nutrients).length > 0) log.nutrients = nutrients;
  ctx.out.nutritionLogs.push(log);
}

type Handler = (ctx: Ctx) => void;

/** Health Connect record types (the class name without `Record`) and how each is stored. */
const HANDLERS: Readonly<Record<string, Handler>> = {
  Steps: count("step_count", "count", "count"),
  HeartRate: heartRate,
  SleepSession: sleepSession,
  ExerciseSession: exerciseSession,
  Weight: single("body_mass", "weight", "mass"),
  Height: single("height", "height", "length"),
  BodyFat: single("body_fat_percentage", "percentage", "percentage"),
  BloodPressure: bloodPressure,
  OxygenSaturation: single("oxygen_saturation", "percentage", "percentage"),
  RestingHeartRate: reading("resting_heart_rate", "beatsPerMinute", "count/min"),
  HeartRateVariabilityRmssd: reading("hrv_rmssd", "heartRateVariabilityMillis", "ms"),
  RespiratoryRate: reading("respiratory_rate", "rate", "count/min"),
  BodyTemperature: single("body_temperature", "temperature", "temperature", temperatureLocation),
  BasalBodyTemperature: single("basal_body_temperature", "temperature", "temperature", temperatureLocation),
  BloodGlucose: bloodGlucose,
  Vo2Max: reading("vo2_max", "vo2MillilitersPerMinuteKilogram", "mL/min/kg", withEnum("measurement_method", VO2_MAX_METHODS, "measurementMethod")),
  Distance: total("distance_walking_running", "distance", "length"),
  ActiveCaloriesBurned: total("active_energy_burned", "energy", "energy"),
  TotalCaloriesBurned: total("total_energy_burned", "energy", "energy"),
  FloorsClimbed: count("flights_climbed", "floors", "count"),
  ElevationGained: elevationGained,
  Hydration: total("dietary_water", "volume", "volume"),
  Nutrition: nutrition,
  MenstruationFlow: enumerated("menstrual_flow", "flow", FLOWS, { fallback: 0, at: "instant" }),
  MenstruationPeriod: event("menstruation_period", "interval"),
  CervicalMucus: cervicalMucus,
  OvulationTest: enumerated("ovulation_test_result", "result", OVULATION_RESULTS, { at: "instant" }),
  SexualActivity: enumerated("sexual_activity", "protectionUsed", PROTECTIONS, { fallback: 0, at: "instant" }),
  IntermenstrualBleeding: event("intermenstrual_bleeding", "instant"),
  Speed: speed,
  Power: power,
  StepsCadence: stepsCadence,
  CyclingPedalingCadence: cyclingCadence,
  WheelchairPushes: count("push_count", "count", "count"),
  BasalMetabolicRate: basalMetabolicRate,
  LeanBodyMass: single("lean_body_mass", "mass", "mass"),
  BoneMass: single("bone_mass", "mass", "mass"),
  BodyWaterMass: single("body_water_mass", "mass", "mass"),
  SkinTemperature: skinTemperature,
  MindfulnessSession: mindfulness,
};

export const RECORD_TYPES: readonly string[] = Object.keys(HANDLERS);

/** `Steps` or `StepsRecord` → `Steps`; undefined for a type svc does not read. */
export function recordTypeName(raw: string): string | undefined {
  const name = raw.endsWith("Record") ? raw.slice(0, -"Record".length) : raw;
  return Object.hasOwn(HANDLERS, name) ? name : undefined;
}

/**
 * Adds one record's output to `out`, or one rejected record when it cannot be read. Never
 * throws on any input.
 */
export function mapRecord(recordType: string, record: JsonObject, locator: string, out: ParsedRecords): void {
  const handler = HANDLERS[recordType];
  if (!handler) return;
  const ctx: Ctx = { recordType, record, locator, prov: provenanceOf(recordType, record), out };
  // A record is added whole or not at all (series samples are rejected one by one).
  const mark = marks(out);
  try {
    handler(ctx);
  } catch (error) {
    rollback(out, mark);
    const reject = error instanceof Reject ? error : new Reject("health_connect_record", "the record could not be read");
    out.rejected.push({ recordKind: reject.recordKind, locator, reason: reject.message });
  }
}

type Marks = Record<RecordListName, number> & { rejected: number };

function marks(out: ParsedRecords): Marks {
  return {
    quantitySamples: out.quantitySamples.length,
    categorySamples: out.categorySamples.length,
    sleepSessions: out.sleepSessions.length,
    workouts: out.workouts.length,
    nutritionLogs: out.nutritionLogs.length,
    dailySummaries: out.dailySummaries.length,
    heartbeatSeries: out.heartbeatSeries.length,
    ecgRecordings: out.ecgRecordings.length,
    rejected: out.rejected.length,
  };
}

function rollback(out: ParsedRecords, mark: Marks): void {
  out.quantitySamples.length = mark.quantitySamples;
  out.categorySamples.length = mark.categorySamples;
  out.sleepSessions.length = mark.sleepSessions;
  out.workouts.length = mark.workouts;
  out.nutritionLogs.length = mark.nutritionLogs;
  out.dailySummaries.length = mark.dailySummaries;
  out.heartbeatSeries.length = mark.heartbeatSeries;
  out.ecgRecordings.length = mark.ecgRecordings;
  out.rejected.length = mark.rejected;
}
