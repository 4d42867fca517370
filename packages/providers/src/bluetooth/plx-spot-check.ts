// PLX Spot-Check Measurement (0x2A5E), Pulse Oximeter Service 1.0 and the GATT
// Specification Supplement: flags, SpO2 (SFLOAT, %), pulse rate (SFLOAT, bpm), then by flags
// a Date Time, measurement status, device and sensor status and pulse amplitude index
// (SFLOAT, %). Flag bit 4 says the device clock is not set, so the Date Time is meaningless.

import {
  DATE_TIME_LENGTH,
  dateTimeAt,
  isFailure,
  reservedFlags,
  sfloatAt,
  TOO_SHORT,
  uint16,
  uint24,
  uint8,
  type DecodeFailure,
  type DeviceTime,
} from "./bytes.ts";
import { bitNames, measurementTime, type LineContext, type LineRecords } from "./measurement.ts";
import { PLX_DEVICE_AND_SENSOR_STATUS_BITS, PLX_MEASUREMENT_STATUS_BITS, plxRecords } from "./plx-common.ts";

export const PLX_SPOT_CHECK_MEASUREMENT = 0x2a5e;

const TIMESTAMP = 0x01;
const MEASUREMENT_STATUS = 0x02;
const DEVICE_AND_SENSOR_STATUS = 0x04;
const PULSE_AMPLITUDE_INDEX = 0x08;
const DEVICE_CLOCK_NOT_SET = 0x10;
const RESERVED = 0xe0;

export interface PlxSpotCheckMeasurement {
  spo2: number | null;
  pulseRate: number | null;
  timestamp: DeviceTime | null;
  deviceClockNotSet: boolean;
  measurementStatus: number | null;
  measurementStatusNames: string[];
  deviceAndSensorStatus: number | null;
  deviceAndSensorStatusNames: string[];
  pulseAmplitudeIndex: number | null;
}

export function decodePlxSpotCheckMeasurement(bytes: Uint8Array): PlxSpotCheckMeasurement | DecodeFailure {
  if (bytes.length < 1) return TOO_SHORT;
  const flags = uint8(bytes, 0);
  const reserved = reservedFlags(flags, RESERVED);
  if (reserved) return reserved;
  const length =
    5 +
    (flags & TIMESTAMP ? DATE_TIME_LENGTH : 0) +
    (flags & MEASUREMENT_STATUS ? 2 : 0) +
    (flags & DEVICE_AND_SENSOR_STATUS ? 3 : 0) +
    (flags & PULSE_AMPLITUDE_INDEX ? 2 : 0);
  if (bytes.length < length) return TOO_SHORT;
  let offset = 5;
  let timestamp: DeviceTime | null = null;
  if (flags & TIMESTAMP) {
    const time = dateTimeAt(bytes, offset);
    if (isFailure(time)) return time;
    timestamp = time;
    offset += DATE_TIME_LENGTH;
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
    timestamp,
    deviceClockNotSet: (flags & DEVICE_CLOCK_NOT_SET) !== 0,
    measurementStatus,
    measurementStatusNames: measurementStatus === null ? [] : bitNames(measurementStatus, PLX_MEASUREMENT_STATUS_BITS),
    deviceAndSensorStatus,
    deviceAndSensorStatusNames: deviceAndSensorStatus === null ? [] : bitNames(deviceAndSensorStatus, PLX_DEVICE_AND_SENSOR_STATUS_BITS),
    pulseAmplitudeIndex,
  };
}

/** SpO2, pulse rate and perfusion index at the device's time when its clock is set. */
export function plxSpotCheckRecords(m: PlxSpotCheckMeasurement, ctx: LineContext): LineRecords {
  return plxRecords(m, ctx, measurementTime(ctx, m.timestamp, { clockNotSet: m.deviceClockNotSet }));
}

export function plxSpotCheckLineRecords(bytes: Uint8Array, ctx: LineContext): LineRecords | DecodeFailure {
  const m = decodePlxSpotCheckMeasurement(bytes);
  return isFailure(m) ? m : plxSpotCheckRecords(m, ctx);
}
