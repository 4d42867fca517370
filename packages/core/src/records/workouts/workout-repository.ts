import { Prisma } from "@svc/db";
import type { DbClient } from "../../platform/index.ts";
import { mergeConditions, rankOfRecord, streamsCte, type MergeTable, type SqlStream } from "../merge/merge-sql-repository.ts";
import { notTombstoned } from "../tombstone-repository.ts";
import type { AfterTimeUuid, TimePageQuery } from "../record-cursors.ts";
import type { RecordPage } from "../record-pages-repository.ts";

/** A normalized workout ready to store. */
export interface WorkoutWrite {
  activityType: string;
  name: string | null;
  startDate: Date;
  endDate: Date;
  timezone: string | null;
  durationSeconds: number;
  distanceMeters: number | null;
  activeEnergyKcal: number | null;
  totalEnergyKcal: number | null;
  averageHeartRate: number | null;
  maxHeartRate: number | null;
  elevationGainMeters: number | null;
  steps: number | null;
  sourceName: string | null;
  externalId: string | null;
  metadata: Record<string, unknown>;
  source: string | null;
  sourceKey: string;
  device: string | null;
  onBody: boolean;
  dedupeKey: string;
}

export interface WorkoutRow {
  id: string;
  activity_type: string;
  name: string | null;
  start_date: Date;
  end_date: Date;
  timezone: string | null;
  duration_seconds: number;
  distance_meters: number | null;
  active_energy_kcal: number | null;
  total_energy_kcal: number | null;
  average_heart_rate: number | null;
  max_heart_rate: number | null;
  elevation_gain_meters: number | null;
  steps: number | null;
  source_name: string | null;
  external_id: string | null;
  metadata: Record<string, unknown>;
  provider: string;
  source: string | null;
  device: string | null;
  ingested_at: Date;
  /** The track summary's columns; all null when the workout has no route. */
  ts_point_count: number | null;
  ts_distance_meters: number | null;
  ts_elevation_gain_meters: number | null;
  ts_elevation_loss_meters: number | null;
  ts_min_latitude: number | null;
  ts_max_latitude: number | null;
  ts_min_longitude: number | null;
  ts_max_longitude: number | null;
  ts_first_point_at: Date | null;
  ts_last_point_at: Date | null;
  outranked?: Array<{ provider: string; source: string }>;
}

const WORKOUT_COLUMNS = Prisma.sql`s.id, s.activity_type, s.name, s.start_date, s.end_date, s.timezone, s.duration_seconds,
  s.distance_meters, s.active_energy_kcal, s.total_energy_kcal, s.average_heart_rate, s.max_heart_rate,
  s.elevation_gain_meters, s.steps, s.source_name, s.external_id, s.metadata, s.provider, s.source, s.device,
  s.ingested_at, ts.point_count AS ts_point_count, ts.distance_meters AS ts_distance_meters,
  ts.elevation_gain_meters AS ts_elevation_gain_meters, ts.elevation_loss_meters AS ts_elevation_loss_meters,
  ts.min_latitude AS ts_min_latitude, ts.max_latitude AS ts_max_latitude, ts.min_longitude AS ts_min_longitude,
  ts.max_longitude AS ts_max_longitude, ts.first_point_at AS ts_first_point_at, ts.last_point_at AS ts_last_point_at`;

/**
 * All workouts of a user are one metric, `workout`, whatever their activity type (vendors name
 * one activity differently).
 */
export const WORKOUT_TABLE: MergeTable = { table: "workouts", start: "start_date", end: "end_date", sameMetric: [] };

/**
 * Inserts new workouts and updates stored ones whose details changed; a workout the
 * provider deleted (tombstone) is not stored again. The batch must hold each dedupe key
 * once. Returns the inserted and updated rows, and the id of every stored workout of the
 * batch by dedupe key (changed or not).
 */
export async function upsertWorkouts(
  db: DbClient,
  batch: { userId: string; provider: string; rawObjectId: string | null },
  workouts: readonly WorkoutWrite[],
): Promise<{ changed: Array<{ id: string; inserted: boolean; start_date: Date; end_date: Date }>; ids: Map<string, string> }> {
  if (workouts.length === 0) return { changed: [], ids: new Map() };
  const column = <K extends keyof WorkoutWrite>(key: K) => workouts.map((w) => w[key]);
  const changed = await db.$queryRaw<Array<{ id: string; inserted: boolean; start_date: Date; end_date: Date }>>`
    INSERT INTO workouts AS q (id, user_id, provider, raw_object_id, activity_type, name, start_date, end_date, timezone,
      duration_seconds, distance_meters, active_energy_kcal, total_energy_kcal, average_heart_rate, max_heart_rate,
      elevation_gain_meters, steps, source_name, external_id, metadata, source, source_key, device, on_body, dedupe_key)
    SELECT gen_random_uuid(), ${batch.userId}::uuid, ${batch.provider}, ${batch.rawObjectId}::uuid, n.*
    FROM unnest(${column("activityType")}::text[], ${column("name")}::text[], ${column("startDate")}::timestamptz[],
      ${column("endDate")}::timestamptz[], ${column("timezone")}::text[], ${column("durationSeconds")}::float8[],
      ${column("distanceMeters")}::float8[], ${column("activeEnergyKcal")}::float8[], ${column("totalEnergyKcal")}::float8[],
      ${column("averageHeartRate")}::float8[], ${column("maxHeartRate")}::float8[], ${column("elevationGainMeters")}::float8[],
      ${column("steps")}::float8[], ${column("sourceName")}::text[], ${column("externalId")}::text[],
      ${workouts.map((w) => JSON.stringify(w.metadata))}::jsonb[], ${column("source")}::text[], ${column("sourceKey")}::text[],
      ${column("device")}::text[], ${column("onBody")}::boolean[], ${column("dedupeKey")}::text[])
      AS n(activity_type, name, start_date, end_date, timezone, duration_seconds, distance_meters, active_energy_kcal,
        total_energy_kcal, average_heart_rate, max_heart_rate, elevation_gain_meters, steps, source_name, external_id,
        metadata, source, source_key, device, on_body, dedupe_key)
    WHERE ${notTombstoned(batch, "workout")}
    ON CONFLICT (user_id, provider, dedupe_key) DO UPDATE SET
      activity_type = excluded.activity_type, name = excluded.name, start_date = excluded.start_date,
      end_date = excluded.end_date, timezone = excluded.timezone, duration_seconds = excluded.duration_seconds,
      distance_meters = excluded.distance_meters, active_energy_kcal = excluded.active_energy_kcal,
      total_energy_kcal = excluded.total_energy_kcal, average_heart_rate = excluded.average_heart_rate,
      max_heart_rate = excluded.max_heart_rate, elevation_gain_meters = excluded.elevation_gain_meters,
      steps = excluded.steps, source_name = excluded.source_name, external_id = excluded.external_id,
      metadata = excluded.metadata, source = excluded.source, source_key = excluded.source_key,
      device = excluded.device, on_body = excluded.on_body, raw_object_id = excluded.raw_object_id, ingested_at = now()
    WHERE (q.activity_type, q.name, q.start_date, q.end_date, q.timezone, q.duration_seconds, q.distance_meters,
        q.active_energy_kcal, q.total_energy_kcal, q.average_heart_rate, q.max_heart_rate, q.elevation_gain_meters,
        q.steps, q.source_name, q.external_id, q.metadata, q.source, q.device, q.on_body)
      IS DISTINCT FROM (excluded.activity_type, excluded.name, excluded.start_date, excluded.end_date,
        excluded.timezone, excluded.duration_seconds, excluded.distance_meters, excluded.active_energy_kcal,
        excluded.total_energy_kcal, excluded.average_heart_rate, excluded.max_heart_rate,
        excluded.elevation_gain_meters, excluded.steps, excluded.source_name, excluded.external_id,
        excluded.metadata, excluded.source, excluded.device, excluded.on_body)
    RETURNING q.id, (xmax = 0) AS inserted, q.start_date, q.end_date`;
  const stored = await db.$queryRaw<Array<{ id: string; dedupe_key: string }>>`
    SELECT id, dedupe_key FROM workouts
    WHERE user_id = ${batch.userId}::uuid AND provider = ${batch.provider} AND dedupe_key = ANY(${column("dedupeKey")}::text[])`;
  return { changed, ids: new Map(stored.map((row) => [row.dedupe_key, row.id])) };
}

export interface WorkoutPageQuery extends TimePageQuery<AfterTimeUuid> {
  /** Activity type; missing: every type. */
  type?: string | undefined;
}

function workoutFilters(q: WorkoutPageQuery): Prisma.Sql {
  const parts = [Prisma.sql`s.user_id = ${q.userId}::uuid`];
  if (q.type !== undefined) parts.push(Prisma.sql`s.activity_type = ${q.type}`);
  if (q.start) parts.push(Prisma.sql`s.start_date >= ${q.start}`);
  if (q.end) parts.push(Prisma.sql`s.start_date < ${q.end}`);
  if (q.after) parts.push(Prisma.sql`(s.start_date, s.id) > (${q.after.t}, ${q.after.id}::uuid)`);
  return Prisma.join(parts, " AND ");
}

/** One page of workouts with their track summaries, ordered by start_date then id; one row more than `limit`. */
export function selectWorkouts(db: DbClient, q: WorkoutPageQuery): Promise<WorkoutRow[]> {
  return db.$queryRaw<WorkoutRow[]>(workoutsPage(q).sql);
}

/** The times of a workout row, and its order (record-pages-repository.ts reads pages as JSON). */
const WORKOUT_PAGE = { times: ["start_date", "end_date", "ingested_at", "ts_first_point_at", "ts_last_point_at"], order: ["start_date", "id"] } as const;

/** The statement of selectWorkouts. */
export function workoutsPage(q: WorkoutPageQuery): RecordPage<WorkoutRow> {
  return {
    ...WORKOUT_PAGE,
    sql: Prisma.sql`
      SELECT ${WORKOUT_COLUMNS}
      FROM workouts s LEFT JOIN workout_track_summaries ts ON ts.user_id = s.user_id AND ts.workout_id = s.id
      WHERE ${workoutFilters(q)}
      ORDER BY s.start_date, s.id
      LIMIT ${q.limit + 1}`,
  };
}

/**
 * One page of the merged view: workouts (of any activity type) match when they share at
 * least half of the shorter one; the type filter applies to the kept workouts.
 */
export function selectMergedWorkouts(db: DbClient, q: WorkoutPageQuery, streams: readonly SqlStream[]): Promise<WorkoutRow[]> {
  const page = mergedWorkoutsPage(q, streams);
  return page ? db.$queryRaw<WorkoutRow[]>(page.sql) : Promise.resolve([]);
}

/** The statement of selectMergedWorkouts; none without streams (no workouts). */
export function mergedWorkoutsPage(q: WorkoutPageQuery, streams: readonly SqlStream[]): RecordPage<WorkoutRow> | null {
  if (streams.length === 0) return null;
  const merge = mergeConditions(WORKOUT_TABLE, "sessions");
  return {
    ...WORKOUT_PAGE,
    sql: Prisma.sql`
      WITH ${streamsCte(streams)}
      SELECT ${WORKOUT_COLUMNS}, ${merge.outranked} AS outranked
      FROM workouts s
      LEFT JOIN workout_track_summaries ts ON ts.user_id = s.user_id AND ts.workout_id = s.id
      ${rankOfRecord()}
      WHERE ${workoutFilters(q)} AND ${merge.keep}
      ORDER BY s.start_date, s.id
      LIMIT ${q.limit + 1}`,
  };
}

/** The workout if it belongs to the user, else null. */
export function findWorkoutOfUser(db: DbClient, userId: string, workoutId: string) {
  return db.workout.findFirst({ where: { id: workoutId, userId }, select: { id: true } });
}
