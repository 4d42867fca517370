// Weight Measurement (0x2A9D), Weight Scale Service 1.0 and the GATT Specification
// Supplement: flags, weight (uint16: 0.005 kg, or 0.01 lb with flag bit 0), then by flags a
// Date Time, user id, and BMI (uint16, 0.1 kg/m²) with height (uint16: 0.001 m or 0.1 in).

import {
  DATE_TIME_LENGTH,
  dateTimeAt,
  isFailure,
  reservedFlags,
  TOO_SHORT,
  uint16,
  uint8,
  type DecodeFailure,
  type DeviceTime,
} from "./bytes.ts";
import { UNKNOWN_USER } from "./blood-pressure.ts";
import { measurementTime, positive, sampleMaker, type LineContext, type LineRecords } from "./measurement.ts";
import type { QuantitySampleRecord } from "@svc/core";

export const WEIGHT_MEASUREMENT = 0x2a9d;

const UNITS_IMPERIAL = 0x01;
const TIMESTAMP = 0x02;
const USER_ID = 0x04;
const BMI_AND_HEIGHT = 0x08;
const RESERVED = 0xf0;

/** Weight 0xFFFF is "Measurement Unsuccessful" (also in Body Composition Measurement). */
export const MEASUREMENT_UNSUCCESSFUL = 0xffff;

export interface WeightMeasurement {
  unit: "kg" | "lb";
  weight: number | null;
  timestamp: DeviceTime | null;
  userId: number | null;
  bmi: number | null;
  height: number | null;
  heightUnit: "m" | "in";
}

export function decodeWeightMeasurement(bytes: Uint8Array): WeightMeasurement | DecodeFailure {
  if (bytes.length < 1) return TOO_SHORT;
  const flags = uint8(bytes, 0);
  const reserved = reservedFlags(flags, RESERVED);
  if (reserved) return reserved;
  const length = 3 + (flags & TIMESTAMP ? DATE_TIME_LENGTH : 0) + (flags & USER_ID ? 1 : 0) + (flags & BMI_AND_HEIGHT ? 4 : 0);
  if (bytes.length < length) return TOO_SHORT;
  const imperial = (flags & UNITS_IMPERIAL) !== 0;
  let offset = 3;
  let timestamp: DeviceTime | null = null;
  if (flags & TIMESTAMP) {
    const time = dateTimeAt(bytes, offset);
    if (isFailure(time)) return time;
    timestamp = time;
    offset += DATE_TIME_LENGTH;
  }
  let userId: number | null = null;
  if (flags & USER_ID) {
    userId = uint8(bytes, offset);
    offset += 1;
  }
  let bmi: number | null = null;
  let height: number | null = null;
  if (flags & BMI_AND_HEIGHT) {
    bmi = uint16(bytes, offset) / 10;
    height = lengthValue(uint16(bytes, offset + 2), imperial);
  }
  return {
    unit: imperial ? "lb" : "kg",
    weight: massValue(uint16(bytes, 1), imperial),
    timestamp,
    userId,
    bmi,
    height,
    heightUnit: imperial ? "in" : "m",
  };
}

/** A mass field: 0.005 kg or 0.01 lb steps; null for "Measurement Unsuccessful". */
export function massValue(raw: number, imperial: boolean): number | null {
  if (raw === MEASUREMENT_UNSUCCESSFUL) return null;
  // raw * 5 / 1000 rather than raw * 0.005: exact integer steps, the nearest double.
  return imperial ? raw / 100 : (raw * 5) / 1000;
}

/** A height field: 0.001 m or 0.1 in steps. */
export function lengthValue(raw: number, imperial: boolean): number {
  return imperial ? raw / 10 : raw / 1000;
}

/**
 * Body mass, and BMI and height when sent, in the scale's units. A scale's height is the
 * one set in its user profile (it weighs, it does not measure height); it is stored as sent.
 */
export function weightRecords(m: WeightMeasurement, ctx: LineContext): LineRecords {
  const time = measurementTime(ctx, m.timestamp);
  const metadata: Record<string, unknown> = {};
  if (m.userId !== null && m.userId !== UNKNOWN_USER) metadata.user_index = m.userId;
  const sample = sampleMaker(ctx, time, false, metadata);
  const samples: QuantitySampleRecord[] = [];
  if (positive(m.weight)) samples.push(sample("body_mass", m.weight, m.unit));
  if (positive(m.bmi)) samples.push(sample("body_mass_index", m.bmi, "kg/m2"));
  if (positive(m.height)) samples.push(sample("height", m.height, m.heightUnit));
  return { samples, rrIntervals: [] };
}

export function weightLineRecords(bytes: Uint8Array, ctx: LineContext): LineRecords | DecodeFailure {
  const m = decodeWeightMeasurement(bytes);
  return isFailure(m) ? m : weightRecords(m, ctx);
}
