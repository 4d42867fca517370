// PLX Continuous Measurement (0x2A5F), Pulse Oximeter Service 1.0 and the GATT
// Specification Supplement: flags, SpO2 (SFLOAT, %) and pulse rate (SFLOAT, bpm) in normal
// averaging, then by flags the fast and slow averaging pairs, measurement status, device
// and sensor status and pulse amplitude index (SFLOAT, %). It has no timestamp.

import { isFailure, reservedFlags, sfloatAt, TOO_SHORT, uint16, uint24, uint8, type DecodeFailure } from "./bytes.ts";
import { bitNames, measurementTime, type LineContext, type LineRecords } from "./measurement.ts";
import { PLX_DEVICE_AND_SENSOR_STATUS_BITS, PLX_MEASUREMENT_STATUS_BITS, plxRecords } from "./plx-common.ts";

export const PLX_CONTINUOUS_MEASUREMENT = 0x2a5f;

const FAST = 0x01;
const SLOW = 0x02;
const MEASUREMENT_STATUS = 0x04;
const DEVICE_AND_SENSOR_STATUS = 0x08;
const PULSE_AMPLITUDE_INDEX = 0x10;
const RESERVED = 0xe0;

export interface PlxContinuousMeasurement {
  spo2: number | null;
  pulseRate: number | null;
  spo2Fast: number | null;
  pulseRateFast: number | null;
  spo2Slow: number | null;
  pulseRateSlow: number | null;
  measurementStatus: number | null;
  measurementStatusNames: string[];
  deviceAndSensorStatus: number | null;
  deviceAndSensorStatusNames: string[];
  pulseAmplitudeIndex: number | null;
}

export function decodePlxContinuousMeasurement(bytes: Uint8Array): PlxContinuousMeasurement | DecodeFailure {
  if (bytes.length < 1) return TOO_SHORT;
  const flags = uint8(bytes, 0);
  const reserved = reservedFlags(flags, RESERVED);
  if (reserved) return reserved;
  const length =
    5 +
    (flags & FAST ? 4 : 0) +
    (flags & SLOW ? 4 : 0) +
    (flags & MEASUREMENT_STATUS ? 2 : 0) +
    (flags & DEVICE_AND_SENSOR_STATUS ? 3 : 0) +
    (flags & PULSE_AMPLITUDE_INDEX ? 2 : 0);
  if (bytes.length < length) return TOO_SHORT;
  let offset = 5;
  let spo2Fast: number | null = null;
  let pulseRateFast: number | null = null;
  if (flags & FAST) {
    spo2Fast = sfloatAt(bytes, offset);
    pulseRateFast = sfloatAt(bytes, offset + 2);
    offset += 4;
  }
  let spo2Slow: number | null = null;
  let pulseRateSlow: number | null = null;
  if (flags & SLOW) {
    spo2Slow = sfloatAt(bytes, offset);
    pulseRateSlow = sfloatAt(bytes, offset + 2);
    offset += 4;
  }
  let measurementStatus: number | null = null;
  if (flags & MEASUREMENT_STATUS) {
    measurementStatus = uint16(bytes, offset);
    offset += 2;
  }
  let deviceAndSensorStatus: number | null = null;
  if (flags & DEVICE_AND_SENSOR_STATUS) {
    deviceAndSensorStatus = uint24(bytes, offset);
    offset += 3;
  }
  const pulseAmplitudeIndex = flags & PULSE_AMPLITUDE_INDEX ? sfloatAt(bytes, offset) : null;
  return {
    spo2: sfloatAt(bytes, 1),
    pulseRate: sfloatAt(bytes, 3),
    spo2Fast,
    pulseRateFast,
    spo2Slow,
    pulseRateSlow,
    measurementStatus,
    measurementStatusNames: measurementStatus === null ? [] : bitNames(measurementStatus, PLX_MEASUREMENT_STATUS_BITS),
    deviceAndSensorStatus,
    deviceAndSensorStatusNames: deviceAndSensorStatus === null ? [] : bitNames(deviceAndSensorStatus, PLX_DEVICE_AND_SENSOR_STATUS_BITS),
    pulseAmplitudeIndex,
  };
}

export function plxContinuousLineRecords(bytes: Uint8Array, ctx: LineContext): LineRecords | DecodeFailure {
  const m = decodePlxContinuousMeasurement(bytes);
  return isFailure(m) ? m : plxRecords(m, ctx, measurementTime(ctx, null));
}
