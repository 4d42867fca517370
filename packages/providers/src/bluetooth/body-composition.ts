// Body Composition Measurement (0x2A9C), Body Composition Service 1.0 §3.2 and the GATT
// Specification Supplement: 16-bit flags, body fat percentage (uint16, 0.1 %), then by flags
// in this order: Date Time, user id, basal metabolism (kJ), muscle percentage (0.1 %), muscle
// mass, fat free mass, soft lean mass, body water mass (masses 0.005 kg or 0.01 lb by flag
// bit 0), impedance (0.1 Ω), weight, height (0.001 m or 0.1 in).

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
import { lengthValue, massValue, MEASUREMENT_UNSUCCESSFUL } from "./weight.ts";
import type { QuantitySampleRecord } from "@svc/core";

export const BODY_COMPOSITION_MEASUREMENT = 0x2a9c;

const UNITS_IMPERIAL = 0x0001;
const TIMESTAMP = 0x0002;
const USER_ID = 0x0004;
const BASAL_METABOLISM = 0x0008;
const MUSCLE_PERCENTAGE = 0x0010;
const MUSCLE_MASS = 0x0020;
const FAT_FREE_MASS = 0x0040;
const SOFT_LEAN_MASS = 0x0080;
const BODY_WATER_MASS = 0x0100;
const IMPEDANCE = 0x0200;
const WEIGHT = 0x0400;
const HEIGHT = 0x0800;
const MULTIPLE_PACKET = 0x1000;
const RESERVED = 0xe000;

// The uint16 fields after the user id, in the order they follow each other.
const UINT16_FIELDS = [BASAL_METABOLISM, MUSCLE_PERCENTAGE, MUSCLE_MASS, FAT_FREE_MASS, SOFT_LEAN_MASS, BODY_WATER_MASS, IMPEDANCE, WEIGHT, HEIGHT];

export interface BodyCompositionMeasurement {
  /** Unit of every mass field. */
  unit: "kg" | "lb";
  bodyFatPercentage: number | null;
  timestamp: DeviceTime | null;
  userId: number | null;
  basalMetabolismKj: number | null;
  musclePercentage: number | null;
  muscleMass: number | null;
  fatFreeMass: number | null;
  softLeanMass: number | null;
  bodyWaterMass: number | null;
  impedanceOhm: number | null;
  weight: number | null;
  height: number | null;
  heightUnit: "m" | "in";
  /** The measurement is split over this and another value, each with its own flags. */
  multiplePacket: boolean;
}

export function decodeBodyCompositionMeasurement(bytes: Uint8Array): BodyCompositionMeasurement | DecodeFailure {
  if (bytes.length < 2) return TOO_SHORT;
  const flags = uint16(bytes, 0);
  const reserved = reservedFlags(flags, RESERVED);
  if (reserved) return reserved;
  let length = 4 + (flags & TIMESTAMP ? DATE_TIME_LENGTH : 0) + (flags & USER_ID ? 1 : 0);
  for (const field of UINT16_FIELDS) if (flags & field) length += 2;
  if (bytes.length < length) return TOO_SHORT;

  const imperial = (flags & UNITS_IMPERIAL) !== 0;
  let offset = 4;
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
  // Each present uint16 field in turn; 0xFFFF is "Measurement Unsuccessful" in any of them.
  const raw = new Map<number, number | null>();
  for (const field of UINT16_FIELDS) {
    if (!(flags & field)) continue;
    const value = uint16(bytes, offset);
    raw.set(field, value === MEASUREMENT_UNSUCCESSFUL ? null : value);
    offset += 2;
  }
  const field = (flag: number, scale: (value: number) => number | null): number | null => {
    const value = raw.get(flag);
    return value === undefined || value === null ? null : scale(value);
  };
  const mass = (value: number) => massValue(value, imperial);
  const bodyFat = uint16(bytes, 2);
  return {
    unit: imperial ? "lb" : "kg",
    bodyFatPercentage: bodyFat === MEASUREMENT_UNSUCCESSFUL ? null : bodyFat / 10,
    timestamp,
    userId,
    basalMetabolismKj: field(BASAL_METABOLISM, (value) => value),
    musclePercentage: field(MUSCLE_PERCENTAGE, (value) => value / 10),
    muscleMass: field(MUSCLE_MASS, mass),
    fatFreeMass: field(FAT_FREE_MASS, mass),
    softLeanMass: field(SOFT_LEAN_MASS, mass),
    bodyWaterMass: field(BODY_WATER_MASS, mass),
    impedanceOhm: field(IMPEDANCE, (value) => value / 10),
    weight: field(WEIGHT, mass),
    height: field(HEIGHT, (value) => lengthValue(value, imperial)),
    heightUnit: imperial ? "in" : "m",
    multiplePacket: (flags & MULTIPLE_PACKET) !== 0,
  };
}

/**
 * Body fat percentage, muscle mass, fat free mass (as lean body mass), body water mass,
 * weight and height in the scale's units. Basal metabolism, muscle percentage, soft lean
 * mass and impedance have no catalog type and are not stored. Each packet of a
 * multiple-packet measurement is a line of its own and gives the fields it holds.
 */
export function bodyCompositionRecords(m: BodyCompositionMeasurement, ctx: LineContext): LineRecords {
  const time = measurementTime(ctx, m.timestamp);
  const metadata: Record<string, unknown> = {};
  if (m.userId !== null && m.userId !== UNKNOWN_USER) metadata.user_index = m.userId;
  if (m.multiplePacket) metadata.multiple_packet_measurement = true;
  const sample = sampleMaker(ctx, time, false, metadata);
  const samples: QuantitySampleRecord[] = [];
  if (positive(m.bodyFatPercentage)) samples.push(sample("body_fat_percentage", m.bodyFatPercentage, "%"));
  if (positive(m.muscleMass)) samples.push(sample("muscle_mass", m.muscleMass, m.unit));
  if (positive(m.fatFreeMass)) samples.push(sample("lean_body_mass", m.fatFreeMass, m.unit));
  if (positive(m.bodyWaterMass)) samples.push(sample("body_water_mass", m.bodyWaterMass, m.unit));
  if (positive(m.weight)) samples.push(sample("body_mass", m.weight, m.unit));
  if (positive(m.height)) samples.push(sample("height", m.height, m.heightUnit));
  return { samples, rrIntervals: [] };
}

export function bodyCompositionLineRecords(bytes: Uint8Array, ctx: LineContext): LineRecords | DecodeFailure {
  const m = decodeBodyCompositionMeasurement(bytes);
  return isFailure(m) ? m : bodyCompositionRecords(m, ctx);
}
