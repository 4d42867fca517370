// Reading a characteristic value: little-endian integers (multi-octet fields of the GATT
// Specification Supplement are little-endian) and the 7-byte Date Time structure. Decoders
// check the length their flags announce before reading, so these never read past the end.

import { float32, sfloat } from "./ieee11073.ts";

/** A measurement that could not be decoded: why, naming fields, never a value. */
export interface DecodeFailure {
  problem: string;
}

export function isFailure<T extends object>(result: T | DecodeFailure): result is DecodeFailure {
  return "problem" in result;
}

export const TOO_SHORT: DecodeFailure = { problem: "value is too short for the fields its flags announce" };

/** A failure naming the reserved flag bits that are set. */
export function reservedFlags(flags: number, reservedMask: number): DecodeFailure | null {
  const set = flags & reservedMask;
  return set === 0 ? null : { problem: `flags set reserved bits (mask 0x${set.toString(16).padStart(2, "0")})` };
}

/** Bytes of a hex string already checked to be of even length and only hex digits. */
export function hexToBytes(hex: string): Uint8Array {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return bytes;
}

export function uint8(bytes: Uint8Array, offset: number): number {
  return bytes[offset] ?? 0;
}

export function uint16(bytes: Uint8Array, offset: number): number {
  return uint8(bytes, offset) | (uint8(bytes, offset + 1) << 8);
}

export function sint16(bytes: Uint8Array, offset: number): number {
  const value = uint16(bytes, offset);
  return value >= 0x8000 ? value - 0x10000 : value;
}

export function uint24(bytes: Uint8Array, offset: number): number {
  return uint16(bytes, offset) | (uint8(bytes, offset + 2) << 16);
}

export function uint32(bytes: Uint8Array, offset: number): number {
  return (uint24(bytes, offset) | (uint8(bytes, offset + 3) << 24)) >>> 0;
}

export function sfloatAt(bytes: Uint8Array, offset: number): number | null {
  return sfloat(uint16(bytes, offset));
}

export function float32At(bytes: Uint8Array, offset: number): number | null {
  return float32(uint32(bytes, offset));
}

/**
 * A Date Time (GATT Specification Supplement, Date Time): the device's wall clock, no zone.
 * Year, month and day 0 mean "not known" and are null here.
 */
export interface DeviceTime {
  year: number | null;
  month: number | null;
  day: number | null;
  hours: number;
  minutes: number;
  seconds: number;
}

export const DATE_TIME_LENGTH = 7;

/** The Date Time at offset, or a failure when a field holds a reserved value. */
export function dateTimeAt(bytes: Uint8Array, offset: number): DeviceTime | DecodeFailure {
  const year = uint16(bytes, offset);
  const month = uint8(bytes, offset + 2);
  const day = uint8(bytes, offset + 3);
  const hours = uint8(bytes, offset + 4);
  const minutes = uint8(bytes, offset + 5);
  const seconds = uint8(bytes, offset + 6);
  // Valid ranges: year 1582-9999, month 1-12, day 1-31 (0 = not known), hours 0-23,
  // minutes and seconds 0-59; anything else is reserved.
  if ((year !== 0 && (year < 1582 || year > 9999)) || month > 12 || day > 31 || hours > 23 || minutes > 59 || seconds > 59) {
    return { problem: "timestamp holds a reserved value" };
  }
  const time: DeviceTime = { year: year || null, month: month || null, day: day || null, hours, minutes, seconds };
  const wall = wallClockMs(time);
  if (wall !== null && new Date(wall).getUTCDate() !== day) return { problem: "timestamp is not a calendar date" };
  return time;
}

/** The wall-clock time read as if it were UTC, in ms; null when the date is not fully known. */
export function wallClockMs(time: DeviceTime): number | null {
  if (time.year === null || time.month === null || time.day === null) return null;
  return Date.UTC(time.year, time.month - 1, time.day, time.hours, time.minutes, time.seconds);
}

/** `YYYY-MM-DDThh:mm:ss` of a fully known Date Time (no zone: it is the device's wall clock). */
export function formatDeviceTime(time: DeviceTime): string | null {
  const wall = wallClockMs(time);
  return wall === null ? null : new Date(wall).toISOString().slice(0, 19);
}
