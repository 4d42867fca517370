import { Prisma } from "@svc/db";
import type { DbClient } from "../../platform/index.ts";
import { streamsCte, type SqlStream } from "../merge/merge-sql-repository.ts";
import type { MatchKind } from "../merge/match-kinds.ts";
import { hoursAround, mergedRows, mergePadMs, sampleRows, seriesCte } from "./quantity-sample-repository.ts";

/**
 * quantity_sample_merged_rollups: count, sum, min and max per series and quarter hour of UTC of
 * the samples the merged view keeps, computed by the job from the merged view itself.
 */

/**
 * Computes the merged rollups of the user's type for the quarter hours in [from, to) (both on
 * quarter hours) again: the merged view over the samples of the range and those within the
 * merge's reach around it.
 */
export async function replaceMergedRollups(
  db: DbClient,
  q: { userId: string; type: string },
  range: { from: Date; to: Date },
  merged: { streams: readonly SqlStream[]; kind: MatchKind },
): Promise<void> {
  await db.$executeRaw`
    DELETE FROM quantity_sample_merged_rollups x USING quantity_sample_series r
    WHERE r.user_id = ${q.userId}::uuid AND r.type = ${q.type}
      AND x.user_id = ${q.userId}::uuid AND x.series_id = r.id AND x.quarter >= ${range.from} AND x.quarter < ${range.to}`;
  const padMs = mergePadMs(merged.kind, merged.streams);
  const rows = sampleRows(q.userId, hoursAround(new Date(range.from.getTime() - padMs), new Date(range.to.getTime() + padMs)));
  await db.$executeRaw`
    WITH ${seriesCte(q)}, ${streamsCte(merged.streams)},
    s AS (SELECT * FROM ${rows} rows),
    ${mergedRows(merged.streams, merged.kind)}
    INSERT INTO quantity_sample_merged_rollups (user_id, series_id, quarter, sample_count, value_sum, value_min, value_max)
    SELECT ${q.userId}::uuid, series_id, date_bin('15 minutes', t, timestamptz '2000-01-01 00:00:00+00'), count(*)::int,
      sum(value), min(value), max(value)
    FROM m
    WHERE keep AND t >= ${range.from} AND t < ${range.to}
    GROUP BY 2, 3`;
}

/** Deletes the merged rollups of the user's type outside `keep` (quarter hours), or all of them. */
export async function deleteMergedRollups(db: DbClient, userId: string, type: string, keep?: { from: Date; to: Date }): Promise<void> {
  await db.$executeRaw`
    DELETE FROM quantity_sample_merged_rollups x USING quantity_sample_series r
    WHERE r.user_id = ${userId}::uuid AND r.type = ${type} AND x.user_id = ${userId}::uuid AND x.series_id = r.id
      ${keep ? Prisma.sql`AND (x.quarter < ${keep.from} OR x.quarter >= ${keep.to})` : Prisma.empty}`;
}
