// Blood Pressure Measurement (0x2A35), Blood Pressure Service 1.0 and the GATT
// Specification Supplement: flags, systolic, diastolic and mean arterial pressure (SFLOAT,
// mmHg or kPa by flag bit 0), then by flags a Date Time, pulse rate (SFLOAT, bpm), user id
// and measurement status.

import {
  DATE_TIME_LENGTH,
  dateTimeAt,
  isFailure,
  reservedFlags,
  sfloatAt,
  TOO_SHORT,
  uint16,
  uint8,
  type DecodeFailure,
  type DeviceTime,
} from "./bytes.ts";
import { measurementTime, positive, sampleMaker, type LineContext, type LineRecords } from "./measurement.ts";
import type { QuantitySampleRecord } from "@svc/core";

export const BLOOD_PRESSURE_MEASUREMENT = 0x2a35;

const UNITS_KPA = 0x01;
const TIMESTAMP = 0x02;
const PULSE_RATE = 0x04;
const USER_ID = 0x08;
const MEASUREMENT_STATUS = 0x10;
const RESERVED = 0xe0;

/** User id 0xFF is "unknown user" (User Data Service, User Index). */
export const UNKNOWN_USER = 0xff;

export type PulseRateRange = "within_range" | "exceeds_upper_limit" | "below_lower_limit";

export interface BloodPressureStatus {
  raw: number;
  bodyMovementDetected: boolean;
  cuffTooLoose: boolean;
  irregularPulseDetected: boolean;
  /** Null for the reserved value 3. */
  pulseRateRange: PulseRateRange | null;
  improperMeasurementPosition: boolean;
}

export interface BloodPressureMeasurement {
  unit: "mmHg" | "kPa";
  systolic: number | null;
  diastolic: number | null;
  meanArterialPressure: number | null;
  timestamp: DeviceTime | null;
  /** Beats per minute. */
  pulseRate: number | null;
  userId: number | null;
  status: BloodPressureStatus | null;
}

export function decodeBloodPressureMeasurement(bytes: Uint8Array): BloodPressureMeasurement | DecodeFailure {
  if (bytes.length < 1) return TOO_SHORT;
  const flags = uint8(bytes, 0);
  const reserved = reservedFlags(flags, RESERVED);
  if (reserved) return reserved;
  const length =
    7 +
    (flags & TIMESTAMP ? DATE_TIME_LENGTH : 0) +
    (flags & PULSE_RATE ? 2 : 0) +
    (flags & USER_ID ? 1 : 0) +
    (flags & MEASUREMENT_STATUS ? 2 : 0);
  if (bytes.length < length) return TOO_SHORT;
  let offset = 7;
  let timestamp: DeviceTime | null = null;
  if (flags & TIMESTAMP) {
    const time = dateTimeAt(bytes, offset);
    if (isFailure(time)) return time;
    timestamp = time;
    offset += DATE_TIME_LENGTH;
  }
  let pulseRate: number | null = null;
  if (flags & PULSE_RATE) {
    pulseRate = sfloatAt(bytes, offset);
    offset += 2;
  }
  let userId: number | null = null;
  if (flags & USER_ID) {
    userId = uint8(bytes, offset);
    offset += 1;
  }
  const status = flags & MEASUREMENT_STATUS ? decodeStatus(uint16(bytes, offset)) : null;
  return {
    unit: flags & UNITS_KPA ? "kPa" : "mmHg",
    systolic: sfloatAt(bytes, 1),
    diastolic: sfloatAt(bytes, 3),
    meanArterialPressure: sfloatAt(bytes, 5),
    timestamp,
    pulseRate,
    userId,
    status,
  };
}

const PULSE_RATE_RANGES: readonly (PulseRateRange | null)[] = ["within_range", "exceeds_upper_limit", "below_lower_limit", null];

function decodeStatus(raw: number): BloodPressureStatus {
  return {
    raw,
    bodyMovementDetected: (raw & 0x01) !== 0,
    cuffTooLoose: (raw & 0x02) !== 0,
    irregularPulseDetected: (raw & 0x04) !== 0,
    pulseRateRange: PULSE_RATE_RANGES[(raw >> 3) & 0x03] ?? null,
    improperMeasurementPosition: (raw & 0x20) !== 0,
  };
}

/**
 * Systolic and diastolic pressure in the cuff's unit, and its pulse rate as heart rate. The
 * mean arterial pressure has no catalog type and is not stored. A cuff is not worn.
 */
export function bloodPressureRecords(m: BloodPressureMeasurement, ctx: LineContext): LineRecords {
  const time = measurementTime(ctx, m.timestamp);
  const metadata: Record<string, unknown> = {};
  if (m.userId !== null && m.userId !== UNKNOWN_USER) metadata.user_index = m.userId;
  if (m.status) {
    metadata.body_movement_detected = m.status.bodyMovementDetected;
    metadata.cuff_too_loose = m.status.cuffTooLoose;
    metadata.irregular_pulse_detected = m.status.irregularPulseDetected;
    if (m.status.pulseRateRange !== null) metadata.pulse_rate_range = m.status.pulseRateRange;
    metadata.improper_measurement_position = m.status.improperMeasurementPosition;
  }
  const sample = sampleMaker(ctx, time, false, metadata);
  const samples: QuantitySampleRecord[] = [];
  if (positive(m.systolic)) samples.push(sample("blood_pressure_systolic", m.systolic, m.unit));
  if (positive(m.diastolic)) samples.push(sample("blood_pressure_diastolic", m.diastolic, m.unit));
  if (positive(m.pulseRate)) samples.push(sample("heart_rate", m.pulseRate, "count/min"));
  return { samples, rrIntervals: [] };
}

export function bloodPressureLineRecords(bytes: Uint8Array, ctx: LineContext): LineRecords | DecodeFailure {
  const m = decodeBloodPressureMeasurement(bytes);
  return isFailure(m) ? m : bloodPressureRecords(m, ctx);
}
