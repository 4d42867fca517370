import { Prisma } from "@svc/db";
import type { DbClient } from "../../platform/index.ts";
import { streamsCte, UNRANKED, type SqlStream } from "../merge/merge-sql-repository.ts";
import { MATCH_WINDOW_SECONDS, type MatchKind } from "../merge/match-kinds.ts";
import type { AfterTimeBigint, TimePageQuery } from "../record-cursors.ts";
import { SLOTS_PER_CHUNK } from "./sample-chunk-repository.ts";
import type { SampleSeries } from "./sample-series-repository.ts";

/**
 * Reads of quantity samples, which are stored grouped (sample-chunk-repository.ts): every
 * query unnests the chunks of the hours it needs, read through the user's series of a type.
 */

export interface QuantitySampleRow {
  id: bigint;
  type: string;
  value: number;
  unit: string;
  start_date: Date;
  end_date: Date;
  source_name: string | null;
  source_bundle_id: string | null;
  device_model: string | null;
  product_type: string | null;
  external_id: string | null;
  is_primary_source: boolean;
  was_user_entered: boolean;
  /** The sample's own metadata (provider fields); the series adds timezone and original_unit. */
  metadata: Record<string, unknown>;
  timezone: string | null;
  original_unit: string | null;
  provider: string;
  source: string | null;
  device: string | null;
  ingested_at: Date;
  /** Only in the merged view. */
  outranked?: Array<{ provider: string; source: string }>;
}

const HOUR_MS = 3_600_000;
const floorHour = (t: Date) => new Date(Math.floor(t.getTime() / HOUR_MS) * HOUR_MS);

/**
 * A sample as a page reads it: its own fields and its series (whose fields readSamplePage adds,
 * read once a page). Times are epoch milliseconds: Prisma decodes a number several times faster
 * than a timestamp, and a page decodes thousands.
 */
export interface SamplePageRow {
  id: bigint;
  value: number;
  start_ms: number;
  end_ms: number;
  external_id: string | null;
  metadata: Record<string, unknown>;
  ingested_ms: number;
  /** Null for a sample not moved yet from the legacy table: its series' fields are in legacy_series. */
  series_id: bigint | null;
  legacy_series: Omit<SampleSeries, "id"> | null;
  /** Only in the merged view. */
  outranked?: Array<{ provider: string; source: string }>;
}

/** Milliseconds since the epoch of a timestamp column, exactly (a double holds them). */
export const epochMs = (column: string) => Prisma.raw(`round(date_part('epoch', ${column}) * 1000)`);

/** The columns of SamplePageRow (the FHIR search's page of several types selects them too). */
export const PAGE_COLUMNS = Prisma.sql`id, value, ${epochMs("start_date")} AS start_ms, ${epochMs("end_date")} AS end_ms, external_id, metadata,
  ${epochMs("ingested_at")} AS ingested_ms, series_id, legacy_series`;

export interface SeriesFilter {
  userId: string;
  type: string;
  /** Provider filter (stats, derived totals); reads leave it out. */
  provider?: string | undefined;
  /**
   * False when the user has no samples of the type left in the legacy table (findSampleTypeSpan):
   * reads then leave it out (it costs planning and a probe per read). Nothing writes it but the
   * upgrade, so none can turn up later.
   */
  legacy?: boolean | undefined;
}

/**
 * `series`: the user's series of the type (and provider); `legacy_samples`: its samples an
 * upgrade left one row each, until the job data-moves moves them (legacy-sample-move.ts), not
 * materialized: each reference reads only the index range its conditions name.
 */
export function seriesCte(q: SeriesFilter): Prisma.Sql {
  const provider = q.provider ? Prisma.sql` AND provider = ${q.provider}` : Prisma.empty;
  const series = Prisma.sql`series AS (
    SELECT * FROM quantity_sample_series WHERE user_id = ${q.userId}::uuid AND type = ${q.type}${provider}
  )`;
  if (q.legacy === false) return series;
  return Prisma.sql`${series},
  legacy_samples AS NOT MATERIALIZED (
    SELECT * FROM quantity_samples_legacy WHERE user_id = ${q.userId}::uuid AND type = ${q.type}${provider}
  )`;
}

/** A sample's provider id from the chunk's two columns of ids (external-id-columns.ts). */
const EXTERNAL_ID = Prisma.sql`coalesce(u.external_text,
  CASE WHEN c.external_uuids_lowercase THEN u.external_uuid::text ELSE upper(u.external_uuid::text) END) AS external_id`;

/**
 * Every stored sample of `series` in chunks of the window's hours (and up to `upTo`, an SQL
 * expression, when given), and of `legacy_samples` in those hours (unless `legacy` is false),
 * one row each, with the columns of QuantitySampleRow and source_key, on_body, series_id (null
 * for a legacy sample, whose series' fields `legacy_series` holds instead). `ranked`: read
 * through `ranked_series` (rankedSeriesCte), with each sample's `rank` and `stream` as
 * mergedRows numbers them.
 */
export function sampleRows(
  userId: string,
  hours: HourWindow,
  upTo: Prisma.Sql = Prisma.empty,
  { ranked = false, legacy = true }: { ranked?: boolean; legacy?: boolean | undefined } = {},
): Prisma.Sql {
  const bounded = upTo !== Prisma.empty;
  return Prisma.sql`(
    SELECT coalesce(u.legacy_id, c.chunk_id * ${SLOTS_PER_CHUNK} + u.slot - 1) AS id, r.type, u.value, r.unit,
      c.hour + u.start_offset * interval '1 millisecond' AS start_date,
      c.hour + (u.start_offset + u.duration_ms) * interval '1 millisecond' AS end_date,
      r.source_name, r.source_bundle_id, r.device_model, r.product_type, ${EXTERNAL_ID}, r.is_primary_source,
      r.was_user_entered, coalesce(u.metadata, '{}'::jsonb) AS metadata, r.timezone, r.original_unit, r.provider, r.source,
      r.source_key, r.device, r.on_body, u.ingested_at, r.id AS series_id, NULL::jsonb AS legacy_series${ranked ? Prisma.sql`, r.rank, r.stream` : Prisma.empty}
    FROM ${ranked ? Prisma.sql`ranked_series` : Prisma.sql`series`} r
    JOIN quantity_sample_chunks c ON c.user_id = ${userId}::uuid AND c.series_id = r.id
      AND c.hour >= ${hours.from} AND c.hour < ${hours.to}${bounded ? Prisma.sql` AND c.hour <= ${upTo}` : Prisma.empty}
    -- legacy_ids unnested with the rest: a subscript per sample would decompress the array for each.
    CROSS JOIN LATERAL unnest(c.start_offsets, c.durations_ms, c.sample_values, c.ingested_at, c.external_ids, c.external_uuids,
      c.metadata, c.legacy_ids) WITH ORDINALITY
      AS u(start_offset, duration_ms, value, ingested_at, external_text, external_uuid, metadata, legacy_id, slot)
    WHERE u.value IS NOT NULL${!legacy ? Prisma.empty : Prisma.sql`
    UNION ALL
    SELECT l.id, l.type, l.value, l.unit, l.start_date, l.end_date, l.source_name, l.source_bundle_id, l.device_model,
      l.product_type, l.external_id, l.is_primary_source, l.was_user_entered, l.metadata - 'timezone' - 'original_unit',
      l.metadata->>'timezone', l.metadata->>'original_unit', l.provider, l.source, l.source_key, l.device, l.on_body,
      l.ingested_at, NULL::bigint, ${LEGACY_SERIES}${ranked ? Prisma.sql`, ${RANK_OF_STREAM}` : Prisma.empty}
    FROM legacy_samples l${ranked ? Prisma.sql`
    LEFT JOIN streams x ON x.source_key = l.source_key AND x.provider = l.provider AND x.on_body = l.on_body` : Prisma.empty}
    WHERE l.start_date >= ${hours.from} AND l.start_date < ${hours.to}${bounded ? Prisma.sql` AND l.start_date < ${upTo} + interval '1 hour'` : Prisma.empty}`}
  )`;
}

/** The series' fields of a legacy sample, as SampleSeries names them (it has no series yet). */
const LEGACY_SERIES = Prisma.sql`jsonb_build_object('provider', l.provider, 'type', l.type, 'unit', l.unit, 'source', l.source,
  'sourceKey', l.source_key, 'device', l.device, 'onBody', l.on_body, 'sourceName', l.source_name, 'sourceBundleId', l.source_bundle_id,
  'deviceModel', l.device_model, 'productType', l.product_type, 'isPrimarySource', l.is_primary_source,
  'wasUserEntered', l.was_user_entered, 'timezone', l.metadata->>'timezone', 'originalUnit', l.metadata->>'original_unit')`;

/** The hours from the one holding `from` to the one after `to`. */
export function hoursAround(from: Date, to: Date): HourWindow {
  return { from: floorHour(from), to: new Date(floorHour(to).getTime() + HOUR_MS) };
}

export interface SamplePageQuery extends TimePageQuery<AfterTimeBigint>, SeriesFilter {}

/**
 * The hours a read looks at, as constants: PostgreSQL then plans only the partitions they
 * cover (bounds known only while the query runs would plan every partition).
 */
export interface HourWindow {
  from: Date;
  to: Date;
}

/** Where a page's samples start and end, after its cursor (of one type or several). */
export function pageFilters(q: TimePageQuery<AfterTimeBigint>): Prisma.Sql {
  const parts = [Prisma.sql`true`];
  if (q.start) parts.push(Prisma.sql`start_date >= ${q.start}`);
  if (q.end) parts.push(Prisma.sql`start_date < ${q.end}`);
  if (q.after) parts.push(Prisma.sql`(start_date, id) > (${q.after.t}, ${q.after.id})`);
  return Prisma.join(parts, " AND ");
}

/** Where a page starts reading: the later of its start and its cursor. */
export function pageFrom(q: TimePageQuery<AfterTimeBigint>): Date | undefined {
  if (q.after && q.start) return q.after.t > q.start ? q.after.t : q.start;
  return q.after?.t ?? q.start;
}

/**
 * `heads` and `cut`: the hour up to which the window's chunks hold at least `n` samples after
 * the page's first hour (infinity when all of them hold fewer), so a page reads only the
 * chunks it needs.
 */
export function pageCut(q: TimePageQuery<AfterTimeBigint> & Pick<SeriesFilter, "legacy">, n: number, hours: HourWindow): Prisma.Sql {
  const from = pageFrom(q);
  const pastFirstHour = from ? new Date(floorHour(from).getTime() + HOUR_MS) : undefined;
  return Prisma.sql`heads AS (
      (SELECT h.hour, h.sample_count FROM series r
      CROSS JOIN LATERAL (
        SELECT c.hour, c.sample_count FROM quantity_sample_chunks c
        WHERE c.user_id = ${q.userId}::uuid AND c.series_id = r.id AND c.hour >= ${hours.from} AND c.hour < ${hours.to}
          ${from ? Prisma.sql`AND c.hour > ${floorHour(from)}` : Prisma.empty}
          ${q.end ? Prisma.sql`AND c.hour < ${q.end}` : Prisma.empty}
        ORDER BY c.hour LIMIT ${n}
      ) h
      ORDER BY h.hour LIMIT ${n})${q.legacy === false ? Prisma.empty : Prisma.sql`
      UNION ALL
      -- Samples not moved yet count one each.
      (SELECT date_trunc('hour', l.start_date, 'UTC'), 1 FROM legacy_samples l
      WHERE l.start_date >= ${hours.from} AND l.start_date < ${hours.to}
        ${pastFirstHour ? Prisma.sql`AND l.start_date >= ${pastFirstHour}` : Prisma.empty}
        ${q.end ? Prisma.sql`AND l.start_date < ${q.end}` : Prisma.empty}
      ORDER BY l.start_date LIMIT ${n})`}
    ),
    cut AS (
      SELECT coalesce((
        SELECT hour FROM (SELECT hour, sum(sample_count) OVER (ORDER BY hour) AS running FROM heads) x
        WHERE running >= ${n} ORDER BY hour LIMIT 1
      ), 'infinity'::timestamptz) AS last_hour
    )`;
}

/** The cut as the start of the hour after it, or null when the window held fewer than the page. */
export const CUT_END = Prisma.sql`(SELECT CASE WHEN last_hour = 'infinity' THEN NULL ELSE last_hour + interval '1 hour' END FROM cut)`;
export const CUT_END_MS = Prisma.sql`round(date_part('epoch', ${CUT_END}) * 1000) AS cut_end_ms`;

/**
 * One page of samples of a type from the window's chunks, oldest first; one row more than
 * `limit` unless the window ran out. `readUpTo`: where the next window starts.
 */
export async function listQuantitySamples(db: DbClient, q: SamplePageQuery, hours: HourWindow): Promise<WindowRead> {
  return windowRead(await db.$queryRaw<CutRow[]>(samplePageSql(q, hours)), hours);
}

/** The statement of listQuantitySamples (the FHIR search runs several in one). */
export function samplePageSql(q: SamplePageQuery, hours: HourWindow): Prisma.Sql {
  return Prisma.sql`
    WITH ${seriesCte(q)}, ${pageCut(q, q.limit + 1, hours)}
    SELECT ${PAGE_COLUMNS}, ${CUT_END_MS}
    FROM ${sampleRows(q.userId, hours, Prisma.sql`(SELECT last_hour FROM cut)`, { legacy: q.legacy })} s
    WHERE ${pageFilters(q)}
    ORDER BY start_date, id
    LIMIT ${q.limit + 1}`;
}

export interface WindowRead {
  rows: SamplePageRow[];
  readUpTo: Date;
}

export type CutRow = SamplePageRow & { cut_end_ms: number | null };

export function windowRead(rows: CutRow[], hours: HourWindow, cutEndMs: number | null = rows[0]?.cut_end_ms ?? null): WindowRead {
  return { rows, readUpTo: cutEndMs !== null && cutEndMs < hours.to.getTime() ? new Date(cutEndMs) : hours.to };
}

/**
 * How far around a sample the merged view looks for matching samples of other streams: the
 * match window, or for kinds matched by overlap the longest sample of any stream.
 */
export function mergePadMs(kind: MatchKind, streams: readonly SqlStream[]): number {
  const window = MATCH_WINDOW_SECONDS[kind];
  if (window !== undefined) return window * 1000;
  return Math.max(0, ...streams.map((s) => s.maxDurationSeconds)) * 1000 + 1;
}

/** The rank and stream (mergedRows) of a sample or series of the stream `x` (a row of `streams`, null when unranked). */
const RANK_OF_STREAM = Prisma.sql`coalesce(x.rank, ${UNRANKED}::int) AS rank, coalesce(x.position::int - 1, -1) AS stream`;

/**
 * `ranked_series`: `series` each with its `rank` and `stream` (mergedRows); needs `streams`.
 * Materialized: a few rows, and the planner then has fewer joins to order.
 */
export function rankedSeriesCte(): Prisma.Sql {
  return Prisma.sql`ranked_series AS MATERIALIZED (
    SELECT r.*, ${RANK_OF_STREAM}
    FROM series r
    LEFT JOIN streams x ON x.source_key = r.source_key AND x.provider = r.provider AND x.on_body = r.on_body
  )`;
}

/**
 * The merged view over rows `s` (columns of sampleRows, and `rank` and `stream` when `ranked`):
 * `m` adds `t` (the start), `e` (the end; a record of no length counts as one millisecond
 * long), `keep` (no better ranked stream has a matching sample) and `outranked_by`, one
 * character per stream of `streams`, '1' for a worse ranked stream that has one
 * (outrankedLabels names them), else '0': text hashes and compares faster than an array.
 * Matching is computed with window passes over the rows in time order, in the one query that
 * uses them (fewer levels to plan). Kinds matched within a window of start times: one pass
 * counts each stream's samples within the window around each row (a moving frame: one sort,
 * and rows stream through it in time order, so a page stops reading it once full). Kinds
 * matched by overlap: a pair of passes per stream, the latest end of the stream's samples up
 * to each row and the earliest start from it on.
 */
export function mergedRows(streams: readonly SqlStream[], kind: MatchKind, ranked = false): Prisma.Sql {
  const window = MATCH_WINDOW_SECONDS[kind];
  const interval = Prisma.sql`make_interval(secs => ${window ?? 0})`;
  const [t, e] = [Prisma.sql`s.start_date`, Prisma.sql`greatest(s.end_date, s.start_date + interval '1 millisecond')`];
  const [rank, stream] = ranked
    ? [Prisma.sql`s.rank`, Prisma.sql`s.stream`]
    : [Prisma.sql`coalesce(x.rank, ${UNRANKED}::int)`, Prisma.sql`coalesce(x.position::int - 1, -1)`];
  // PostgreSQL computes a window function written several times once.
  const matched = (j: number) =>
    window !== undefined
      ? Prisma.sql`count(*) FILTER (WHERE ${stream} = ${j}::int) OVER near > 0`
      : Prisma.sql`(coalesce(max(CASE WHEN ${stream} = ${j}::int THEN ${e} END) OVER up > ${t}, false)
          OR coalesce(min(CASE WHEN ${stream} = ${j}::int THEN ${t} END) OVER down < ${e}, false))`;
  const outranks = streams.map((s, j) => Prisma.sql`(${rank} > ${s.rank}::int AND ${matched(j)})`);
  const outranked = streams.map((s, j) => Prisma.sql`CASE WHEN ${s.rank}::int > ${rank} AND ${matched(j)} THEN '1' ELSE '0' END`);
  const none = streams.length === 0;
  return Prisma.sql`m AS (
      SELECT s.*, ${t} AS t, ${e} AS e${ranked ? Prisma.empty : Prisma.sql`, ${RANK_OF_STREAM}`},
        ${none ? Prisma.sql`true` : Prisma.sql`NOT (${Prisma.join(outranks, " OR ")})`} AS keep,
        (${none ? Prisma.sql`''` : Prisma.join(outranked, " || ")})::text AS outranked_by
      FROM s${ranked ? Prisma.empty : Prisma.sql`
      LEFT JOIN streams x ON x.source_key = s.source_key AND x.provider = s.provider AND x.on_body = s.on_body`}
      WINDOW ${
        window !== undefined
          ? Prisma.sql`near AS (ORDER BY s.start_date RANGE BETWEEN ${interval} PRECEDING AND ${interval} FOLLOWING)`
          : Prisma.sql`up AS (ORDER BY s.start_date RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW),
        down AS (ORDER BY s.start_date DESC RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)`
      }
    )`;
}

/**
 * The streams a sample outranked as answered (distinct {provider, source}, in jsonb's order)
 * from its `outranked_by` (mergedRows), an SQL expression.
 */
function outrankedLabels(streams: readonly SqlStream[], outrankedBy: Prisma.Sql): Prisma.Sql {
  if (streams.length === 0) return Prisma.sql`'[]'::jsonb`;
  const labels = streams.map((s, j) => Prisma.sql`(substr(${outrankedBy}, ${j + 1}::int, 1) = '1', ${s.provider}::text, ${s.sourceKey}::text)`);
  return Prisma.sql`(SELECT coalesce(jsonb_agg(DISTINCT jsonb_build_object('provider', v.provider, 'source', v.source)), '[]'::jsonb)
    FROM (VALUES ${Prisma.join(labels, ", ")}) v(hit, provider, source) WHERE v.hit)`;
}

/**
 * One page of the merged view from the window's chunks, oldest first: a sample is left out
 * when a better ranked stream has a matching sample; each kept sample lists the streams it
 * outranked. Reads the chunks up to the page's cut and the samples within the merge's reach
 * around them. `readUpTo`: where the next window starts (the merge may leave a page short).
 */
export async function listMergedQuantitySamples(
  db: DbClient,
  q: SamplePageQuery,
  hours: HourWindow,
  streams: readonly SqlStream[],
  kind: MatchKind,
): Promise<WindowRead> {
  const rows = await db.$queryRaw<MergedPageRow[]>(mergedSamplePageSql(q, hours, streams, kind));
  // Each set of outranked streams is answered once (its row has no sample), each kept sample names its set.
  const labels = new Map<string, MergedPageRow["outranked"]>();
  const kept: MergedPageRow[] = [];
  for (const row of rows) {
    if (row.id !== null) kept.push(row);
    else if (row.outranked_set !== null) labels.set(row.outranked_set, row.outranked);
  }
  for (const row of kept) row.outranked = labels.get(row.outranked_set!);
  // The statement leaves its rows in its page's order; sorting here costs less than in PostgreSQL and holds whatever the plan.
  kept.sort((a, b) => a.start_ms - b.start_ms || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return windowRead(kept, hours, rows[0]?.cut_end_ms ?? null);
}

/** A row of mergedSamplePageSql: a kept sample with its set of outranked streams, or a set with the streams it names. */
type MergedPageRow = CutRow & { outranked_set: string | null };

/**
 * The statement of listMergedQuantitySamples: the kept samples (in no order) with their set of
 * outranked streams (`outranked_set`), a row for each set with the streams it names
 * (`outranked`), or one row of nulls but the cut when it keeps none.
 */
export function mergedSamplePageSql(q: SamplePageQuery, hours: HourWindow, streams: readonly SqlStream[], kind: MatchKind): Prisma.Sql {
  const padMs = mergePadMs(kind, streams);
  const pad = Prisma.sql`make_interval(secs => ${padMs / 1000})`;
  const from = pageFrom(q);
  // Only samples within the merge's reach of the page's samples can change what it keeps: the
  // chunks from the hour holding the page's start less the reach on.
  const first = from && from > hours.from ? from : hours.from;
  const reach = { from: floorHour(new Date(first.getTime() - padMs)), to: new Date(hours.to.getTime() + padMs) };
  const reached = Prisma.sql`${from ? Prisma.sql`start_date >= ${new Date(from.getTime() - padMs)} AND` : Prisma.empty}
    start_date < coalesce(${CUT_END}, ${hours.to}) + ${pad}`;
  // Each sample's rank comes with its series (one join a series, not one a sample).
  return Prisma.sql`
    WITH ${seriesCte(q)}, ${streamsCte(streams)}, ${rankedSeriesCte()}, ${pageCut(q, q.limit + 1, hours)},
    s AS (
      SELECT id, value, start_date, end_date, external_id, metadata, ingested_at, series_id, legacy_series, rank, stream
      FROM ${sampleRows(q.userId, reach, Prisma.sql`coalesce(${CUT_END}, 'infinity') + ${pad}`, { ranked: true, legacy: q.legacy })} rows
      WHERE ${reached}
    ),
    ${mergedRows(streams, kind, true)},
    page AS (
      SELECT ${PAGE_COLUMNS}, outranked_by FROM m
      WHERE keep AND ${pageFilters(q)} AND start_date < coalesce(${CUT_END}, ${hours.to})
      ORDER BY start_date, id
      LIMIT ${q.limit + 1}
    ),
    -- Worked out and answered once per distinct set of outranked streams, not once per sample.
    labels AS (
      SELECT outranked_by, ${outrankedLabels(streams, Prisma.sql`outranked_by`)} AS outranked FROM (SELECT DISTINCT outranked_by FROM page) d
    )
    -- One row with the cut even when the merge keeps nothing of the window.
    SELECT kept.*, ${CUT_END_MS}
    FROM (SELECT 1) one
    LEFT JOIN LATERAL (
      SELECT id, value, start_ms, end_ms, external_id, metadata, ingested_ms, series_id, legacy_series, outranked_by AS outranked_set,
        NULL::jsonb AS outranked
      FROM page
      UNION ALL
      SELECT NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, outranked_by, outranked FROM labels
    ) kept ON true`;
}

export interface StatsBucketRow {
  bucket: number;
  provider: string;
  source: string;
  device: string | null;
  unit: string;
  count: number;
  sum: number;
  min: number;
  max: number;
  /** How many samples matched in all (at most `cap` + 1). */
  matched: number;
}

/**
 * count, sum, min and max of the earliest `cap` matching samples per interval (given by
 * its boundaries, sorted) and per provider, source, device and unit. `matched` above
 * `cap` means the answer is truncated. `merged` set: the merged view.
 */
export function sampleStatsBuckets(
  db: DbClient,
  q: SeriesFilter & { start: Date; end: Date },
  boundaries: readonly Date[],
  cap: number,
  merged: { streams: readonly SqlStream[]; kind: MatchKind } | undefined,
): Promise<StatsBucketRow[]> {
  const padMs = merged ? mergePadMs(merged.kind, merged.streams) : 0;
  const rows = sampleRows(q.userId, hoursAround(new Date(q.start.getTime() - padMs), new Date(q.end.getTime() + padMs)));
  const source = merged ? Prisma.sql`m WHERE keep AND` : Prisma.sql`s WHERE`;
  return db.$queryRaw<StatsBucketRow[]>`
    WITH ${seriesCte(q)}, ${merged ? Prisma.sql`${streamsCte(merged.streams)},` : Prisma.empty}
    s AS (SELECT * FROM ${rows} rows)
    ${merged ? Prisma.sql`, ${mergedRows(merged.streams, merged.kind)}` : Prisma.empty},
    matched AS (
      SELECT id, start_date, provider, source_key, device, unit, value FROM ${source} start_date >= ${q.start} AND start_date < ${q.end}
      ORDER BY start_date, id
      LIMIT ${cap + 1}
    ),
    earliest AS (SELECT * FROM matched ORDER BY start_date, id LIMIT ${cap})
    SELECT width_bucket(start_date, ${boundaries}::timestamptz[]) AS bucket, provider, source_key AS source, device, unit,
      count(*)::int AS count, sum(value) AS sum, min(value) AS min, max(value) AS max,
      (SELECT count(*) FROM matched)::int AS matched
    FROM earliest
    GROUP BY 1, 2, 3, 4, 5
    ORDER BY 1, 2, 3, 4 NULLS FIRST, 5`;
}

export interface SampleBucketRow {
  /** 1 for the first interval of the boundaries. */
  bucket: number;
  provider: string;
  count: number;
  sum: number;
  min: number;
  max: number;
}

/**
 * count, sum, min and max of a type's samples in the merged view, per interval (given by its
 * boundaries, sorted) and per provider, with no cap: a share's daily aggregates of millions of
 * samples. Samples within the merge's reach outside [start, end) are read too: they can
 * outrank ones inside.
 */
export function mergedSampleBucketAggregates(
  db: DbClient,
  q: { userId: string; type: string; start: Date; end: Date },
  boundaries: readonly Date[],
  merged: { streams: readonly SqlStream[]; kind: MatchKind },
): Promise<SampleBucketRow[]> {
  const padMs = mergePadMs(merged.kind, merged.streams);
  const rows = sampleRows(q.userId, hoursAround(new Date(q.start.getTime() - padMs), new Date(q.end.getTime() + padMs)));
  return db.$queryRaw<SampleBucketRow[]>`
    WITH ${seriesCte(q)}, ${streamsCte(merged.streams)},
    s AS (SELECT * FROM ${rows} rows),
    ${mergedRows(merged.streams, merged.kind)}
    SELECT width_bucket(t, ${boundaries}::timestamptz[]) AS bucket, provider,
      count(*)::int AS count, sum(value) AS sum, min(value) AS min, max(value) AS max
    FROM m
    WHERE keep AND t >= ${q.start} AND t < ${q.end}
    GROUP BY 1, 2
    ORDER BY 1, 2`;
}

/**
 * One provider's samples of a type starting in [start, end), oldest first, with what derived
 * daily totals need.
 */
export function listProviderSamplesForTotals(
  db: DbClient,
  q: { userId: string; provider: string; type: string; start: Date; end: Date },
) {
  return db.$queryRaw<
    Array<{ start_date: Date; end_date: Date; value: number; source_key: string; source: string | null; device: string | null; on_body: boolean; timezone: string | null }>
  >`
    WITH ${seriesCte(q)}
    SELECT start_date, end_date, value, source_key, source, device, on_body, coalesce(timezone, metadata->>'timezone') AS timezone
    FROM ${sampleRows(q.userId, hoursAround(q.start, q.end))} s
    WHERE start_date >= ${q.start} AND start_date < ${q.end}
    ORDER BY start_date`;
}
