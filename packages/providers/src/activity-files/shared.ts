// What the FIT, GPX and TCX readers share: the file's identity, track totals computed from
// points, and the heart rate and cadence samples of a track.

import { createHash } from "node:crypto";
import type { QuantitySampleRecord, RoutePointRecord } from "@svc/core";
import type { ParseRejection } from "../parsed-records.ts";
import { cadenceKind } from "./activity-types.ts";

/** What a reader knows about the file besides its content. */
export interface FileContext {
  /** Stable id of the file's bytes (see fileIdOf): the root of every external_id made from it. */
  fileId: string;
  fileName: string | undefined;
}

/** The first 128 bits of the SHA-256 of the bytes, in hex: equal bytes, equal records. */
export function fileIdOf(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex").slice(0, 32);
}

/** A rejection of the whole file (it could not be read at all). */
export function fileRejection(reason: string): ParseRejection {
  return { recordKind: "activity_file", locator: "file", reason };
}

/** Provenance every record made from one file (or one device in it) carries. */
export interface Provenance {
  source: string | null;
  device: string | null;
  on_body: boolean;
  source_name?: string | null | undefined;
  timezone?: string | null | undefined;
}

/** One point of a track as a file gives it; position and readings are optional. */
export interface TrackPoint {
  timestamp: Date;
  latitude?: number | undefined;
  longitude?: number | undefined;
  /** Meters. */
  altitude?: number | undefined;
  /** Meters per second. */
  speed?: number | undefined;
  /** count/min */
  heartRate?: number | undefined;
  /** As the file gives it: strides (one foot) per minute for running, pedal turns for cycling. */
  cadence?: number | undefined;
  /** Meters covered since the start, as the device counted them (wheel or foot pod, or GPS). */
  distance?: number | undefined;
  /** Where in the file, for rejected records. */
  locator: string;
}

/** A finite number, or undefined (strings are parsed; arrays, NaN and the rest are not numbers). */
export function numberOf(value: unknown): number | undefined {
  if (typeof value === "number") return Number.isFinite(value) ? value : undefined;
  if (typeof value === "string" && value.trim() !== "") {
    const parsed = Number(value);
    return Number.isFinite(parsed) ? parsed : undefined;
  }
  return undefined;
}

/** A valid Date, or undefined. */
export function dateOf(value: unknown): Date | undefined {
  return value instanceof Date && !Number.isNaN(value.getTime()) ? value : undefined;
}

/**
 * One point per timestamp, in time order: files repeat a point at the same time (Garmin
 * Connect's GPX exports do). Of points sharing a time, each reading comes from the last one
 * that has it (latitude and longitude as a pair), as the sample writer keeps the last sample
 * of a time; the locator is the last point's. Readers take route, samples and every figure
 * from this one list, so a workout's figures agree with the rows stored for it.
 */
export function onePointPerTime(points: readonly TrackPoint[]): TrackPoint[] {
  const sorted = [...points].sort((a, b) => a.timestamp.getTime() - b.timestamp.getTime());
  const out: TrackPoint[] = [];
  for (const point of sorted) {
    const previous = out.at(-1);
    if (previous && previous.timestamp.getTime() === point.timestamp.getTime()) out[out.length - 1] = laterOver(previous, point);
    else out.push(point);
  }
  return out;
}

function laterOver(earlier: TrackPoint, later: TrackPoint): TrackPoint {
  const positioned = later.latitude !== undefined && later.longitude !== undefined;
  return {
    timestamp: later.timestamp,
    latitude: positioned ? later.latitude : earlier.latitude,
    longitude: positioned ? later.longitude : earlier.longitude,
    altitude: later.altitude ?? earlier.altitude,
    speed: later.speed ?? earlier.speed,
    heartRate: later.heartRate ?? earlier.heartRate,
    cadence: later.cadence ?? earlier.cadence,
    distance: later.distance ?? earlier.distance,
    locator: later.locator,
  };
}

/** The route of positioned points; undefined when no point has a position (an indoor workout). */
export function routeOf(points: readonly TrackPoint[]): RoutePointRecord[] | undefined {
  const route: RoutePointRecord[] = [];
  for (const p of points) {
    if (p.latitude === undefined || p.longitude === undefined) continue;
    route.push({
      timestamp: p.timestamp,
      latitude: p.latitude,
      longitude: p.longitude,
      altitude: p.altitude ?? null,
      speed: p.speed ?? null,
      heart_rate: p.heartRate ?? null,
    });
  }
  return route.length > 0 ? route : undefined;
}

const EARTH_MEAN_RADIUS_METERS = 6_371_008.8;
const radians = (degrees: number) => (degrees * Math.PI) / 180;

/** Great-circle distance in meters (the same sphere as core's track summaries). */
export function haversineMeters(a: { latitude: number; longitude: number }, b: { latitude: number; longitude: number }): number {
  const dLat = radians(b.latitude - a.latitude);
  const dLon = radians(b.longitude - a.longitude);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(radians(a.latitude)) * Math.cos(radians(b.latitude)) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_MEAN_RADIUS_METERS * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** The length of a route in time order, or undefined with fewer than two points. */
export function routeDistanceMeters(route: readonly RoutePointRecord[] | undefined): number | undefined {
  if (!route || route.length < 2) return undefined;
  let distance = 0;
  for (let i = 1; i < route.length; i++) {
    const a = route[i - 1];
    const b = route[i];
    if (a && b) distance += haversineMeters(a, b);
  }
  return round(distance, 2);
}

/** The distance the points' own running totals cover (last minus first), or undefined with fewer than two. */
export function distanceFromPoints(points: readonly TrackPoint[]): number | undefined {
  let min = Infinity;
  let max = -Infinity;
  let count = 0;
  for (const p of points) {
    if (p.distance === undefined) continue;
    min = Math.min(min, p.distance);
    max = Math.max(max, p.distance);
    count++;
  }
  return count >= 2 ? round(max - min, 2) : undefined;
}

/** The sum of rises between consecutive points with an altitude (no smoothing), or undefined with fewer than two. */
export function elevationGainMeters(points: readonly TrackPoint[]): number | undefined {
  let previous: number | undefined;
  let gain = 0;
  let count = 0;
  for (const p of points) {
    if (p.altitude === undefined) continue;
    if (previous !== undefined && p.altitude > previous) gain += p.altitude - previous;
    previous = p.altitude;
    count++;
  }
  return count >= 2 ? round(gain, 2) : undefined;
}

/** The mean (to 0.1) and the highest heart rate of the points that have one. */
export function heartRateSummary(points: readonly TrackPoint[]): { average: number | undefined; max: number | undefined } {
  let sum = 0;
  let count = 0;
  let max: number | undefined;
  for (const p of points) {
    if (p.heartRate === undefined) continue;
    sum += p.heartRate;
    count++;
    max = max === undefined ? p.heartRate : Math.max(max, p.heartRate);
  }
  return { average: count > 0 ? round(sum / count, 1) : undefined, max };
}

/**
 * One `heart_rate` sample per point with a heart rate, and one cadence sample per point with
 * a cadence above 0 when the activity tells what it counts: `step_cadence` (twice the
 * strides per minute the files give) or `cycling_cadence`. Instants, at the point's time.
 */
export function pointSamples(points: readonly TrackPoint[], activityType: string, provenance: Provenance): QuantitySampleRecord[] {
  const kind = cadenceKind(activityType);
  const samples: QuantitySampleRecord[] = [];
  for (const p of points) {
    const base = { start_date: p.timestamp, unit: "count/min", locator: p.locator, ...provenance };
    if (p.heartRate !== undefined) samples.push({ ...base, type: "heart_rate", value: p.heartRate });
    if (p.cadence === undefined || p.cadence <= 0 || kind === null) continue;
    if (kind === "steps") samples.push({ ...base, type: "step_cadence", value: round(p.cadence * 2, 2) });
    else samples.push({ ...base, type: "cycling_cadence", value: round(p.cadence, 2) });
  }
  return samples;
}

/** A heart rate reading worth keeping: a finite number above 0. */
export function heartRateOf(value: unknown): number | undefined {
  const n = numberOf(value);
  return n !== undefined && n > 0 ? n : undefined;
}

/** A number of at least 0, or undefined. */
export function amountOf(value: unknown): number | undefined {
  const n = numberOf(value);
  return n !== undefined && n >= 0 ? n : undefined;
}

export function round(value: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

/** Seconds east of UTC as `±hh:mm`, rounded to 15 minutes; undefined beyond ±14 h. */
export function utcOffset(seconds: number): string | undefined {
  const minutes = Math.round(seconds / 900) * 15;
  if (!Number.isFinite(minutes) || Math.abs(minutes) > 14 * 60) return undefined;
  const sign = minutes < 0 ? "-" : "+";
  const abs = Math.abs(minutes);
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
}
