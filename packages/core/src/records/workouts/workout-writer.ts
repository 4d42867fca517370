import { summarizeTrack } from "./track-summary.ts";
import { type DbClient, isTimeZone } from "../../platform/index.ts";
import { insertRejectedRecords } from "../rejected-record-repository.ts";
import { upsertWorkouts, type WorkoutWrite } from "./workout-repository.ts";
import { lockUserRoutePoints, moveLegacyRoutePoints, replaceRoutePoints, saveTrackSummary, type RoutePointWrite } from "./workout-route-repository.ts";
import { partitionRecords, writeSummary } from "../record-batches.ts";
import { identityOf, normalizeProvenance } from "../record-fields.ts";
import { utcDays } from "../utc-days.ts";
import type { RecordBatch, WriteSummary } from "../record-batches.ts";

/** One GPS fix of a workout's route. */
export interface RoutePointRecord {
  timestamp: Date;
  /** Degrees, -90 to 90. */
  latitude: number;
  /** Degrees, -180 to 180. */
  longitude: number;
  /** Meters above sea level. */
  altitude?: number | null | undefined;
  /** Meters per second. */
  speed?: number | null | undefined;
  /** count/min */
  heart_rate?: number | null | undefined;
  /** Horizontal accuracy in meters. */
  accuracy?: number | null | undefined;
}

/** A workout as a parser produces it. */
export interface WorkoutRecord {
  /** snake_case activity, e.g. `running`, `cycling`, `strength_training`. */
  activity_type: string;
  name?: string | null | undefined;
  start_date: Date;
  end_date: Date;
  /** IANA zone or ±hh:mm offset where it took place. */
  timezone?: string | null | undefined;
  /** Moving time; missing means end - start. Longer than end - start (by over 1 s), end - start is stored. */
  duration_seconds?: number | null | undefined;
  distance_meters?: number | null | undefined;
  active_energy_kcal?: number | null | undefined;
  total_energy_kcal?: number | null | undefined;
  /** count/min */
  average_heart_rate?: number | null | undefined;
  max_heart_rate?: number | null | undefined;
  elevation_gain_meters?: number | null | undefined;
  steps?: number | null | undefined;
  source?: string | null | undefined;
  device?: string | null | undefined;
  on_body?: boolean | undefined;
  source_name?: string | null | undefined;
  external_id?: string | null | undefined;
  metadata?: Record<string, unknown> | undefined;
  locator?: string | undefined;
  /**
   * When given (even empty), replaces the workout's stored route and recomputes its track
   * summary; when missing, the stored route stays. Points with an invalid time, latitude or
   * longitude are left out (one rejected record per workout says how many).
   */
  route?: readonly RoutePointRecord[] | undefined;
}

const ACTIVITY_TYPE = /^[a-z][a-z0-9_]{0,63}$/;
/** How much longer than its span a workout's duration may be: providers round both to the second. */
const DURATION_TOLERANCE_SECONDS = 1;
const CHUNK = 1000;

type Normalized = { workout: WorkoutWrite; route: RoutePointWrite[] | undefined; droppedPoints: number; locator: string };

/**
 * Stores workouts idempotently (identity: the provider's id, else times, device and source
 * name). A workout carrying `route` gets exactly those points and a recomputed
 * `workout_track_summaries` row (geo/track-summary.ts); a changed route counts as an update.
 * What cannot be stored becomes a rejected record that never quotes a value. A duration
 * longer than end minus start (by over 1 s) would contradict the end: end minus start is
 * stored and the duration as sent kept in metadata. Call inside the caller's transaction.
 */
export async function writeWorkouts(db: DbClient, batch: RecordBatch, records: readonly WorkoutRecord[]): Promise<WriteSummary> {
  const partitioned = partitionRecords(records, "workout", (r, locator) => normalizeWorkout(r, batch.provider, locator), (n) => n.workout.dedupeKey);
  const all = [...partitioned.byIdentity.values()];
  // Besides whole workouts, one rejected record per workout that lost route points.
  for (const n of all) {
    if (n.droppedPoints > 0) {
      partitioned.rejected.push({
        recordKind: "workout_route_point",
        locator: n.locator,
        reason: `route: ${n.droppedPoints} point(s) with an invalid timestamp, latitude (-90 to 90) or longitude (-180 to 180) were left out`,
      });
    }
  }
  if (all.some((n) => n.route !== undefined)) await lockUserRoutePoints(db, batch.userId);
  const counts = { inserted: 0, updated: 0 };
  const days = new Set<string>();
  for (let i = 0; i < all.length; i += CHUNK) {
    const chunk = all.slice(i, i + CHUNK);
    const { changed, ids } = await upsertWorkouts(db, { ...batch, rawObjectId: batch.rawObjectId ?? null }, chunk.map((n) => n.workout));
    const changedIds = new Set<string>();
    for (const row of changed) {
      changedIds.add(row.id);
      if (row.inserted) counts.inserted++;
      else counts.updated++;
      for (const day of utcDays(row.start_date, row.end_date)) days.add(day);
    }
    for (const n of chunk) {
      const id = ids.get(n.workout.dedupeKey);
      if (id === undefined || n.route === undefined) continue; // tombstoned, or no route sent
      // Points an upgrade left behind join the chunks first, so they are compared and replaced as stored ones.
      await moveLegacyRoutePoints(db, batch.userId, id);
      if (!(await replaceRoutePoints(db, batch.userId, id, n.route))) continue;
      await saveTrackSummary(db, batch.userId, id, summarizeTrack(n.route));
      if (changedIds.has(id)) continue;
      counts.updated++;
      for (const day of utcDays(n.workout.startDate, n.workout.endDate)) days.add(day);
    }
  }
  await insertRejectedRecords(db, batch, partitioned.rejected);
  const types = counts.inserted + counts.updated > 0 ? ["workout"] : [];
  return writeSummary(partitioned, { ...counts, types, days });
}

const isValidDate = (d: unknown): d is Date => d instanceof Date && !Number.isNaN(d.getTime());

/** A non-negative finite number, or null; a reason naming the field otherwise. */
function optionalAmount(name: string, value: number | null | undefined): number | null | { reason: string } {
  if (value === undefined || value === null) return null;
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) return { reason: `${name} must be a non-negative number` };
  return value;
}

/** An optional point field: kept when finite (and non-negative where asked), else null. */
const pointField = (value: number | null | undefined, nonNegative = false) =>
  typeof value === "number" && Number.isFinite(value) && (!nonNegative || value >= 0) ? value : null;

/** Valid points sorted by time, one per timestamp (the last given wins), and how many were left out. */
function normalizeRoute(route: readonly RoutePointRecord[]): { points: RoutePointWrite[]; dropped: number } {
  const byTime = new Map<number, RoutePointWrite>();
  let dropped = 0;
  for (const p of route) {
    const valid =
      isValidDate(p.timestamp) &&
      typeof p.latitude === "number" && Number.isFinite(p.latitude) && p.latitude >= -90 && p.latitude <= 90 &&
      typeof p.longitude === "number" && Number.isFinite(p.longitude) && p.longitude >= -180 && p.longitude <= 180;
    if (!valid) {
      dropped++;
      continue;
    }
    byTime.set(p.timestamp.getTime(), {
      timestamp: p.timestamp,
      latitude: p.latitude,
      longitude: p.longitude,
      altitudeMeters: pointField(p.altitude),
      speed: pointField(p.speed, true),
      heartRate: pointField(p.heart_rate, true),
      accuracyMeters: pointField(p.accuracy, true),
    });
  }
  const points = [...byTime.entries()].sort(([a], [b]) => a - b).map(([, point]) => point);
  return { points, dropped };
}

function normalizeWorkout(record: WorkoutRecord, provider: string, locator: string): Normalized | { reason: string } {
  if (typeof record.activity_type !== "string" || !ACTIVITY_TYPE.test(record.activity_type)) {
    return { reason: "activity_type is not a snake_case name of at most 64 characters" };
  }
  const start = record.start_date;
  const end = record.end_date;
  if (!isValidDate(start) || !isValidDate(end)) return { reason: "start_date or end_date is not a valid time" };
  if (end < start) return { reason: "end_date is before start_date" };
  const fields = {
    durationSeconds: optionalAmount("duration_seconds", record.duration_seconds),
    distanceMeters: optionalAmount("distance_meters", record.distance_meters),
    activeEnergyKcal: optionalAmount("active_energy_kcal", record.active_energy_kcal),
    totalEnergyKcal: optionalAmount("total_energy_kcal", record.total_energy_kcal),
    averageHeartRate: optionalAmount("average_heart_rate", record.average_heart_rate),
    maxHeartRate: optionalAmount("max_heart_rate", record.max_heart_rate),
    elevationGainMeters: optionalAmount("elevation_gain_meters", record.elevation_gain_meters),
    steps: optionalAmount("steps", record.steps),
  };
  for (const value of Object.values(fields)) if (value !== null && typeof value === "object") return value;
  const given = fields as Record<keyof typeof fields, number | null>;
  const spanSeconds = (end.getTime() - start.getTime()) / 1000;
  const overlong = given.durationSeconds !== null && given.durationSeconds > spanSeconds + DURATION_TOLERANCE_SECONDS;
  const route = record.route === undefined ? undefined : normalizeRoute(record.route);
  // The zone has its own column here rather than metadata.timezone.
  const provenance = normalizeProvenance({ ...record, timezone: null }, provider);
  // A duration longer than the span would contradict the end: the span is stored, the value as sent kept in metadata.
  if (overlong) provenance.metadata.duration_seconds_as_sent = given.durationSeconds;
  return {
    locator,
    route: route?.points,
    droppedPoints: route?.dropped ?? 0,
    workout: {
      activityType: record.activity_type,
      name: record.name ?? null,
      startDate: start,
      endDate: end,
      timezone: record.timezone && isTimeZone(record.timezone) ? record.timezone : null,
      ...given,
      durationSeconds: overlong ? spanSeconds : (given.durationSeconds ?? spanSeconds),
      ...provenance,
      dedupeKey: identityOf(provenance, start, end),
    },
  };
}
