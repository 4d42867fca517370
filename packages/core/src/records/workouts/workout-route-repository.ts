import { Prisma } from "@svc/db";
import type { DbClient } from "../../platform/index.ts";
import type { TrackSummary } from "./track-summary.ts";
import { chunksOfPage } from "../row-chunk-repository.ts";
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

/** One page of a workout's route ordered by timestamp; one row more than `limit`. Unnests only the chunks the page needs. */
export async function selectRoutePoints(db: DbClient, q: RoutePageQuery): Promise<RoutePointRow[]> {
  const chunks = await chunksOfPage(db, "workout_route_chunks", { ...q, chunksOf: ofWorkout(q.userId, q.workoutId) });
  const rows = [Prisma.sql`true`];
  if (q.start) rows.push(Prisma.sql`r.timestamp >= ${q.start}`);
  if (q.end) rows.push(Prisma.sql`r.timestamp < ${q.end}`);
  if (q.after) rows.push(Prisma.sql`r.timestamp > ${q.after}`);
  return db.$queryRaw<RoutePointRow[]>`
    SELECT r.* FROM (${pointsOf(chunks)}) r
    WHERE ${Prisma.join(rows, " AND ")}
    ORDER BY r.timestamp
    LIMIT ${q.limit + 1}`;
}
