import { Prisma } from "@svc/db";
import type { DbClient } from "../../platform/index.ts";
import type { TrackSummary } from "./track-summary.ts";
import { CHUNK_LAYOUT_CTES, chunksOfPage } from "../row-chunk-repository.ts";
import { chunkLayout } from "../row-chunks.ts";

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
  timestamp: Date;
  latitude: number;
  longitude: number;
  altitude_meters: number | null;
  speed: number | null;
  heart_rate: number | null;
  accuracy_meters: number | null;
}

/** The points of the chunks (aliased `c`) that meet `where`, as rows of the columns of RoutePointRow. */
const pointsOf = (where: Prisma.Sql) => Prisma.sql`
  SELECT c.first_at + p.offset_ms * interval '1 ms' AS timestamp, p.latitude, p.longitude, p.altitude_meters, p.speed, p.heart_rate, p.accuracy_meters
  FROM workout_route_chunks c,
    unnest(c.offsets_ms, c.latitude, c.longitude, c.altitude_meters, c.speed, c.heart_rate, c.accuracy_meters)
      AS p(offset_ms, latitude, longitude, altitude_meters, speed, heart_rate, accuracy_meters)
  WHERE ${where}`;

const ofWorkout = (userId: string, workoutId: string) => Prisma.sql`c.user_id = ${userId}::uuid AND c.workout_id = ${workoutId}::uuid`;

/**
 * Taken by every transaction that writes a user's route points or moves their legacy rows
 * (row-chunk-move.ts), before it locks any workout row.
 */
export async function lockUserRoutePoints(db: DbClient, userId: string): Promise<void> {
  await db.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended('workout_route_points:' || ${userId}, 0))`;
}

/** The first workout (by user and workout id) with points left in workout_route_points_legacy, or null when none is. */
export async function nextLegacyRouteWorkout(db: DbClient): Promise<{ userId: string; workoutId: string } | null> {
  const [row] = await db.$queryRaw<Array<{ user_id: string; workout_id: string }>>`
    SELECT user_id, workout_id FROM workout_route_points_legacy ORDER BY user_id, workout_id, timestamp LIMIT 1`;
  return row ? { userId: row.user_id, workoutId: row.workout_id } : null;
}

/**
 * Moves a workout's points from workout_route_points_legacy into chunks laid out as
 * chunkLayout lays them out (the SQL of the first text of the migration
 * *_grouped_rr_and_route_points, for one workout); returns how many it moved. Call after
 * lockUserRoutePoints.
 */
export async function moveLegacyRoutePoints(db: DbClient, userId: string, workoutId: string): Promise<number> {
  const [row] = await db.$queryRaw<Array<{ moved: number }>>`
    WITH moved AS (
      DELETE FROM workout_route_points_legacy WHERE user_id = ${userId}::uuid AND workout_id = ${workoutId}::uuid
      RETURNING timestamp, latitude, longitude, altitude_meters, speed, heart_rate, accuracy_meters
    ), ${CHUNK_LAYOUT_CTES}, inserted AS (
      INSERT INTO workout_route_chunks (user_id, workout_id, chunk_no, first_at, last_at, point_count, offsets_ms, latitude, longitude,
        altitude_meters, speed, heart_rate, accuracy_meters)
      SELECT ${userId}::uuid, ${workoutId}::uuid, d.chunk_no, d.first_at, max(d.timestamp), count(*)::int,
        array_agg((extract(epoch FROM d.timestamp - d.first_at) * 1000)::int ORDER BY d.timestamp),
        array_agg(d.latitude ORDER BY d.timestamp), array_agg(d.longitude ORDER BY d.timestamp),
        array_agg(d.altitude_meters ORDER BY d.timestamp), array_agg(d.speed ORDER BY d.timestamp),
        array_agg(d.heart_rate ORDER BY d.timestamp), array_agg(d.accuracy_meters ORDER BY d.timestamp)
      FROM dated d
      GROUP BY d.chunk_no, d.first_at
      RETURNING point_count
    )
    SELECT coalesce(sum(point_count), 0)::int AS moved FROM inserted`;
  return row?.moved ?? 0;
}

/**
 * Makes a workout's stored route exactly `points` (one per timestamp), stored in chunks
 * (records/row-chunks.ts) that are written anew when any point differs. Returns whether
 * anything changed.
 */
export async function replaceRoutePoints(db: DbClient, userId: string, workoutId: string, points: readonly RoutePointWrite[]): Promise<boolean> {
  const ordered = [...points].sort((a, b) => a.timestamp.getTime() - b.timestamp.getTime());
  const column = <K extends keyof RoutePointWrite>(key: K) => ordered.map((p) => p[key]);
  const incoming = Prisma.sql`${column("timestamp")}::timestamptz[], ${column("latitude")}::float8[], ${column("longitude")}::float8[],
    ${column("altitudeMeters")}::float8[], ${column("speed")}::float8[], ${column("heartRate")}::float8[], ${column("accuracyMeters")}::float8[]`;
  const [diff] = await db.$queryRaw<Array<{ differs: boolean }>>`
    WITH n AS (
      SELECT * FROM unnest(${incoming}) AS n(timestamp, latitude, longitude, altitude_meters, speed, heart_rate, accuracy_meters)
    ), stored AS (${pointsOf(ofWorkout(userId, workoutId))})
    SELECT EXISTS (SELECT * FROM n EXCEPT SELECT * FROM stored) OR EXISTS (SELECT * FROM stored EXCEPT SELECT * FROM n) AS differs`;
  if (!diff?.differs) return false;
  await db.$executeRaw`DELETE FROM workout_route_chunks WHERE user_id = ${userId}::uuid AND workout_id = ${workoutId}::uuid`;
  const { chunkNos, offsetsMs } = chunkLayout(column("timestamp"));
  await db.$executeRaw`
    INSERT INTO workout_route_chunks (user_id, workout_id, chunk_no, first_at, last_at, point_count, offsets_ms, latitude, longitude,
      altitude_meters, speed, heart_rate, accuracy_meters)
    SELECT ${userId}::uuid, ${workoutId}::uuid, n.chunk_no, min(n.timestamp), max(n.timestamp), count(*)::int,
      array_agg(n.offset_ms ORDER BY n.ord), array_agg(n.latitude ORDER BY n.ord), array_agg(n.longitude ORDER BY n.ord),
      array_agg(n.altitude_meters ORDER BY n.ord), array_agg(n.speed ORDER BY n.ord), array_agg(n.heart_rate ORDER BY n.ord),
      array_agg(n.accuracy_meters ORDER BY n.ord)
    FROM unnest(${chunkNos}::int[], ${offsetsMs}::int[], ${incoming})
      WITH ORDINALITY AS n(chunk_no, offset_ms, timestamp, latitude, longitude, altitude_meters, speed, heart_rate, accuracy_meters, ord)
    GROUP BY n.chunk_no`;
  return true;
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
  /** The time of the last point of the previous page. */
  after?: Date | undefined;
  limit: number;
}

/**
 * One page of a workout's route ordered by timestamp; one row more than `limit`. Unnests only
 * the chunks the page needs, and adds the points not yet moved out of
 * workout_route_points_legacy (an index probe when the workout has none).
 */
export async function selectRoutePoints(db: DbClient, q: RoutePageQuery): Promise<RoutePointRow[]> {
  const chunks = await chunksOfPage(db, "workout_route_chunks", { ...q, chunksOf: ofWorkout(q.userId, q.workoutId) });
  const rows = (r: Prisma.Sql) => {
    const parts = [Prisma.sql`true`];
    if (q.start) parts.push(Prisma.sql`${r}.timestamp >= ${q.start}`);
    if (q.end) parts.push(Prisma.sql`${r}.timestamp < ${q.end}`);
    if (q.after) parts.push(Prisma.sql`${r}.timestamp > ${q.after}`);
    return Prisma.join(parts, " AND ");
  };
  return db.$queryRaw<RoutePointRow[]>`
    SELECT r.* FROM (
      SELECT * FROM (${pointsOf(chunks)}) k WHERE ${rows(Prisma.raw("k"))}
      UNION ALL
      (SELECT l.timestamp, l.latitude, l.longitude, l.altitude_meters, l.speed, l.heart_rate, l.accuracy_meters
       FROM workout_route_points_legacy l
       WHERE l.user_id = ${q.userId}::uuid AND l.workout_id = ${q.workoutId}::uuid AND ${rows(Prisma.raw("l"))}
       ORDER BY l.timestamp
       LIMIT ${q.limit + 1})
    ) r
    ORDER BY r.timestamp
    LIMIT ${q.limit + 1}`;
}
