// Glucose Measurement (0x2A18), Glucose Service 1.0 and the GATT Specification Supplement:
// flags, sequence number, base time (Date Time), then by
// flags a time offset (sint16, minutes), the concentration (SFLOAT, kg/L, or mol/L with flag
// bit 2) with a type and sample location nibble pair, and the sensor status annunciation.

import {
  dateTimeAt,
  isFailure,
  reservedFlags,
  sfloatAt,
  sint16,
  TOO_SHORT,
  uint16,
  uint8,
  type DecodeFailure,
  type DeviceTime,
} from "./bytes.ts";
import { bitNames, measurementTime, positive, sampleMaker, shiftDecimal, type LineContext, type LineRecords } from "./measurement.ts";

export const GLUCOSE_MEASUREMENT = 0x2a18;

const TIME_OFFSET = 0x01;
const CONCENTRATION = 0x02;
const UNITS_MOL_PER_L = 0x04;
const SENSOR_STATUS = 0x08;
const CONTEXT_FOLLOWS = 0x10;
const RESERVED = 0xe0;

// Type (low nibble) and Sample Location (high nibble) values; the others are reserved.
const TYPES: Readonly<Record<number, string>> = {
  1: "capillary_whole_blood",
  2: "capillary_plasma",
  3: "venous_whole_blood",
  4: "venous_plasma",
  5: "arterial_whole_blood",
  6: "arterial_plasma",
  7: "undetermined_whole_blood",
  8: "undetermined_plasma",
  9: "interstitial_fluid",
  10: "control_solution",
};
const SAMPLE_LOCATIONS: Readonly<Record<number, string>> = {
  1: "finger",
  2: "alternate_site_test",
  3: "earlobe",
  4: "control_solution",
  15: "not_available",
};

// Sensor Status Annunciation bits 0-11; 12-15 are reserved.
export const GLUCOSE_SENSOR_STATUS_BITS: readonly string[] = [
  "device_battery_low",
  "sensor_malfunction",
  "sample_size_insufficient",
  "strip_insertion_error",
  "strip_type_incorrect",
  "result_above_device_range",
  "result_below_device_range",
  "sensor_temperature_too_high",
  "sensor_temperature_too_low",
  "sensor_read_interrupted",
  "general_device_fault",
  "time_fault",
];

export interface GlucoseMeasurement {
  sequenceNumber: number;
  baseTime: DeviceTime;
  timeOffsetMinutes: number | null;
  concentration: number | null;
  /** The concentration unit, when the concentration field is present. */
  unit: "kg/L" | "mol/L" | null;
  type: number | null;
  typeName: string | null;
  sampleLocation: number | null;
  sampleLocationName: string | null;
  sensorStatus: number | null;
  sensorStatusNames: string[];
  contextInformationFollows: boolean;
}

export function decodeGlucoseMeasurement(bytes: Uint8Array): GlucoseMeasurement | DecodeFailure {
  if (bytes.length < 1) return TOO_SHORT;
  const flags = uint8(bytes, 0);
  const reserved = reservedFlags(flags, RESERVED);
  if (reserved) return reserved;
  const length = 10 + (flags & TIME_OFFSET ? 2 : 0) + (flags & CONCENTRATION ? 3 : 0) + (flags & SENSOR_STATUS ? 2 : 0);
  if (bytes.length < length) return TOO_SHORT;
  const baseTime = dateTimeAt(bytes, 3);
  if (isFailure(baseTime)) return baseTime;
  let offset = 10;
  let timeOffsetMinutes: number | null = null;
  if (flags & TIME_OFFSET) {
    timeOffsetMinutes = sint16(bytes, offset);
    offset += 2;
  }
  let concentration: number | null = null;
  let type: number | null = null;
  let sampleLocation: number | null = null;
  if (flags & CONCENTRATION) {
    concentration = sfloatAt(bytes, offset);
    const nibbles = uint8(bytes, offset + 2);
    type = nibbles & 0x0f;
    sampleLocation = nibbles >> 4;
    offset += 3;
  }
  const sensorStatus = flags & SENSOR_STATUS ? uint16(bytes, offset) : null;
  return {
    sequenceNumber: uint16(bytes, 1),
    baseTime,
    timeOffsetMinutes,
    concentration,
    unit: flags & CONCENTRATION ? (flags & UNITS_MOL_PER_L ? "mol/L" : "kg/L") : null,
    type,
    typeName: type === null ? null : (TYPES[type] ?? null),
    sampleLocation,
    sampleLocationName: sampleLocation === null ? null : (SAMPLE_LOCATIONS[sampleLocation] ?? null),
    sensorStatus,
    sensorStatusNames: sensorStatus === null ? [] : bitNames(sensorStatus, GLUCOSE_SENSOR_STATUS_BITS),
    contextInformationFollows: (flags & CONTEXT_FOLLOWS) !== 0,
  };
}

/**
 * Blood glucose at base time + time offset. kg/L and mol/L are the SI units of the wire
 * format; they are sent on as mg/dL (× 10^5) and mmol/L (× 10^3), the same units shifted by
 * a power of ten, so the stored original is the figure the meter displayed. A control
 * solution test is not a measurement of the user and is refused. The Glucose Measurement
 * Context (0x2A34) a set flag announces is not decoded.
 */
export function glucoseRecords(m: GlucoseMeasurement, ctx: LineContext): LineRecords {
  if (m.typeName === "control_solution" || m.sampleLocationName === "control_solution") {
    return { samples: [], rrIntervals: [], refusal: "a control solution test, not a measurement of the user" };
  }
  const time = measurementTime(ctx, m.baseTime, { extraMinutes: m.timeOffsetMinutes ?? 0 });
  const metadata: Record<string, unknown> = { sequence_number: m.sequenceNumber };
  if (m.typeName !== null) metadata.glucose_sample_type = m.typeName;
  if (m.sampleLocationName !== null) metadata.sample_location = m.sampleLocationName;
  if (m.sensorStatus !== null) metadata.sensor_status = m.sensorStatusNames;
  if (m.contextInformationFollows) metadata.context_information_follows = true;
  const sample = sampleMaker(ctx, time, false, metadata);
  if (!positive(m.concentration) || m.unit === null) return { samples: [], rrIntervals: [] };
  const [value, unit] = m.unit === "kg/L" ? [shiftDecimal(m.concentration, 5), "mg/dL"] : [shiftDecimal(m.concentration, 3), "mmol/L"];
  return { samples: [sample("blood_glucose", value, unit)], rrIntervals: [] };
}

export function glucoseLineRecords(bytes: Uint8Array, ctx: LineContext): LineRecords | DecodeFailure {
  const m = decodeGlucoseMeasurement(bytes);
  return isFailure(m) ? m : glucoseRecords(m, ctx);
}
