import { Prisma } from "@svc/db";
import type { DbClient } from "../../platform/index.ts";

/**
 * quantity_sample_merged_dirty: per user and type, the hours (UTC) whose samples changed since
 * the merged rollups were last computed, as one range (the hull of every change). A change at
 * a sample changes the merged view only of samples within the merge's reach of it: readers and
 * the job widen the range by that reach (merged-rollups.ts). Marked in the transaction of the
 * change; a deleted series marks its type for all of time by a trigger (migration
 * *_quantity_sample_rollups), whichever code deletes it.
 */

export interface StaleRange {
  from: Date;
  to: Date;
}

/** All of time as the table holds it (a JavaScript Date has no infinity). */
export const ALL_TIME: StaleRange = { from: new Date("0001-01-01T00:00:00Z"), to: new Date("9999-01-01T00:00:00Z") };

const UPSERT_HULL = Prisma.sql`ON CONFLICT (user_id, type) DO UPDATE SET from_hour = least(d.from_hour, excluded.from_hour),
  to_hour = greatest(d.to_hour, excluded.to_hour), marked_at = now()`;

/** Marks the hours of these chunks (series and hour, pairwise) stale for the types of their series. */
export async function markSeriesHoursStale(db: DbClient, userId: string, seriesIds: readonly string[], hours: readonly Date[]): Promise<void> {
  await db.$executeRaw`
    INSERT INTO quantity_sample_merged_dirty AS d (user_id, type, from_hour, to_hour)
    SELECT ${userId}::uuid, r.type, min(p.hour), max(p.hour) + interval '1 hour'
    FROM unnest(${[...seriesIds]}::bigint[], ${[...hours]}::timestamptz[]) AS p(series_id, hour)
    JOIN quantity_sample_series r ON r.user_id = ${userId}::uuid AND r.id = p.series_id
    GROUP BY r.type
    ORDER BY r.type
    ${UPSERT_HULL}`;
}

/** Marks all of time stale for these types of the user, or for every type the user has series of. */
export async function markTypesStale(db: DbClient, userId: string, types: readonly string[] | "every"): Promise<void> {
  if (types !== "every" && types.length === 0) return;
  const source =
    types === "every"
      ? Prisma.sql`SELECT DISTINCT type FROM quantity_sample_series WHERE user_id = ${userId}::uuid`
      : Prisma.sql`SELECT DISTINCT type FROM unnest(${[...types]}::text[]) AS t(type)`;
  await db.$executeRaw`
    INSERT INTO quantity_sample_merged_dirty AS d (user_id, type, from_hour, to_hour)
    SELECT ${userId}::uuid, t.type, ${ALL_TIME.from}, ${ALL_TIME.to} FROM (${source}) t
    ORDER BY t.type
    ${UPSERT_HULL}`;
}

/**
 * The stale range, locked until the caller's transaction ends: a change marked meanwhile waits,
 * and is marked after the job's work commits, so it is never lost.
 */
export async function lockStaleRange(db: DbClient, userId: string, type: string): Promise<StaleRange | undefined> {
  const [row] = await db.$queryRaw<Array<{ from_hour: Date; to_hour: Date }>>`
    SELECT from_hour, to_hour FROM quantity_sample_merged_dirty WHERE user_id = ${userId}::uuid AND type = ${type} FOR UPDATE`;
  return row ? { from: row.from_hour, to: row.to_hour } : undefined;
}

/** What is left stale once the job has computed the rollups before `from`. */
export async function setStaleFrom(db: DbClient, userId: string, type: string, from: Date): Promise<void> {
  await db.$executeRaw`UPDATE quantity_sample_merged_dirty SET from_hour = ${from} WHERE user_id = ${userId}::uuid AND type = ${type}`;
}

export async function clearStaleRange(db: DbClient, userId: string, type: string): Promise<void> {
  await db.$executeRaw`DELETE FROM quantity_sample_merged_dirty WHERE user_id = ${userId}::uuid AND type = ${type}`;
}

/** Up to `limit` users and types with a stale range, longest waiting first. */
export function listStaleTypes(db: DbClient, limit: number) {
  return db.$queryRaw<Array<{ user_id: string; type: string }>>`
    SELECT user_id::text, type FROM quantity_sample_merged_dirty ORDER BY marked_at LIMIT ${limit}`;
}
