import { Prisma } from "@svc/db";
import type { DbClient } from "../../platform/index.ts";
import { categoryIdentity } from "./category-sample-repository.ts";

/**
 * category_samples_legacy: category samples stored one wide row each before the upgrade to
 * series, until the job data-moves moves them (category-sample-move.ts; docs/decisions.md,
 * "Online data moves"). A move stores them as the upgrade's migration did before: the series
 * first, each taking the zone most of its samples have, then each sample with its id.
 */

/** The fields of a legacy row `alias` that its series holds, as one jsonb value (it hashes; nulls match). */
const seriesFieldsOf = (alias: string) => {
  const col = (name: string) => Prisma.raw(`${alias}.${name}`);
  return Prisma.sql`jsonb_build_array(${col("type")}, ${col("provider")}, ${col("source")}, ${col("source_key")}, ${col("device")},
    ${col("on_body")}, ${col("source_name")}, ${col("source_bundle_id")}, ${col("device_model")}, ${col("was_user_entered")})`;
};

/** metadata.timezone of a legacy row `l` when it is text (as the writer sets it), else null. */
const LEGACY_ZONE = Prisma.sql`nullif(CASE WHEN jsonb_typeof(l.metadata->'timezone') = 'string' THEN l.metadata->>'timezone' END, '')`;

/** A user with rows not moved yet, the first in key order; null when none is left. */
export async function firstLegacyCategoryUser(db: DbClient): Promise<string | null> {
  const rows = await db.$queryRaw<Array<{ user_id: string }>>`
    SELECT user_id::text FROM category_samples_legacy ORDER BY user_id LIMIT 1`;
  return rows[0]?.user_id ?? null;
}

/**
 * Locks up to `limit` rows not moved yet of one series of the user (that of the user's first
 * row by id), the first by id, until the transaction ends, and returns their ids: a deletion
 * of any of them waits for the move, and then finds them moved.
 */
export async function lockLegacyCategoryRows(db: DbClient, userId: string, limit: number): Promise<bigint[]> {
  const rows = await db.$queryRaw<Array<{ id: bigint }>>`
    WITH first AS (SELECT * FROM category_samples_legacy WHERE user_id = ${userId}::uuid ORDER BY id LIMIT 1)
    SELECT l.id FROM category_samples_legacy l, first f
    WHERE l.user_id = f.user_id AND l.type = f.type AND ${seriesFieldsOf("l")} = ${seriesFieldsOf("f")}
    ORDER BY l.id LIMIT ${limit}
    FOR UPDATE OF l`;
  return rows.map((row) => row.id);
}

/**
 * Stores the series of these legacy rows that are not stored yet, each with the zone most of
 * the user's legacy rows of that series have (read only for a series not stored yet).
 */
export async function insertSeriesOfLegacyRows(db: DbClient, userId: string, ids: readonly bigint[]): Promise<void> {
  const missing = await db.$queryRaw<Array<{ type: string; fields: unknown[] }>>`
    SELECT DISTINCT l.type, ${seriesFieldsOf("l")} AS fields
    FROM category_samples_legacy l
    WHERE l.user_id = ${userId}::uuid AND l.id = ANY(${ids as bigint[]}::bigint[])
      AND NOT EXISTS (SELECT 1 FROM category_sample_series r
        WHERE r.user_id = l.user_id AND r.type = l.type AND ${seriesFieldsOf("r")} = ${seriesFieldsOf("l")})`;
  if (missing.length === 0) return;
  await db.$executeRaw`
    INSERT INTO category_sample_series (user_id, type, provider, source, source_key, device, on_body, source_name, source_bundle_id,
      device_model, was_user_entered, timezone)
    SELECT l.user_id, l.type, l.provider, l.source, l.source_key, l.device, l.on_body, l.source_name, l.source_bundle_id, l.device_model,
      l.was_user_entered, mode() WITHIN GROUP (ORDER BY ${LEGACY_ZONE})
    FROM category_samples_legacy l
    WHERE l.user_id = ${userId}::uuid AND l.type = ANY(${[...new Set(missing.map((m) => m.type))]}::text[])
      AND ${seriesFieldsOf("l")} = ANY(${missing.map((m) => JSON.stringify(m.fields))}::jsonb[])
    GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11
    ORDER BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11
    ON CONFLICT (user_id, type, provider, source_key, on_body, source, device, source_name, source_bundle_id, device_model,
      was_user_entered) DO NOTHING`;
}

/**
 * Deletes these legacy rows and stores each in its series (stored already), with its id, its
 * identity, its provider's id as uuid when it is an uppercase UUID, its zone only where it is
 * not its series' ('' for none) and its metadata without the zone (null when empty); in the
 * order of series, start and id. Returns how many were deleted and how many stored.
 */
export async function moveLegacyRows(db: DbClient, userId: string, ids: readonly bigint[]): Promise<{ deleted: number; stored: number }> {
  const identity = categoryIdentity(Prisma.sql`w.provider`, Prisma.sql`w.type`, Prisma.sql`w.dedupe_key`);
  const rows = await db.$queryRaw<Array<{ deleted: number; stored: number }>>`
    WITH moved AS (
      DELETE FROM category_samples_legacy WHERE user_id = ${userId}::uuid AND id = ANY(${ids as bigint[]}::bigint[]) RETURNING *
    ), stored AS (
      INSERT INTO category_samples (user_id, series_id, start_date, id, end_date, ingested_at, identity, raw_object_id, external_uuid, value,
        external_id, timezone, metadata)
      SELECT w.user_id, r.id, w.start_date, w.id, w.end_date, w.ingested_at, ${identity}, w.raw_object_id,
        CASE WHEN w.uppercase_uuid THEN w.external_id::uuid END, w.value, CASE WHEN w.uppercase_uuid THEN NULL ELSE w.external_id END,
        CASE WHEN w.zone IS NOT DISTINCT FROM r.timezone THEN NULL ELSE coalesce(w.zone, '') END,
        nullif(CASE WHEN w.zone IS NULL THEN w.metadata ELSE w.metadata - 'timezone' END, '{}'::jsonb)
      FROM (
        SELECT l.*, coalesce(l.external_id ~ '^[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}$', false) AS uppercase_uuid,
          ${LEGACY_ZONE} AS zone, ${seriesFieldsOf("l")} AS fields
        FROM moved l
      ) w
      JOIN category_sample_series r ON r.user_id = w.user_id AND r.type = w.type AND ${seriesFieldsOf("r")} = w.fields
      ORDER BY r.id, w.start_date, w.id
      RETURNING 1
    )
    SELECT (SELECT count(*) FROM moved)::int AS deleted, (SELECT count(*) FROM stored)::int AS stored`;
  return rows[0]!;
}

/** Deletes the provider's legacy rows with these dedupe keys, of any type; returns their types. */
export function deleteLegacyCategorySamplesByDedupeKeys(db: DbClient, batch: { userId: string; provider: string }, dedupeKeys: readonly string[]) {
  return db.$queryRaw<Array<{ type: string }>>`
    DELETE FROM category_samples_legacy
    WHERE user_id = ${batch.userId}::uuid AND provider = ${batch.provider} AND dedupe_key = ANY(${dedupeKeys as string[]}::text[])
    RETURNING type`;
}
