// Temperature Measurement (0x2A1C), Health Thermometer Service 1.0 and the GATT
// Specification Supplement: flags, temperature (32-bit FLOAT, Celsius, or Fahrenheit with
// flag bit 0), then by flags a Date Time and the temperature type (where it was taken).

import {
  DATE_TIME_LENGTH,
  dateTimeAt,
  float32At,
  isFailure,
  reservedFlags,
  TOO_SHORT,
  uint8,
  type DecodeFailure,
  type DeviceTime,
} from "./bytes.ts";
import { measurementTime, sampleMaker, type LineContext, type LineRecords } from "./measurement.ts";

export const TEMPERATURE_MEASUREMENT = 0x2a1c;

const UNITS_FAHRENHEIT = 0x01;
const TIMESTAMP = 0x02;
const TEMPERATURE_TYPE = 0x04;
const RESERVED = 0xf8;

// Temperature Type characteristic (0x2A1D) values; 0 and 10-255 are reserved.
const TEMPERATURE_TYPES: Readonly<Record<number, string>> = {
  1: "armpit",
  2: "body",
  3: "ear",
  4: "finger",
  5: "gastrointestinal_tract",
  6: "mouth",
  7: "rectum",
  8: "toe",
  9: "tympanum",
};

export interface TemperatureMeasurement {
  unit: "degC" | "degF";
  temperature: number | null;
  timestamp: DeviceTime | null;
  temperatureType: number | null;
  /** Null for a reserved type. */
  temperatureTypeName: string | null;
}

export function decodeTemperatureMeasurement(bytes: Uint8Array): TemperatureMeasurement | DecodeFailure {
  if (bytes.length < 1) return TOO_SHORT;
  const flags = uint8(bytes, 0);
  const reserved = reservedFlags(flags, RESERVED);
  if (reserved) return reserved;
  const length = 5 + (flags & TIMESTAMP ? DATE_TIME_LENGTH : 0) + (flags & TEMPERATURE_TYPE ? 1 : 0);
  if (bytes.length < length) return TOO_SHORT;
  let offset = 5;
  let timestamp: DeviceTime | null = null;
  if (flags & TIMESTAMP) {
    const time = dateTimeAt(bytes, offset);
    if (isFailure(time)) return time;
    timestamp = time;
    offset += DATE_TIME_LENGTH;
  }
  const temperatureType = flags & TEMPERATURE_TYPE ? uint8(bytes, offset) : null;
  return {
    unit: flags & UNITS_FAHRENHEIT ? "degF" : "degC",
    temperature: float32At(bytes, 1),
    timestamp,
    temperatureType,
    temperatureTypeName: temperatureType === null ? null : (TEMPERATURE_TYPES[temperatureType] ?? null),
  };
}

/** Body temperature in the thermometer's unit; a thermometer is not worn. */
export function temperatureRecords(m: TemperatureMeasurement, ctx: LineContext): LineRecords {
  const time = measurementTime(ctx, m.timestamp);
  const metadata: Record<string, unknown> = {};
  if (m.temperatureTypeName !== null) metadata.temperature_type = m.temperatureTypeName;
  const sample = sampleMaker(ctx, time, false, metadata);
  return { samples: m.temperature === null ? [] : [sample("body_temperature", m.temperature, m.unit)], rrIntervals: [] };
}

export function temperatureLineRecords(bytes: Uint8Array, ctx: LineContext): LineRecords | DecodeFailure {
  const m = decodeTemperatureMeasurement(bytes);
  return isFailure(m) ? m : temperatureRecords(m, ctx);
}
