// The Bluetooth upload: NDJSON, one standard health characteristic value per line, as a
// phone received it from the device (see docs/reference/upload-formats.md, "Bluetooth GATT NDJSON"):
//
//   {"characteristic": "2a37", "value": "1e5532002100", "received_at": "2025-03-01T07:30:00.250+01:00",
//    "device": "Polar H10 8A1B2C3D", "device_id": "F1:22:33:44:55:66"}
//
// characteristic: the 16-bit UUID in hex (`2a37`, `0x2A37`) or its 128-bit form on the
// Bluetooth base UUID; value: the bytes in hex; received_at: RFC 3339 with an offset (the
// phone's local offset: the device's own timestamps are read in it); device, device_id:
// optional. Other fields are ignored. Blank lines are skipped.

import { emptyParsedRecords, type ParsedRecords } from "../parsed-records.ts";
import { bloodPressureLineRecords, BLOOD_PRESSURE_MEASUREMENT } from "./blood-pressure.ts";
import { bodyCompositionLineRecords, BODY_COMPOSITION_MEASUREMENT } from "./body-composition.ts";
import { hexToBytes, isFailure, type DecodeFailure } from "./bytes.ts";
import { glucoseLineRecords, GLUCOSE_MEASUREMENT } from "./glucose.ts";
import { heartbeatSeriesFrom, type RrLine } from "./heartbeat-series.ts";
import { heartRateLineRecords, HEART_RATE_MEASUREMENT } from "./heart-rate.ts";
import { deviceKey, lineExternalId, type LineContext, type LineRecords } from "./measurement.ts";
import { plxContinuousLineRecords, PLX_CONTINUOUS_MEASUREMENT } from "./plx-continuous.ts";
import { plxSpotCheckLineRecords, PLX_SPOT_CHECK_MEASUREMENT } from "./plx-spot-check.ts";
import { temperatureLineRecords, TEMPERATURE_MEASUREMENT } from "./temperature.ts";
import { weightLineRecords, WEIGHT_MEASUREMENT } from "./weight.ts";

interface Characteristic {
  name: string;
  records: (bytes: Uint8Array, ctx: LineContext) => LineRecords | DecodeFailure;
}

const CHARACTERISTICS: ReadonlyMap<number, Characteristic> = new Map([
  [HEART_RATE_MEASUREMENT, { name: "Heart Rate Measurement", records: heartRateLineRecords }],
  [BLOOD_PRESSURE_MEASUREMENT, { name: "Blood Pressure Measurement", records: bloodPressureLineRecords }],
  [WEIGHT_MEASUREMENT, { name: "Weight Measurement", records: weightLineRecords }],
  [BODY_COMPOSITION_MEASUREMENT, { name: "Body Composition Measurement", records: bodyCompositionLineRecords }],
  [TEMPERATURE_MEASUREMENT, { name: "Temperature Measurement", records: temperatureLineRecords }],
  [GLUCOSE_MEASUREMENT, { name: "Glucose Measurement", records: glucoseLineRecords }],
  [PLX_SPOT_CHECK_MEASUREMENT, { name: "PLX Spot-Check Measurement", records: plxSpotCheckLineRecords }],
  [PLX_CONTINUOUS_MEASUREMENT, { name: "PLX Continuous Measurement", records: plxContinuousLineRecords }],
]);

/** The kind of a rejected line (a rejected RR part of a line is a `heartbeat_series`). */
export const BLUETOOTH_RECORD_KIND = "bluetooth_measurement";

/** The ATT maximum length of an attribute value. */
const MAX_VALUE_BYTES = 512;
const MAX_DEVICE_CHARS = 256;

/** One line, checked: the characteristic as a UUID, the value as lower-case hex. */
export interface BluetoothLine {
  /** The 16-bit UUID, or null for a 128-bit UUID outside the Bluetooth base. */
  uuid16: number | null;
  /** As written in reasons and metadata: `0x2A37`, or the 128-bit UUID in lower case. */
  characteristic: string;
  valueHex: string;
  receivedAt: Date;
  offsetMinutes: number | null;
  device: string | null;
  deviceId: string | null;
}

const UUID16 = /^(?:0x)?([0-9a-f]{4})$/i;
const UUID128 = /^([0-9a-f]{8})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{12})$/i;
const BASE_UUID_TAIL = "-0000-1000-8000-00805f9b34fb";
const HEX_BYTES = /^(?:[0-9a-f]{2})+$/i;
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;

/** A line read and checked, or why it is not a Bluetooth upload line (never quoting a value). */
export function readBluetoothLine(text: string): BluetoothLine | DecodeFailure {
  let json: unknown;
  try {
    // A byte order mark may open the upload.
    json = JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch {
    return { problem: "line is not valid JSON" };
  }
  if (typeof json !== "object" || json === null || Array.isArray(json)) return { problem: "line is not a JSON object" };
  const fields = json as Record<string, unknown>;

  if (typeof fields.characteristic !== "string") return { problem: "characteristic is missing or not a string" };
  const characteristic = readUuid(fields.characteristic);
  if (characteristic === null) return { problem: "characteristic is not a 16-bit UUID in hex or a 128-bit UUID" };

  if (typeof fields.value !== "string") return { problem: "value is missing or not a string" };
  if (fields.value === "") return { problem: "value is empty" };
  if (!HEX_BYTES.test(fields.value)) return { problem: "value is not hex digits of whole bytes" };
  if (fields.value.length > 2 * MAX_VALUE_BYTES) return { problem: `value is longer than ${MAX_VALUE_BYTES} bytes` };

  if (typeof fields.received_at !== "string") return { problem: "received_at is missing or not a string" };
  const received = readRfc3339(fields.received_at);
  if (received === null) return { problem: "received_at is not an RFC 3339 time with an offset" };

  const device = readOptionalText(fields.device);
  if (device === undefined) return { problem: `device is not a string of at most ${MAX_DEVICE_CHARS} characters` };
  const deviceId = readOptionalText(fields.device_id);
  if (deviceId === undefined) return { problem: `device_id is not a string of at most ${MAX_DEVICE_CHARS} characters` };

  return {
    ...characteristic,
    valueHex: fields.value.toLowerCase(),
    receivedAt: received.at,
    offsetMinutes: received.offsetMinutes,
    device,
    deviceId,
  };
}

/**
 * Null when the line is structurally a Bluetooth upload line (a JSON object with the
 * required fields, a hex value of whole bytes; or a blank line), else a short reason naming
 * the line, for a 400 before the upload is accepted. Whether the characteristic is supported
 * and the value decodes is left to parseBluetoothUpload.
 */
export function checkBluetoothLine(line: string, lineNumber: number): string | null {
  if (line.trim() === "") return null;
  const read = readBluetoothLine(line);
  return isFailure(read) ? `line ${lineNumber}: ${read.problem}` : null;
}

/**
 * Records from an upload: quantity samples per measurement, and heartbeat series from heart
 * rate straps' RR intervals. A line that is malformed, of an unsupported characteristic, or
 * whose value does not decode or carries nothing to store is a rejected entry (`line N`);
 * a line repeated in the upload (same characteristic, value, time and device) counts once.
 */
export function parseBluetoothUpload(text: string): ParsedRecords {
  return parseBluetoothLines(text.split("\n").map((line, index) => ({ line, number: index + 1 })));
}

/**
 * parseBluetoothUpload over lines already split and numbered (as the upload route's
 * bodyLines gives them). Heartbeat series join lines within one call only.
 */
export function parseBluetoothLines(lines: Iterable<{ line: string; number: number }>): ParsedRecords {
  const parsed = emptyParsedRecords();
  const rrLines: RrLine[] = [];
  const seen = new Set<string>();
  const reject = (lineNumber: number, reason: string, recordKind = BLUETOOTH_RECORD_KIND): void => {
    parsed.rejected.push({ recordKind, locator: `line ${lineNumber}`, reason });
  };

  for (const { line: raw, number: lineNumber } of lines) {
    const line = raw.replace(/\r$/, "");
    if (line.trim() === "") continue;
    const read = readBluetoothLine(line);
    if (isFailure(read)) {
      reject(lineNumber, read.problem);
      continue;
    }

    const characteristic = read.uuid16 === null ? undefined : CHARACTERISTICS.get(read.uuid16);
    if (!characteristic) {
      reject(lineNumber, `characteristic ${read.characteristic} is not supported`);
      continue;
    }
    const label = `${characteristic.name} (${read.characteristic})`;

    const identity = `${read.characteristic}|${read.valueHex}|${read.receivedAt.toISOString()}|${deviceKey(read)}`;
    if (seen.has(identity)) continue;
    seen.add(identity);

    const ctx: LineContext = {
      lineNumber,
      characteristic: read.characteristic,
      valueHex: read.valueHex,
      receivedAt: read.receivedAt,
      offsetMinutes: read.offsetMinutes,
      device: read.device,
      deviceId: read.deviceId,
    };
    const records = characteristic.records(hexToBytes(read.valueHex), ctx);
    if (isFailure(records)) {
      reject(lineNumber, `${label}: ${records.problem}`);
      continue;
    }

    const rr = usableRr(records.rrIntervals);
    // A strap line whose intervals are refused or untrustworthy goes in empty: a break in
    // its device's series, since beats are missing there.
    if (rr.intervals.length > 0 || rr.problem || records.rrBreak) {
      const lineId = lineExternalId(ctx, { at: ctx.receivedAt, source: "received_at" });
      rrLines.push({ ...ctx, lineId, rrIntervals: rr.intervals });
    }
    if (records.samples.length === 0 && rr.intervals.length === 0) {
      reject(lineNumber, `${label}: ${records.refusal ?? rr.problem ?? "carries no value to store (absent or special values only)"}`);
      continue;
    }
    parsed.quantitySamples.push(...records.samples);
    if (rr.problem) reject(lineNumber, `${label}: ${rr.problem}`, "heartbeat_series");
  }

  parsed.heartbeatSeries.push(...heartbeatSeriesFrom(rrLines));
  return parsed;
}

// An RR interval under 2/1024 s (2 ms) is no heartbeat (and two beats could round to one
// millisecond in the writer); such a line's intervals are refused.
const MIN_RR = 2;

function usableRr(intervals: number[]): { intervals: number[]; problem?: string } {
  if (intervals.every((rr) => rr >= MIN_RR)) return { intervals };
  return { intervals: [], problem: "an RR interval is under 2 ms; the line's RR intervals are left out" };
}

/** The characteristic of a UUID string, or null when it is not a UUID. */
function readUuid(text: string): Pick<BluetoothLine, "uuid16" | "characteristic"> | null {
  const short = UUID16.exec(text);
  if (short?.[1]) return uuid16(Number.parseInt(short[1], 16));
  const long = UUID128.exec(text);
  if (!long?.[1]) return null;
  const lower = text.toLowerCase();
  // A 16-bit UUID is 0000xxxx-0000-1000-8000-00805F9B34FB (Core Specification Vol 3, Part B, 2.5.1).
  if (lower.startsWith("0000") && lower.endsWith(BASE_UUID_TAIL)) return uuid16(Number.parseInt(lower.slice(4, 8), 16));
  return { uuid16: null, characteristic: lower };
}

function uuid16(value: number): Pick<BluetoothLine, "uuid16" | "characteristic"> {
  return { uuid16: value, characteristic: `0x${value.toString(16).toUpperCase().padStart(4, "0")}` };
}

/** An RFC 3339 time with its offset in minutes (null for `Z` and `-00:00`, "offset unknown"). */
function readRfc3339(text: string): { at: Date; offsetMinutes: number | null } | null {
  const m = RFC3339.exec(text);
  if (!m) return null;
  const [year, month, day, hours, minutes, seconds] = [m[1], m[2], m[3], m[4], m[5], m[6]].map(Number) as [number, number, number, number, number, number];
  const millis = Number((m[7] ?? "").slice(0, 3).padEnd(3, "0"));
  const offsetHours = Number(m[10] ?? 0);
  const offsetMins = Number(m[11] ?? 0);
  if (month < 1 || month > 12 || day < 1 || hours > 23 || minutes > 59 || seconds > 59 || offsetHours > 23 || offsetMins > 59) return null;
  const wall = new Date(0);
  wall.setUTCFullYear(year, month - 1, day);
  wall.setUTCHours(hours, minutes, seconds, millis);
  if (wall.getUTCDate() !== day) return null;
  const sign = m[9] === "-" ? -1 : 1;
  const offset = sign * (offsetHours * 60 + offsetMins);
  const unknownOffset = m[8] !== undefined || (m[9] === "-" && offset === 0);
  return { at: new Date(wall.getTime() - offset * 60_000), offsetMinutes: unknownOffset ? null : offset };
}

/** A trimmed optional text: null when absent, null or blank; undefined when not acceptable. */
function readOptionalText(value: unknown): string | null | undefined {
  if (value === undefined || value === null) return null;
  if (typeof value !== "string") return undefined;
  const trimmed = value.trim();
  if (trimmed.length > MAX_DEVICE_CHARS) return undefined;
  return trimmed === "" ? null : trimmed;
}
