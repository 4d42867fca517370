// Apple Health NDJSON: one JSON object per line, each a HealthKit object as a device SDK
// reads it (the format is described in docs/reference/upload-formats.md, "Apple Health NDJSON").

import type { EcgRecordingRecord, HeartbeatSeriesRecord, RoutePointRecord } from "@svc/core";
import {
  BLOOD_PRESSURE,
  categoryMappingOf,
  ecgClassificationOf,
  ecgLeadOf,
  FOOD,
  metadataBoolean,
  workoutActivityTypeOf,
} from "./healthkit-types.ts";
import { baseProvenance, metadataTimeZone, parseRfc3339, type HkDevice, type HkProvenance } from "./provenance.ts";
import { AppleHealthRecords, type AppleHealthParsedRecords, type AppleHealthParseOptions, type HkWorkoutStatistic } from "./records.ts";

export const APPLE_HEALTH_LINE_KINDS = ["quantity", "category", "workout", "correlation", "ecg", "heartbeat_series", "deleted"] as const;
export type AppleHealthLineKind = (typeof APPLE_HEALTH_LINE_KINDS)[number];

type Json = Record<string, unknown>;

const MAX_ID = 128;
const MAX_NAME = 256;
const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);
const isKind = (value: unknown): value is AppleHealthLineKind => typeof value === "string" && (APPLE_HEALTH_LINE_KINDS as readonly string[]).includes(value);
const text = (value: unknown, max = MAX_NAME): string | null => (typeof value === "string" && value.trim() !== "" && value.length <= max ? value : null);
const finite = (value: unknown): number | undefined => (typeof value === "number" && Number.isFinite(value) ? value : undefined);

/** A line's structure: a JSON object with kind, type and start (deleted: uuid instead of start); or why not. */
function structure(line: string): { object: Json & { kind: AppleHealthLineKind; type: string } } | { reason: string } {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { reason: "not valid JSON" };
  }
  if (!isObject(value)) return { reason: "not a JSON object" };
  if (!isKind(value.kind)) return { reason: `kind must be one of ${APPLE_HEALTH_LINE_KINDS.join(", ")}` };
  if (text(value.type) === null) return { reason: "type (a HealthKit type identifier) is missing" };
  if (value.kind === "deleted") {
    if (text(value.uuid, MAX_ID) === null) return { reason: "a deleted line needs the uuid of the deleted object" };
  } else if (parseRfc3339(value.start) === null) {
    return { reason: "start is missing or not an RFC 3339 time" };
  }
  return { object: value as Json & { kind: AppleHealthLineKind; type: string } };
}

/**
 * Structural check of one NDJSON line for the upload route: null when the line is a JSON
 * object with a known kind, a type and an RFC 3339 start (a `deleted` line: a uuid instead
 * of start), or a blank line; else a message naming the line (never quoting its content).
 */
export function checkAppleHealthLine(line: string, lineNumber: number): string | null {
  const content = lineNumber === 1 ? line.replace(/^\uFEFF/, "") : line;
  if (content.trim() === "") return null;
  const result = structure(content);
  return "reason" in result ? `line ${lineNumber}: ${result.reason}` : null;
}

/**
 * Parses Apple Health NDJSON lines into batches of records (about `batchSize` each), so an
 * upload of any length is never held at once. Sleep analysis samples are kept until the end
 * and given as sessions in the last batches. A line that cannot be read becomes a rejection
 * naming it; this never throws for a line's content.
 */
export async function* parseAppleHealthNdjson(
  lines: AsyncIterable<string>,
  options: AppleHealthParseOptions = {},
): AsyncGenerator<AppleHealthParsedRecords> {
  const records = new AppleHealthRecords(options);
  let lineNumber = 0;
  for await (const raw of lines) {
    lineNumber++;
    readLine(records, raw, lineNumber);
    if (records.full) yield records.take();
  }
  yield* records.finish();
}

function readLine(records: AppleHealthRecords, raw: string, lineNumber: number): void {
  const locator = `line ${lineNumber}`;
  let line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
  if (lineNumber === 1) line = line.replace(/^\uFEFF/, "");
  if (line.trim() === "") return;
  const result = structure(line);
  if ("reason" in result) {
    records.reject("apple_health_line", locator, result.reason);
    return;
  }
  try {
    readObject(records, result.object, locator);
  } catch {
    // A safety net: one unreadable line must not end an upload of a million.
    records.reject(result.object.kind, locator, "the line could not be read");
  }
}

/** Provenance of a line, or why its shared fields are unusable. */
function provenanceOf(o: Json, locator: string, inherited?: HkProvenance): HkProvenance | { reason: string } {
  if (o.metadata !== undefined && o.metadata !== null && !isObject(o.metadata)) return { reason: "metadata is not an object" };
  const metadata: Json = isObject(o.metadata) ? { ...inherited?.metadata, ...o.metadata } : { ...inherited?.metadata };
  const source = isObject(o.source) ? o.source : undefined;
  const device = isObject(o.device) ? deviceOf(o.device) : null;
  const zone = metadataTimeZone(metadata) ?? text(o.timezone, 64) ?? inherited?.timezone ?? null;
  return {
    uuid: text(o.uuid, MAX_ID),
    sourceName: text(source?.name) ?? inherited?.sourceName ?? null,
    bundleId: text(source?.bundle_id) ?? inherited?.bundleId ?? null,
    device: device ?? inherited?.device ?? null,
    metadata,
    timezone: zone,
    wasUserEntered: o.was_user_entered === true || metadataBoolean(metadata.HKWasUserEntered) === true || (o.was_user_entered === undefined && inherited?.wasUserEntered === true),
    locator,
  };
}

function deviceOf(d: Json): HkDevice | null {
  const device = {
    name: text(d.name),
    manufacturer: text(d.manufacturer),
    model: text(d.model),
    hardware: text(d.hardware_version) ?? text(d.hardware),
    software: text(d.software_version) ?? text(d.software),
  };
  return device.name || device.manufacturer || device.model || device.hardware ? device : null;
}

/** start and end (end defaults to start), or why not. */
function timesOf(o: Json, fallbackStart?: Date): { start: Date; end: Date } | { reason: string } {
  const start = o.start === undefined && fallbackStart ? fallbackStart : parseRfc3339(o.start);
  if (!start) return { reason: "start is missing or not an RFC 3339 time" };
  if (o.end === undefined || o.end === null) return { start, end: start };
  const end = parseRfc3339(o.end);
  if (!end) return { reason: "end is not an RFC 3339 time" };
  if (end < start) return { reason: "end is before start" };
  return { start, end };
}

function readObject(records: AppleHealthRecords, o: Json & { kind: AppleHealthLineKind; type: string }, locator: string): void {
  const kindName = RECORD_KIND[o.kind];
  if (o.kind === "deleted") {
    records.deleted(text(o.uuid, MAX_ID) ?? "");
    return;
  }
  const provenance = provenanceOf(o, locator);
  if ("reason" in provenance) return records.reject(kindName, locator, provenance.reason);
  const times = timesOf(o);
  if ("reason" in times) return records.reject(kindName, locator, times.reason);
  const { start, end } = times;
  switch (o.kind) {
    case "quantity":
      records.quantity({ type: o.type, value: o.value, unit: typeof o.unit === "string" ? o.unit : undefined, start, end, provenance });
      return;
    case "category":
      records.category({ type: o.type, value: o.value, start, end, provenance });
      return;
    case "correlation":
      return correlation(records, o, provenance, start);
    case "workout":
      return workout(records, o, provenance, start, end);
    case "ecg":
      return ecg(records, o, provenance, start, end);
    case "heartbeat_series":
      return heartbeatSeries(records, o, provenance, start, end);
  }
}

const RECORD_KIND: Record<AppleHealthLineKind, string> = {
  quantity: "quantity_sample",
  category: "category_sample",
  workout: "workout",
  correlation: "quantity_sample",
  ecg: "ecg_recording",
  heartbeat_series: "heartbeat_series",
  deleted: "tombstone",
};

/**
 * A blood pressure (or food) correlation: its quantity samples in `objects`, each with its
 * own uuid, given once even when the same samples also come as quantity lines.
 */
function correlation(records: AppleHealthRecords, o: Json, p: HkProvenance, start: Date): void {
  if (o.type !== BLOOD_PRESSURE && o.type !== FOOD) {
    records.unknownType("quantity_sample", String(o.type), p.locator);
    return;
  }
  if (!Array.isArray(o.objects)) {
    records.reject("quantity_sample", p.locator, "a correlation needs objects: its quantity samples");
    return;
  }
  // The correlation's own uuid is not a sample's: members have their own.
  const shared: HkProvenance = { ...p, uuid: null };
  o.objects.forEach((member: unknown, i) => {
    const locator = `${p.locator}, objects[${i}]`;
    if (!isObject(member) || typeof member.type !== "string") {
      records.reject("quantity_sample", locator, "a correlation object is not a quantity sample with a type");
      return;
    }
    const provenance = provenanceOf(member, locator, shared);
    if ("reason" in provenance) return records.reject("quantity_sample", locator, provenance.reason);
    const times = timesOf(member, start);
    if ("reason" in times) return records.reject("quantity_sample", locator, times.reason);
    records.quantity({
      type: member.type,
      value: member.value,
      unit: typeof member.unit === "string" ? member.unit : undefined,
      ...times,
      provenance,
    });
  });
}

/** A `{value, unit}` amount, or null. */
function amountOf(value: unknown): { value: number; unit: string | undefined } | null {
  if (!isObject(value)) return null;
  const number = finite(value.value);
  if (number === undefined) return null;
  return { value: number, unit: typeof value.unit === "string" ? value.unit : undefined };
}

function workout(records: AppleHealthRecords, o: Json, p: HkProvenance, start: Date, end: Date): void {
  const activityType = workoutActivityTypeOf(o.activity_type);
  if (activityType === undefined) {
    records.reject("workout", p.locator, "activity_type is not an HKWorkoutActivityType (a name such as running, or its raw value)");
    return;
  }
  const statistics: HkWorkoutStatistic[] = [];
  if (isObject(o.statistics)) {
    for (const [type, s] of Object.entries(o.statistics)) {
      if (!isObject(s)) continue;
      statistics.push({
        type,
        sum: finite(s.sum),
        average: finite(s.average),
        minimum: finite(s.minimum),
        maximum: finite(s.maximum),
        unit: typeof s.unit === "string" ? s.unit : undefined,
      });
    }
  }
  let route: RoutePointRecord[] | undefined;
  if (Array.isArray(o.route)) {
    route = [];
    for (const point of o.route as unknown[]) {
      if (!isObject(point)) {
        // Kept as an invalid point: the writer leaves it out and counts it.
        route.push({ timestamp: new Date(NaN), latitude: NaN, longitude: NaN });
        continue;
      }
      route.push({
        timestamp: parseRfc3339(point.timestamp) ?? new Date(NaN),
        latitude: finite(point.latitude) ?? NaN,
        longitude: finite(point.longitude) ?? NaN,
        altitude: finite(point.altitude) ?? null,
        speed: finite(point.speed) ?? null,
        accuracy: finite(point.horizontal_accuracy) ?? null,
      });
    }
  }
  const duration = finite(o.duration);
  records.workout({
    activityType,
    start,
    end,
    durationSeconds: duration !== undefined && duration >= 0 ? duration : null,
    totalDistance: amountOf(o.total_distance),
    totalEnergyBurned: amountOf(o.total_energy_burned),
    statistics,
    route,
    provenance: p,
  });
}

const MICROVOLTS_PER: Readonly<Record<string, number>> = { uV: 1, "µV": 1, mcV: 1, mV: 1000, V: 1_000_000 };

function ecg(records: AppleHealthRecords, o: Json, p: HkProvenance, start: Date, end: Date): void {
  const classification = ecgClassificationOf(o.classification);
  if (classification === undefined) {
    records.reject("ecg_recording", p.locator, "classification is not an HKElectrocardiogram classification");
    return;
  }
  const frequency = finite(o.sampling_frequency);
  if (frequency === undefined || frequency <= 0) {
    records.reject("ecg_recording", p.locator, "sampling_frequency (Hz) is missing or not a number above 0");
    return;
  }
  const unit = o.voltage_unit === undefined ? "uV" : o.voltage_unit;
  const factor = typeof unit === "string" && Object.hasOwn(MICROVOLTS_PER, unit) ? MICROVOLTS_PER[unit] : undefined;
  if (factor === undefined) {
    records.reject("ecg_recording", p.locator, "voltage_unit must be uV, mV or V");
    return;
  }
  if (!Array.isArray(o.voltages) || !o.voltages.every((v: unknown) => finite(v) !== undefined)) {
    records.reject("ecg_recording", p.locator, "voltages is not a list of numbers");
    return;
  }
  const voltages = factor === 1 ? (o.voltages as number[]) : (o.voltages as number[]).map((v) => v * factor);
  const averageHeartRate = finite(o.average_heart_rate) ?? null;
  const symptoms = Array.isArray(o.symptoms)
    ? o.symptoms.filter((s: unknown): s is string => typeof s === "string" && s.length <= 128).map((s) => categoryMappingOf(s)?.type ?? s)
    : undefined;
  const record: EcgRecordingRecord = {
    start_date: start,
    end_date: o.end === undefined ? undefined : end,
    classification,
    average_heart_rate: averageHeartRate,
    sampling_frequency_hz: frequency,
    lead_name: ecgLeadOf(o.lead),
    voltages,
    symptoms,
    ...baseProvenance(p),
  };
  records.ecg(record);
}

function heartbeatSeries(records: AppleHealthRecords, o: Json, p: HkProvenance, start: Date, end: Date): void {
  if (!Array.isArray(o.beats)) {
    records.reject("heartbeat_series", p.locator, "beats is missing: a list of {time_since_start, preceded_by_gap}");
    return;
  }
  const beats: Array<{ timestamp: Date; preceded_by_gap: boolean }> = [];
  for (const beat of o.beats as unknown[]) {
    const seconds = isObject(beat) ? finite(beat.time_since_start) : undefined;
    if (seconds === undefined || seconds < 0 || !isObject(beat)) {
      records.reject("heartbeat_series", p.locator, "a beat's time_since_start is not a number of seconds of at least 0");
      return;
    }
    beats.push({ timestamp: new Date(start.getTime() + Math.round(seconds * 1000)), preceded_by_gap: beat.preceded_by_gap === true });
  }
  const record: HeartbeatSeriesRecord = {
    start_date: start,
    end_date: o.end === undefined ? undefined : end,
    beats,
    ...baseProvenance(p),
  };
  records.heartbeatSeries(record);
}
