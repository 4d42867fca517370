import { Prisma } from "@svc/db";
import type { DbClient } from "../../platform/index.ts";
import { streamsCte, type SqlStream } from "../merge/merge-sql-repository.ts";
import type { MatchKind } from "../merge/match-kinds.ts";
import { hoursAround, mergedRows, mergePadMs, seriesCte, type SeriesFilter, type StatsBucketRow } from "./quantity-sample-repository.ts";
import { SLOTS_PER_CHUNK } from "./sample-chunk-repository.ts";

/**
 * Reads of the rollups for samples/stats: quantity_sample_rollups (view `all`) or
 * quantity_sample_merged_rollups (view `merged`), one row per series and quarter hour of UTC.
 * Every range is given on quarter hours, as constants (PostgreSQL plans only its partitions).
 */

export type RollupTable = "all" | "merged";

const QUARTER_MS = 900_000;

const TABLES: Record<RollupTable, Prisma.Sql> = {
  all: Prisma.raw("quantity_sample_rollups"),
  merged: Prisma.raw("quantity_sample_merged_rollups"),
};

export interface QuarterRange {
  from: Date;
  to: Date;
}

/** The rollups of the filter's series in the range, as `x` joined to `r` (the series). */
function rollupsIn(q: SeriesFilter, table: RollupTable, range: QuarterRange): Prisma.Sql {
  return Prisma.sql`series r
    JOIN ${TABLES[table]} x ON x.user_id = ${q.userId}::uuid AND x.series_id = r.id AND x.quarter >= ${range.from} AND x.quarter < ${range.to}`;
}

export interface RollupCut {
  /** How many samples the range holds (when no cut). */
  total: number;
  /** When more than the limit: the first quarter hour through which they are more. */
  cut: Date | null;
  /** How many lie before `cut`. */
  before: number;
  /**
   * Merged rollups only: when the merged view keeps each series' samples of the cut quarter
   * all or none, the series it keeps them all of; then the earliest samples it keeps there
   * are the earliest of those series, with no merge to compute.
   */
  keptWhole?: string[];
}

/**
 * The range's quarter hours counted in time order up to the limit (RollupCut), and, when
 * `staleOf` names a type, its stale range for the merged rollups (merged-stale-repository.ts):
 * read in the same statement, which a reader of the merged rollups needs first.
 */
export async function findRollupCut(
  db: DbClient,
  q: SeriesFilter,
  table: RollupTable,
  range: QuarterRange,
  limit: number,
  staleOf?: string,
): Promise<RollupCut & { stale?: { from: Date; to: Date } }> {
  // In the merged view: per series, the samples of the cut quarter against those kept there.
  const atCut = (name: string) => Prisma.sql`${Prisma.raw(name)}.user_id = ${q.userId}::uuid AND ${Prisma.raw(name)}.series_id = r.id
    AND ${Prisma.raw(name)}.quarter >= ${range.from} AND ${Prisma.raw(name)}.quarter < ${range.to} AND ${Prisma.raw(name)}.quarter = (SELECT quarter FROM cut)`;
  const whole =
    table === "merged"
      ? Prisma.sql`(
          SELECT CASE WHEN bool_and(coalesce(m.sample_count, 0) IN (0, a.sample_count))
            THEN coalesce(array_agg(a.series_id) FILTER (WHERE m.sample_count = a.sample_count), '{}') END
          FROM series r
          JOIN quantity_sample_rollups a ON ${atCut("a")}
          LEFT JOIN quantity_sample_merged_rollups m ON ${atCut("m")}
        )::text[]`
      : Prisma.sql`NULL::text[]`;
  const [row] = await db.$queryRaw<
    Array<{ quarter: Date | null; before: number | null; through: number | null; kept_whole: string[] | null; stale_from: Date | null; stale_to: Date | null }>
  >`
    WITH ${seriesCte(q)},
    quarters AS (
      SELECT x.quarter, sum(x.sample_count)::int AS n FROM ${rollupsIn(q, table, range)} GROUP BY x.quarter
    ),
    running AS (
      SELECT quarter, n, sum(n) OVER (ORDER BY quarter) AS through, sum(n) OVER () AS total FROM quarters
    ),
    -- The quarter where the count passes the limit, or else the last one (through = total).
    cut AS (
      SELECT quarter, through - n AS before, through FROM running WHERE through > ${limit} OR through = total ORDER BY quarter LIMIT 1
    )
    SELECT cut.quarter, cut.before::int AS before, cut.through::int AS through, ${whole} AS kept_whole,
      d.from_hour AS stale_from, d.to_hour AS stale_to
    FROM (SELECT 1) one
    LEFT JOIN cut ON true
    LEFT JOIN quantity_sample_merged_dirty d ON ${staleOf === undefined ? Prisma.sql`false` : Prisma.sql`d.user_id = ${q.userId}::uuid AND d.type = ${staleOf}`}`;
  const stale = row?.stale_from && row.stale_to ? { stale: { from: row.stale_from, to: row.stale_to } } : {};
  const through = row?.through ?? 0;
  if (!row?.quarter || through <= limit) return { total: through, cut: null, before: 0, ...stale };
  return { total: through, cut: row.quarter, before: row.before ?? 0, ...(row.kept_whole && { keptWhole: row.kept_whole }), ...stale };
}

/** A bucket's figures per series summed from rollups (no cap count: the cap was applied before). */
export type RollupBucketRow = Omit<StatsBucketRow, "matched">;

/**
 * The samples of `series` starting in [from, to), one row each, with what stats and the merged
 * view read of them: the columns of sampleRows but those of the sample's own fields (its
 * metadata, provider id, ingested_at), whose arrays are left unread.
 */
function tailRows(userId: string, range: QuarterRange): Prisma.Sql {
  const hours = hoursAround(range.from, range.to);
  return Prisma.sql`(
    SELECT * FROM (
      SELECT coalesce(u.legacy_id, c.chunk_id * ${SLOTS_PER_CHUNK} + u.slot - 1) AS id, u.value,
        c.hour + u.start_offset * interval '1 millisecond' AS start_date,
        c.hour + (u.start_offset + u.duration_ms) * interval '1 millisecond' AS end_date,
        r.provider, r.source_key, r.device, r.unit, r.on_body, r.id AS series_id
      FROM series r
      JOIN quantity_sample_chunks c ON c.user_id = ${userId}::uuid AND c.series_id = r.id AND c.hour >= ${hours.from} AND c.hour < ${hours.to}
      -- legacy_ids unnested with the rest: a subscript per sample would decompress the array for each.
      CROSS JOIN LATERAL unnest(c.start_offsets, c.durations_ms, c.sample_values, c.legacy_ids) WITH ORDINALITY
        AS u(start_offset, duration_ms, value, legacy_id, slot)
      WHERE u.value IS NOT NULL
    ) rows
    WHERE start_date >= ${range.from} AND start_date < ${range.to}
  )`;
}

/** The quarter hour where the cap is reached: its earliest `limit` samples count (by start, then id). */
export interface CapQuarter {
  quarter: Date;
  limit: number;
  /** In the merged view, the series it keeps whole there (RollupCut), if so: no merge to compute. */
  keptWhole?: string[];
}

/**
 * count, sum, min and max per interval (given by its boundaries) and per provider, source,
 * device and unit, of the rollups in `range` and the earliest samples of `tail` (computed
 * from the samples, in the merged view when `merged` is set: with those within the merge's
 * reach around it), in the order of sampleStatsBuckets.
 */
export function rollupBuckets(
  db: DbClient,
  q: SeriesFilter,
  table: RollupTable,
  range: QuarterRange,
  tail: CapQuarter | undefined,
  boundaries: readonly Date[],
  merged: { streams: readonly SqlStream[]; kind: MatchKind } | undefined,
) {
  const parts = [
    Prisma.sql`SELECT x.quarter AS t, r.provider, r.source_key, r.device, r.unit, x.sample_count AS n, x.value_sum AS total,
      x.value_min AS low, x.value_max AS high
    FROM ${rollupsIn(q, table, range)}`,
  ];
  let ctes = Prisma.empty;
  if (tail) {
    const end = new Date(tail.quarter.getTime() + QUARTER_MS);
    const padMs = merged && !tail.keptWhole ? mergePadMs(merged.kind, merged.streams) : 0;
    const [from, to] = [new Date(tail.quarter.getTime() - padMs), new Date(end.getTime() + padMs)];
    const rows = tailRows(q.userId, { from, to });
    ctes = merged && !tail.keptWhole
      ? Prisma.sql`, ${streamsCte(merged.streams)}, s AS ${rows}, ${mergedRows(merged.streams, merged.kind)},
        tail AS (SELECT * FROM m WHERE keep AND start_date >= ${tail.quarter} AND start_date < ${end} ORDER BY start_date, id LIMIT ${tail.limit})`
      : Prisma.sql`, tail AS (
          SELECT * FROM ${rows} s WHERE start_date >= ${tail.quarter} AND start_date < ${end}
            ${tail.keptWhole ? Prisma.sql`AND series_id = ANY(${tail.keptWhole}::bigint[])` : Prisma.empty}
          ORDER BY start_date, id LIMIT ${tail.limit})`;
    parts.push(Prisma.sql`SELECT start_date, provider, source_key, device, unit, 1, value, value, value FROM tail`);
  }
  // Only the boundaries around the range, as seconds since 1970 (whole: they are on quarter
  // hours): parsing some hundred timestamps took longer than the query.
  const last = tail ? tail.quarter.getTime() + QUARTER_MS : range.to.getTime();
  const first = Math.max(0, boundaries.findLastIndex((b) => b.getTime() <= range.from.getTime()));
  const after = boundaries.findIndex((b) => b.getTime() >= last);
  const seconds = boundaries.slice(first, after === -1 ? undefined : after + 1).map((b) => b.getTime() / 1000);
  return db.$queryRaw<RollupBucketRow[]>`
    WITH ${seriesCte(q)}${ctes}
    SELECT width_bucket(date_part('epoch', t), ${seconds}::float8[]) + ${first}::int AS bucket, provider, source_key AS source, device, unit,
      sum(n)::int AS count, sum(total) AS sum, min(low) AS min, max(high) AS max
    FROM (${Prisma.join(parts, " UNION ALL ")}) parts
    GROUP BY 1, 2, 3, 4, 5
    ORDER BY 1, 2, 3, 4 NULLS FIRST, 5`;
}

/**
 * The provider, source, device and unit of the filter's series, each with its place in the
 * order of the stats' series (as PostgreSQL sorts them: its collation, devices without a name first).
 */
export function listStatsSeriesOrder(db: DbClient, q: SeriesFilter) {
  return db.$queryRaw<Array<{ provider: string; source: string; device: string | null; unit: string; place: number }>>`
    SELECT DISTINCT provider, source_key AS source, device, unit,
      dense_rank() OVER (ORDER BY provider, source_key, device NULLS FIRST, unit)::int AS place
    FROM quantity_sample_series
    WHERE user_id = ${q.userId}::uuid AND type = ${q.type}${q.provider ? Prisma.sql` AND provider = ${q.provider}` : Prisma.empty}`;
}

/** The first and last quarter hour holding a sample of the user's type (view `all`), if any. */
export async function findRollupSpan(db: DbClient, userId: string, type: string): Promise<{ first: Date; last: Date } | undefined> {
  const [row] = await db.$queryRaw<Array<{ first: Date | null; last: Date | null }>>`
    SELECT min(f.quarter) AS first, max(l.quarter) AS last
    FROM quantity_sample_series r
    CROSS JOIN LATERAL (SELECT quarter FROM quantity_sample_rollups x WHERE x.user_id = r.user_id AND x.series_id = r.id ORDER BY quarter LIMIT 1) f
    CROSS JOIN LATERAL (SELECT quarter FROM quantity_sample_rollups x WHERE x.user_id = r.user_id AND x.series_id = r.id ORDER BY quarter DESC LIMIT 1) l
    WHERE r.user_id = ${userId}::uuid AND r.type = ${type}`;
  return row?.first && row.last ? { first: row.first, last: row.last } : undefined;
}
