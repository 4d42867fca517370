import { Prisma } from "@svc/db";
import type { DbClient } from "../../platform/index.ts";
import type { TrackSummary } from "./track-summary.ts";
import type { AfterTimeBigint } from "../record-cursors.ts";

export interface RoutePointWrite {
  timestamp: Date;
  latitude: number;
  longitude: number;
  altitudeMeters: number | null;
  speed: number | null;
  heartRate: number | null;
  accuracyMeters: number | null;
}

export interface RoutePointRow {
  id: bigint;
  timestamp: Date;
  latitude: number;
  longitude: number;
  altitude_meters: number | null;
  speed: number | null;
  heart_rate: number | null;
  accuracy_meters: number | null;
}

/**
 * Makes a workout's stored route exactly `points` (one per timestamp): deletes points
 * whose timestamp is gone, inserts new ones and updates changed ones. Returns whether
 * anything changed.
 */
export async function replaceRoutePoints(db: DbClient, userId: string, workoutId: string, points: readonly RoutePointWrite[]): Promise<boolean> {
  const column = <K extends keyof RoutePointWrite>(key: K) => points.map((p) => p[key]);
  const [result] = await db.$queryRaw<Array<{ changed: number }>>`
    WITH incoming AS (
      SELECT * FROM unnest(${column("timestamp")}::timestamptz[], ${column("latitude")}::float8[],
        ${column("longitude")}::float8[], ${column("altitudeMeters")}::float8[], ${column("speed")}::float8[],
        ${column("heartRate")}::float8[], ${column("accuracyMeters")}::float8[])
        AS n(timestamp, latitude, longitude, altitude_meters, speed, heart_rate, accuracy_meters)
    ),
    deleted AS (
      DELETE FROM workout_route_points p
      WHERE p.user_id = ${userId}::uuid AND p.workout_id = ${workoutId}::uuid AND NOT EXISTS (SELECT 1 FROM incoming i WHERE i.timestamp = p.timestamp)
      RETURNING 1
    ),
    upserted AS (
      INSERT INTO workout_route_points AS p (user_id, workout_id, timestamp, latitude, longitude, altitude_meters, speed, heart_rate, accuracy_meters)
      SELECT ${userId}::uuid, ${workoutId}::uuid, i.* FROM incoming i ORDER BY i.timestamp
      ON CONFLICT (user_id, workout_id, timestamp) DO UPDATE SET
        latitude = excluded.latitude, longitude = excluded.longitude, altitude_meters = excluded.altitude_meters,
        speed = excluded.speed, heart_rate = excluded.heart_rate, accuracy_meters = excluded.accuracy_meters
      WHERE (p.latitude, p.longitude, p.altitude_meters, p.speed, p.heart_rate, p.accuracy_meters)
        IS DISTINCT FROM (excluded.latitude, excluded.longitude, excluded.altitude_meters, excluded.speed,
          excluded.heart_rate, excluded.accuracy_meters)
      RETURNING 1
    )
    SELECT ((SELECT count(*) FROM deleted) + (SELECT count(*) FROM upserted))::int AS changed`;
  return (result?.changed ?? 0) > 0;
}

/** Stores a workout's track summary, or removes it when the route is empty (null). */
export async function saveTrackSummary(db: DbClient, userId: string, workoutId: string, summary: TrackSummary | null): Promise<void> {
  if (summary === null) {
    await db.workoutTrackSummary.deleteMany({ where: { userId, workoutId } });
    return;
  }
  const { pointCount, distanceMeters, elevationGainMeters, elevationLossMeters, minLatitude, maxLatitude, minLongitude, maxLongitude, firstPointAt, lastPointAt } =
    summary;
  const data = { pointCount, distanceMeters, elevationGainMeters, elevationLossMeters, minLatitude, maxLatitude, minLongitude, maxLongitude, firstPointAt, lastPointAt };
  await db.workoutTrackSummary.upsert({ where: { userId_workoutId: { userId, workoutId } }, create: { userId, workoutId, ...data }, update: data });
}

export interface RoutePageQuery {
  userId: string;
  workoutId: string;
  start?: Date | undefined;
  end?: Date | undefined;
  after?: AfterTimeBigint | undefined;
  limit: number;
}

/** One page of a workout's route ordered by timestamp; one row more than `limit`. */
export function selectRoutePoints(db: DbClient, q: RoutePageQuery): Promise<RoutePointRow[]> {
  const parts = [Prisma.sql`user_id = ${q.userId}::uuid`, Prisma.sql`workout_id = ${q.workoutId}::uuid`];
  if (q.start) parts.push(Prisma.sql`timestamp >= ${q.start}`);
  if (q.end) parts.push(Prisma.sql`timestamp < ${q.end}`);
  if (q.after) parts.push(Prisma.sql`(timestamp, id) > (${q.after.t}, ${q.after.id})`);
  return db.$queryRaw<RoutePointRow[]>`
    SELECT id, timestamp, latitude, longitude, altitude_meters, speed, heart_rate, accuracy_meters
    FROM workout_route_points
    WHERE ${Prisma.join(parts, " AND ")}
    ORDER BY timestamp, id
    LIMIT ${q.limit + 1}`;
}
