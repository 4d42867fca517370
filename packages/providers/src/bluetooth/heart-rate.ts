// Heart Rate Measurement (0x2A37), Heart Rate Service 1.0 and the GATT Specification
// Supplement: flags, heart rate (uint8 or uint16, bpm), optional Energy Expended (uint16,
// kJ) and optional RR-Intervals (uint16 each, 1/1024 s) filling the rest of the value.

import { isFailure, reservedFlags, TOO_SHORT, uint16, uint8, type DecodeFailure } from "./bytes.ts";
import { measurementTime, sampleMaker, type LineContext, type LineRecords } from "./measurement.ts";

export const HEART_RATE_MEASUREMENT = 0x2a37;

const HR_UINT16 = 0x01;
const CONTACT_DETECTED = 0x02;
const CONTACT_SUPPORTED = 0x04;
const ENERGY_EXPENDED = 0x08;
const RR_INTERVALS = 0x10;
const RESERVED = 0xe0;

export type SensorContact = "not_supported" | "detected" | "not_detected";

export interface HeartRateMeasurement {
  heartRate: number;
  sensorContact: SensorContact;
  /** Accumulated since the sensor's last reset, in kJ. */
  energyExpendedKj: number | null;
  /** In 1/1024 s, oldest first. */
  rrIntervals: number[];
}

export function decodeHeartRateMeasurement(bytes: Uint8Array): HeartRateMeasurement | DecodeFailure {
  if (bytes.length < 2) return TOO_SHORT;
  const flags = uint8(bytes, 0);
  const reserved = reservedFlags(flags, RESERVED);
  if (reserved) return reserved;
  const hrLength = flags & HR_UINT16 ? 2 : 1;
  let offset = 1;
  if (bytes.length < offset + hrLength + (flags & ENERGY_EXPENDED ? 2 : 0)) return TOO_SHORT;
  const heartRate = hrLength === 2 ? uint16(bytes, offset) : uint8(bytes, offset);
  offset += hrLength;
  let energyExpendedKj: number | null = null;
  if (flags & ENERGY_EXPENDED) {
    energyExpendedKj = uint16(bytes, offset);
    offset += 2;
  }
  const rrIntervals: number[] = [];
  if (flags & RR_INTERVALS) {
    const rest = bytes.length - offset;
    // The flag promises at least one interval; a stray odd byte is no interval either.
    if (rest < 2) return TOO_SHORT;
    if (rest % 2 !== 0) return { problem: "RR intervals do not fill whole 16-bit fields" };
    for (; offset < bytes.length; offset += 2) rrIntervals.push(uint16(bytes, offset));
  }
  return { heartRate, sensorContact: sensorContact(flags), energyExpendedKj, rrIntervals };
}

// Bits 1-2: 0 or 1 means the feature is not supported in this connection, 2 supported but
// no contact, 3 contact.
function sensorContact(flags: number): SensorContact {
  if (!(flags & CONTACT_SUPPORTED)) return "not_supported";
  return flags & CONTACT_DETECTED ? "detected" : "not_detected";
}

/**
 * A heart rate sample at the arrival time (the value has no timestamp) and the RR intervals
 * for the strap's heartbeat series. Without skin contact a strap's figures are noise, so
 * nothing is kept; a heart rate of 0 is no reading. Energy Expended is a running total
 * since an unknown reset, not an amount over a known interval, and is not stored.
 */
export function heartRateRecords(m: HeartRateMeasurement, ctx: LineContext): LineRecords {
  if (m.sensorContact === "not_detected") {
    return { samples: [], rrIntervals: [], refusal: "sensor reports no skin contact", rrBreak: true };
  }
  const time = measurementTime(ctx, null);
  const sample = sampleMaker(ctx, time, true, { sensor_contact: m.sensorContact });
  return { samples: m.heartRate > 0 ? [sample("heart_rate", m.heartRate, "count/min")] : [], rrIntervals: m.rrIntervals };
}

export function heartRateLineRecords(bytes: Uint8Array, ctx: LineContext): LineRecords | DecodeFailure {
  const m = decodeHeartRateMeasurement(bytes);
  return isFailure(m) ? m : heartRateRecords(m, ctx);
}
