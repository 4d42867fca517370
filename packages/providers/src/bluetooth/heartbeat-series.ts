// RR intervals from Heart Rate Measurement lines, joined into heartbeat series. A strap
// notifies about once a second with the intervals of the beats since its last notification,
// so one line holds 0-3 intervals: too few for HRV. Consecutive lines of one device join one
// series while they fit together; a series starts at the beat before its first interval.

import type { HeartbeatSeriesRecord } from "@svc/core";
import { deviceKey, hash, offsetZone } from "./measurement.ts";

/** The RR intervals of one Heart Rate Measurement line. */
export interface RrLine {
  lineNumber: number;
  receivedAt: Date;
  offsetMinutes: number | null;
  device: string | null;
  deviceId: string | null;
  /** The external id of the line's records: the first line's names its series. */
  lineId: string;
  /** In 1/1024 s, oldest first; empty when the line's intervals were refused (a break). */
  rrIntervals: number[];
}

// A new series starts after a pause in notifications longer than this (the connection was
// lost, or the strap taken off and put on again).
const MAX_ARRIVAL_GAP_MS = 5_000;
// ... or when the beats and the arrival times drift apart by more than this: beats were
// missed (a notification lost), and the intervals after them would be placed too early.
// Normal notification delay keeps them within about a second.
const MAX_DRIFT_MS = 3_000;
// The writer takes at most 200 000 beats a series.
const MAX_INTERVALS = 100_000;

interface OpenSeries {
  first: RrLine;
  lastLineNumber: number;
  /** The beat before the first interval, in ms. */
  anchorMs: number;
  elapsedMs: number;
  lastArrivalMs: number;
  intervalsMs: number[];
}

/** RR intervals in 1/1024 s as milliseconds (exact: 1000/1024 = 125/128). */
export function rrToMs(raw: number): number {
  return (raw * 1000) / 1024;
}

/**
 * The heartbeat series of the lines: per device (device_id, else device name), in order of
 * arrival, the intervals of consecutive lines joined. The last interval of a line ends at
 * about the time the line arrived, which places the first beat of a series.
 */
export function heartbeatSeriesFrom(lines: readonly RrLine[]): HeartbeatSeriesRecord[] {
  const byDevice = new Map<string, RrLine[]>();
  for (const line of lines) {
    const key = deviceKey(line);
    const group = byDevice.get(key) ?? [];
    group.push(line);
    byDevice.set(key, group);
  }
  const series: HeartbeatSeriesRecord[] = [];
  for (const group of byDevice.values()) {
    group.sort((a, b) => a.receivedAt.getTime() - b.receivedAt.getTime() || a.lineNumber - b.lineNumber);
    let open: OpenSeries | null = null;
    for (const line of group) {
      // Refused intervals are missing beats: the series cannot run on across them.
      if (line.rrIntervals.length === 0) {
        if (open !== null) series.push(toRecord(open));
        open = null;
        continue;
      }
      const arrivalMs = line.receivedAt.getTime();
      const intervalsMs = line.rrIntervals.map(rrToMs);
      const sumMs = intervalsMs.reduce((sum, ms) => sum + ms, 0);
      if (open !== null) {
        const lastBeatMs = open.anchorMs + open.elapsedMs + sumMs;
        const fits =
          arrivalMs - open.lastArrivalMs <= MAX_ARRIVAL_GAP_MS &&
          Math.abs(arrivalMs - lastBeatMs) <= MAX_DRIFT_MS &&
          open.intervalsMs.length + intervalsMs.length <= MAX_INTERVALS;
        if (!fits) {
          series.push(toRecord(open));
          open = null;
        }
      }
      open ??= { first: line, lastLineNumber: line.lineNumber, anchorMs: Math.round(arrivalMs - sumMs), elapsedMs: 0, lastArrivalMs: arrivalMs, intervalsMs: [] };
      open.intervalsMs.push(...intervalsMs);
      open.elapsedMs += sumMs;
      open.lastArrivalMs = arrivalMs;
      open.lastLineNumber = line.lineNumber;
    }
    if (open !== null) series.push(toRecord(open));
  }
  return series;
}

function toRecord(open: OpenSeries): HeartbeatSeriesRecord {
  const { first } = open;
  const metadata: Record<string, unknown> = { gatt_characteristic: "0x2A37", time_source: "received_at" };
  if (first.deviceId !== null) metadata.device_id = first.deviceId;
  return {
    start_date: new Date(open.anchorMs),
    rr_intervals: open.intervalsMs.map((interval_ms) => ({ interval_ms })),
    source: null,
    device: first.device,
    on_body: true,
    external_id: `ble-${hash(`heartbeat_series|${first.lineId}`)}`,
    timezone: offsetZone(first.offsetMinutes),
    metadata,
    locator: first.lineNumber === open.lastLineNumber ? `line ${first.lineNumber}` : `lines ${first.lineNumber}-${open.lastLineNumber}`,
  };
}
