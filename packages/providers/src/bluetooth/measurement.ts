// What every characteristic's mapping to records shares: the line it came from, the time
// a measurement is placed at, and the provenance of its records.

import { createHash } from "node:crypto";
import type { QuantitySampleRecord } from "@svc/core";
import { wallClockMs, type DeviceTime } from "./bytes.ts";

/** One upload line, checked, with its value decoded from hex. */
export interface LineContext {
  lineNumber: number;
  /** The 16-bit UUID as written in reasons and metadata: `0x2A37`. */
  characteristic: string;
  valueHex: string;
  receivedAt: Date;
  /** The phone's UTC offset in minutes from received_at; null for `Z` or `-00:00`. */
  offsetMinutes: number | null;
  device: string | null;
  deviceId: string | null;
}

/** What one line gives: samples, and for a heart rate strap its RR intervals (1/1024 s). */
export interface LineRecords {
  samples: QuantitySampleRecord[];
  rrIntervals: number[];
  /**
   * Why the measurement is refused though it decoded (no skin contact, a control solution):
   * named apart from DecodeFailure's `problem`, which tells the two results apart.
   */
  refusal?: string;
  /** Beats are missing here: the device's heartbeat series must not run on across it. */
  rrBreak?: boolean;
}

/** Where a measurement is placed in time, and what says so. */
export interface MeasurementTime {
  at: Date;
  source: "device" | "received_at";
  /** Why the device's own timestamp was not used, when it was sent. */
  deviceTimeIgnored?: "incomplete" | "clock_not_set" | "implausible";
}

// Bluetooth Low Energy (Core 4.0) dates from 2010: a device clock before it was never set.
const EARLIEST_DEVICE_YEAR = 2010;
// A device clock may run in another zone than the phone's offset says; a day ahead is wrong.
const MAX_DEVICE_TIME_AHEAD_MS = 24 * 3600 * 1000;

/**
 * The measurement's own timestamp when it has a usable one, else the arrival time. The
 * Date Time has no zone: it is read in the UTC offset of received_at (the phone's zone,
 * which sets the device clock through the Current Time Service), or as UTC without one.
 * `extraMinutes` is the Glucose Measurement's Time Offset.
 */
export function measurementTime(
  ctx: LineContext,
  deviceTime: DeviceTime | null,
  options: { clockNotSet?: boolean; extraMinutes?: number } = {},
): MeasurementTime {
  const fallback = { at: ctx.receivedAt, source: "received_at" } as const;
  if (deviceTime === null) return fallback;
  if (options.clockNotSet) return { ...fallback, deviceTimeIgnored: "clock_not_set" };
  const wall = wallClockMs(deviceTime);
  if (wall === null) return { ...fallback, deviceTimeIgnored: "incomplete" };
  const at = new Date(wall + ((options.extraMinutes ?? 0) - (ctx.offsetMinutes ?? 0)) * 60_000);
  if ((deviceTime.year ?? 0) < EARLIEST_DEVICE_YEAR || at.getTime() > ctx.receivedAt.getTime() + MAX_DEVICE_TIME_AHEAD_MS) {
    return { ...fallback, deviceTimeIgnored: "implausible" };
  }
  return { at, source: "device" };
}

/**
 * The id of a line's records: a hash of the characteristic, the value and the time. A value
 * that carries its own timestamp identifies itself (a stored reading downloaded again, in
 * another zone or through another phone, is the same record). Otherwise the arrival time is
 * part of it, with the device: two straps may send the same bytes in the same second.
 * Records of different types from one line share it: identity is per type.
 */
export function lineExternalId(ctx: LineContext, time: MeasurementTime): string {
  const when = time.source === "device" ? "device-time" : `${ctx.receivedAt.toISOString()}|${deviceKey(ctx)}`;
  return `ble-${hash(`${ctx.characteristic}|${ctx.valueHex}|${when}`)}`;
}

/** The device a line came from: its id, else its name. */
export function deviceKey(line: { deviceId: string | null; device: string | null }): string {
  return line.deviceId !== null ? `id:${line.deviceId}` : `name:${line.device ?? ""}`;
}

export function hash(text: string): string {
  return createHash("sha256").update(text).digest("hex").slice(0, 32);
}

/** `+02:00` from the offset of received_at; null for UTC written as `Z`. */
export function offsetZone(offsetMinutes: number | null): string | null {
  if (offsetMinutes === null) return null;
  const sign = offsetMinutes < 0 ? "-" : "+";
  const abs = Math.abs(offsetMinutes);
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
}

/** Metadata every record of a line carries: where and when it came from. */
export function baseMetadata(ctx: LineContext, time: MeasurementTime): Record<string, unknown> {
  const metadata: Record<string, unknown> = { gatt_characteristic: ctx.characteristic, time_source: time.source };
  if (time.source === "device") metadata.received_at = ctx.receivedAt.toISOString();
  if (time.deviceTimeIgnored) metadata.device_time_ignored = time.deviceTimeIgnored;
  if (ctx.deviceId !== null) metadata.device_id = ctx.deviceId;
  return metadata;
}

/** Builds a line's samples: one instant at the measurement time, shared provenance. */
export function sampleMaker(ctx: LineContext, time: MeasurementTime, onBody: boolean, metadata: Record<string, unknown>) {
  const externalId = lineExternalId(ctx, time);
  return (type: string, value: number, unit: string): QuantitySampleRecord => ({
    type,
    value,
    unit,
    start_date: time.at,
    source: null,
    device: ctx.device,
    on_body: onBody,
    external_id: externalId,
    timezone: offsetZone(ctx.offsetMinutes),
    metadata: { ...baseMetadata(ctx, time), ...metadata },
    locator: `line ${ctx.lineNumber}`,
  });
}

/** A value times 10^places without binary noise (0.0009 kg/L is 90 mg/dL, not 90.00000000000001). */
export function shiftDecimal(value: number, places: number): number {
  return Number((value * 10 ** places).toPrecision(12));
}

/** Names of the set bits of a status field, in bit order; bits without a name are left out. */
export function bitNames(value: number, names: readonly (string | null)[]): string[] {
  const set: string[] = [];
  names.forEach((name, bit) => {
    if (name !== null && (value & (2 ** bit)) !== 0) set.push(name);
  });
  return set;
}

/**
 * The value when it can be a reading: heart rates, pressures, masses, sizes, percentages and
 * concentrations of a body are above 0, so 0 or less (a device's "no reading") is left out.
 */
export function positive(value: number | null): value is number {
  return value !== null && value > 0;
}
