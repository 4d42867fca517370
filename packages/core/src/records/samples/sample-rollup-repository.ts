import type { DbClient } from "../../platform/index.ts";
import { markSeriesHoursStale, markTypesStale } from "./merged-stale-repository.ts";

/**
 * quantity_sample_rollups: count, sum, min and max of the samples of a series that start in
 * one quarter hour of UTC (a local hour or day of any zone today is a union of quarter hours),
 * from which samples/stats answers in the view `all`. Kept exact in the transaction that
 * writes the chunks: each writer calls refreshSampleRollups with the chunks it saved.
 */

const HOUR_MS = 3_600_000;

/**
 * Computes again, from the chunks as they are now, the rollups of every series and hour among
 * `chunks` (one statement: quarters that still hold samples are written, the others deleted),
 * and marks those hours stale for the merged rollups of their types. Call after saving them,
 * in the same transaction.
 */
export async function refreshSampleRollups(db: DbClient, userId: string, chunks: ReadonlyArray<{ seriesId: bigint; hour: Date }>): Promise<void> {
  if (chunks.length === 0) return;
  const seriesIds = chunks.map((c) => String(c.seriesId));
  const hours = chunks.map((c) => c.hour);
  const times = hours.map((h) => h.getTime());
  // Bounds as constants, so that PostgreSQL plans only the partitions of these hours.
  const first = new Date(Math.min(...times));
  const end = new Date(Math.max(...times) + HOUR_MS);
  await db.$executeRaw`
    WITH pairs AS (
      SELECT DISTINCT * FROM unnest(${seriesIds}::bigint[], ${hours}::timestamptz[]) AS p(series_id, hour)
    ),
    fresh AS (
      SELECT c.series_id, c.hour + (u.start_offset / 900000) * interval '15 minutes' AS quarter, count(*)::int AS sample_count,
        sum(u.value) AS value_sum, min(u.value) AS value_min, max(u.value) AS value_max
      FROM pairs p
      JOIN quantity_sample_chunks c ON c.user_id = ${userId}::uuid AND c.series_id = p.series_id AND c.hour = p.hour
        AND c.hour >= ${first} AND c.hour < ${end}
      CROSS JOIN LATERAL unnest(c.start_offsets, c.sample_values) AS u(start_offset, value)
      WHERE u.value IS NOT NULL
      GROUP BY 1, 2
    ),
    written AS (
      INSERT INTO quantity_sample_rollups AS x (user_id, series_id, quarter, sample_count, value_sum, value_min, value_max)
      SELECT ${userId}::uuid, f.* FROM fresh f
      ON CONFLICT (user_id, series_id, quarter) DO UPDATE SET sample_count = excluded.sample_count,
        value_sum = excluded.value_sum, value_min = excluded.value_min, value_max = excluded.value_max
    )
    DELETE FROM quantity_sample_rollups x USING pairs p
    WHERE x.user_id = ${userId}::uuid AND x.series_id = p.series_id AND x.quarter >= p.hour AND x.quarter < p.hour + interval '1 hour'
      AND x.quarter >= ${first} AND x.quarter < ${end}
      AND NOT EXISTS (SELECT 1 FROM fresh f WHERE f.series_id = x.series_id AND f.quarter = x.quarter)`;
  await markSeriesHoursStale(db, userId, seriesIds, hours);
}

/**
 * Computes every rollup of the user again from the chunks, and marks all of time stale for the
 * merged rollups: for chunks written by other means than the writers (a benchmark's load).
 */
export async function rebuildUserSampleRollups(db: DbClient, userId: string): Promise<void> {
  await db.$executeRaw`DELETE FROM quantity_sample_rollups WHERE user_id = ${userId}::uuid`;
  await db.$executeRaw`
    INSERT INTO quantity_sample_rollups (user_id, series_id, quarter, sample_count, value_sum, value_min, value_max)
    SELECT c.user_id, c.series_id, c.hour + (u.start_offset / 900000) * interval '15 minutes', count(*)::int, sum(u.value),
      min(u.value), max(u.value)
    FROM quantity_sample_chunks c
    CROSS JOIN LATERAL unnest(c.start_offsets, c.sample_values) AS u(start_offset, value)
    WHERE c.user_id = ${userId}::uuid AND u.value IS NOT NULL
    GROUP BY 1, 2, 3
    ORDER BY 1, 2, 3`;
  await markTypesStale(db, userId, "every");
}
