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
/** Before and past any sample (years 1 and 9999). */
const ALL_TIME = { start: Date.parse("0001-01-01T00:00:00Z"), end: Date.parse("9999-01-01T00:00:00Z") };
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
const epochMs = (column: string) => Prisma.raw(`round(date_part('epoch', ${column}) * 1000)`);

const PAGE_COLUMNS = Prisma.sql`id, value, ${epochMs("start_date")} AS start_ms, ${epochMs("end_date")} AS end_ms, external_id, metadata,
  ${epochMs("ingested_at")} AS ingested_ms, series_id, legacy_series`;

export interface SeriesFilter {
  userId: string;
  type: string;
  /** Provider filter (stats, derived totals); reads leave it out. */
  provider?: string | undefined;
}

/**
 * `series`: the user's series of the type (and provider); `legacy_samples`: its samples an
 * upgrade left one row each, until the job data-moves moves them (legacy-sample-move.ts), not
 * materialized: each reference reads only the index range its conditions name.
 */
export function seriesCte(q: SeriesFilter): Prisma.Sql {
  const provider = q.provider ? Prisma.sql` AND provider = ${q.provider}` : Prisma.empty;
  return Prisma.sql`series AS (
    SELECT * FROM quantity_sample_series WHERE user_id = ${q.userId}::uuid AND type = ${q.type}${provider}
  ),
  legacy_samples AS NOT MATERIALIZED (
    SELECT * FROM quantity_samples_legacy WHERE user_id = ${q.userId}::uuid AND type = ${q.type}${provider}
  )`;
}

/** A sample's provider id from the chunk's two columns of ids (external-id-columns.ts). */
const EXTERNAL_ID = Prisma.sql`coalesce(u.external_text,
  CASE WHEN c.external_uuids_lowercase THEN u.external_uuid::text ELSE upper(u.external_uuid::text) END) AS external_id`;

/**
 * Every stored sample of `series` in chunks of the window's hours (and up to `upTo`, an SQL
 * expression, when given), and of `legacy_samples` in those hours, one row each, with the
 * columns of QuantitySampleRow and source_key, on_body, series_id (null for a legacy sample,
 * whose series' fields `legacy_series` holds instead).
 */
export function sampleRows(userId: string, hours: HourWindow, upTo: Prisma.Sql = Prisma.empty): Prisma.Sql {
  const bounded = upTo !== Prisma.empty;
  return Prisma.sql`(
    SELECT coalesce(u.legacy_id, c.chunk_id * ${SLOTS_PER_CHUNK} + u.slot - 1) AS id, r.type, u.value, r.unit,
      c.hour + u.start_offset * interval '1 millisecond' AS start_date,
      c.hour + (u.start_offset + u.duration_ms) * interval '1 millisecond' AS end_date,
      r.source_name, r.source_bundle_id, r.device_model, r.product_type, ${EXTERNAL_ID}, r.is_primary_source,
      r.was_user_entered, coalesce(u.metadata, '{}'::jsonb) AS metadata, r.timezone, r.original_unit, r.provider, r.source,
      r.source_key, r.device, r.on_body, u.ingested_at, r.id AS series_id, NULL::jsonb AS legacy_series
    FROM series r
    JOIN quantity_sample_chunks c ON c.user_id = ${userId}::uuid AND c.series_id = r.id
      AND c.hour >= ${hours.from} AND c.hour < ${hours.to}${bounded ? Prisma.sql` AND c.hour <= ${upTo}` : Prisma.empty}
    -- legacy_ids unnested with the rest: a subscript per sample would decompress the array for each.
    CROSS JOIN LATERAL unnest(c.start_offsets, c.durations_ms, c.sample_values, c.ingested_at, c.external_ids, c.external_uuids,
      c.metadata, c.legacy_ids) WITH ORDINALITY
      AS u(start_offset, duration_ms, value, ingested_at, external_text, external_uuid, metadata, legacy_id, slot)
    WHERE u.value IS NOT NULL
    UNION ALL
    SELECT l.id, l.type, l.value, l.unit, l.start_date, l.end_date, l.source_name, l.source_bundle_id, l.device_model,
      l.product_type, l.external_id, l.is_primary_source, l.was_user_entered, l.metadata - 'timezone' - 'original_unit',
      l.metadata->>'timezone', l.metadata->>'original_unit', l.provider, l.source, l.source_key, l.device, l.on_body,
      l.ingested_at, NULL::bigint, ${LEGACY_SERIES}
    FROM legacy_samples l
    WHERE l.start_date >= ${hours.from} AND l.start_date < ${hours.to}${bounded ? Prisma.sql` AND l.start_date < ${upTo} + interval '1 hour'` : Prisma.empty}
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

function pageFilters(q: SamplePageQuery): Prisma.Sql {
  const parts = [Prisma.sql`true`];
  if (q.start) parts.push(Prisma.sql`start_date >= ${q.start}`);
  if (q.end) parts.push(Prisma.sql`start_date < ${q.end}`);
  if (q.after) parts.push(Prisma.sql`(start_date, id) > (${q.after.t}, ${q.after.id})`);
  return Prisma.join(parts, " AND ");
}

/** Where a page starts reading: the later of its start and its cursor. */
function pageFrom(q: SamplePageQuery): Date | undefined {
  if (q.after && q.start) return q.after.t > q.start ? q.after.t : q.start;
  return q.after?.t ?? q.start;
}

/**
 * `heads` and `cut`: the hour up to which the window's chunks hold at least `n` samples after
 * the page's first hour (infinity when all of them hold fewer), so a page reads only the
 * chunks it needs.
 */
function pageCut(q: SamplePageQuery, n: number, hours: HourWindow): Prisma.Sql {
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
      ORDER BY h.hour LIMIT ${n})
      UNION ALL
      -- Samples not moved yet count one each.
      (SELECT date_trunc('hour', l.start_date, 'UTC'), 1 FROM legacy_samples l
      WHERE l.start_date >= ${hours.from} AND l.start_date < ${hours.to}
        ${pastFirstHour ? Prisma.sql`AND l.start_date >= ${pastFirstHour}` : Prisma.empty}
        ${q.end ? Prisma.sql`AND l.start_date < ${q.end}` : Prisma.empty}
      ORDER BY l.start_date LIMIT ${n})
    ),
    cut AS (
      SELECT coalesce((
        SELECT hour FROM (SELECT hour, sum(sample_count) OVER (ORDER BY hour) AS running FROM heads) x
        WHERE running >= ${n} ORDER BY hour LIMIT 1
      ), 'infinity'::timestamptz) AS last_hour
    )`;
}

/** The cut as the start of the hour after it, or null when the window held fewer than the page. */
const CUT_END = Prisma.sql`(SELECT CASE WHEN last_hour = 'infinity' THEN NULL ELSE last_hour + interval '1 hour' END FROM cut)`;
const CUT_END_MS = Prisma.sql`round(date_part('epoch', ${CUT_END}) * 1000) AS cut_end_ms`;

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
    FROM ${sampleRows(q.userId, hours, Prisma.sql`(SELECT last_hour FROM cut)`)} s
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

/**
 * The merged view over rows `s` (columns of sampleRows): `m` adds `keep` (no better ranked
 * stream has a matching sample) and `outranked_by`, one boolean per stream of `streams`: a
 * worse ranked stream that has one (outrankedLabels names them).
 * Matching is computed with window passes over the rows in time order, one pair per stream:
 * the latest start (readings) or end (overlap) of the stream's samples up to each row and the
 * earliest start from it on. A record of no length counts as one millisecond long.
 */
export function mergedRows(streams: readonly SqlStream[], kind: MatchKind): Prisma.Sql {
  const window = MATCH_WINDOW_SECONDS[kind];
  const byWindow = window !== undefined;
  const interval = Prisma.sql`make_interval(secs => ${window ?? 0})`;
  const passes = streams.map((_, j) => {
    const [p, n] = [Prisma.raw(`p${j}`), Prisma.raw(`n${j}`)];
    return Prisma.sql`,
      max(CASE WHEN stream = ${j}::int THEN ${byWindow ? Prisma.sql`t` : Prisma.sql`e`} END) OVER up AS ${p},
      min(CASE WHEN stream = ${j}::int THEN t END) OVER down AS ${n}`;
  });
  const matched = (j: number) => {
    const [p, n] = [Prisma.raw(`p${j}`), Prisma.raw(`n${j}`)];
    return byWindow
      ? Prisma.sql`(coalesce(${p} >= t - ${interval}, false) OR coalesce(${n} <= t + ${interval}, false))`
      : Prisma.sql`(coalesce(${p} > t, false) OR coalesce(${n} < e, false))`;
  };
  const outranks = streams.map((s, j) => Prisma.sql`(rank > ${s.rank}::int AND ${matched(j)})`);
  const outranked = streams.map((s, j) => Prisma.sql`${s.rank}::int > rank AND ${matched(j)}`);
  const none = streams.length === 0;
  return Prisma.sql`ranked AS (
      SELECT s.*, s.start_date AS t, greatest(s.end_date, s.start_date + interval '1 millisecond') AS e,
        coalesce(x.rank, ${UNRANKED}::int) AS rank, coalesce(x.position::int - 1, -1) AS stream
      FROM s
      LEFT JOIN streams x ON x.source_key = s.source_key AND x.provider = s.provider AND x.on_body = s.on_body
    ),
    passes AS (
      SELECT ranked.*${passes.length > 0 ? Prisma.join(passes, "") : Prisma.empty}
      FROM ranked
      WINDOW up AS (ORDER BY t RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW),
        down AS (ORDER BY t DESC RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)
    ),
    m AS (
      SELECT passes.*,
        ${none ? Prisma.sql`true` : Prisma.sql`NOT (${Prisma.join(outranks, " OR ")})`} AS keep,
        ${none ? Prisma.sql`'{}'` : Prisma.sql`ARRAY[${Prisma.join(outranked, ", ")}]`}::boolean[] AS outranked_by
      FROM passes
    )`;
}

/**
 * The streams a sample outranked as answered (distinct {provider, source}, in jsonb's order)
 * from its `outranked_by` (mergedRows), an SQL expression.
 */
function outrankedLabels(streams: readonly SqlStream[], outrankedBy: Prisma.Sql): Prisma.Sql {
  if (streams.length === 0) return Prisma.sql`'[]'::jsonb`;
  const labels = streams.map((s, j) => Prisma.sql`(${outrankedBy}[${j + 1}::int], ${s.provider}::text, ${s.sourceKey}::text)`);
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
  const rows = await db.$queryRaw<CutRow[]>(mergedSamplePageSql(q, hours, streams, kind));
  return windowRead(rows.filter((row) => row.id !== null), hours, rows[0]?.cut_end_ms ?? null);
}

/**
 * The statement of listMergedQuantitySamples (the FHIR search runs several in one): the kept
 * samples, or one row of nulls but the cut when it keeps none.
 */
export function mergedSamplePageSql(q: SamplePageQuery, hours: HourWindow, streams: readonly SqlStream[], kind: MatchKind): Prisma.Sql {
  const padMs = mergePadMs(kind, streams);
  const pad = Prisma.sql`make_interval(secs => ${padMs / 1000})`;
  const reach = { from: floorHour(new Date(hours.from.getTime() - padMs)), to: new Date(hours.to.getTime() + padMs) };
  const from = pageFrom(q);
  // Only samples within the merge's reach of the page's samples can change what it keeps.
  const reached = Prisma.sql`${from ? Prisma.sql`start_date >= ${new Date(from.getTime() - padMs)} AND` : Prisma.empty}
    start_date < coalesce(${CUT_END}, ${hours.to}) + ${pad}`;
  return Prisma.sql`
    WITH ${seriesCte(q)}, ${streamsCte(streams)}, ${pageCut(q, q.limit + 1, hours)},
    s AS (SELECT * FROM ${sampleRows(q.userId, reach, Prisma.sql`coalesce(${CUT_END}, 'infinity') + ${pad}`)} rows WHERE ${reached}),
    ${mergedRows(streams, kind)},
    page AS (
      SELECT ${PAGE_COLUMNS}, outranked_by FROM m
      WHERE keep AND ${pageFilters(q)} AND start_date < coalesce(${CUT_END}, ${hours.to})
      ORDER BY start_date, id
      LIMIT ${q.limit + 1}
    ),
    -- Worked out once per distinct set of outranked streams, not once per sample.
    labels AS MATERIALIZED (
      SELECT outranked_by, ${outrankedLabels(streams, Prisma.sql`outranked_by`)} AS outranked FROM (SELECT DISTINCT outranked_by FROM page) d
    )
    -- One row with the cut even when the merge keeps nothing of the window.
    SELECT kept.*, ${CUT_END_MS}
    FROM (SELECT 1) one
    LEFT JOIN LATERAL (
      SELECT id, value, start_ms, end_ms, external_id, metadata, ingested_ms, series_id, legacy_series, outranked
      FROM page JOIN labels USING (outranked_by)
      ORDER BY start_ms, id
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

/**
 * The first `limit` distinct start times, at or after `from` and within the window, of the
 * user's samples of these types (readings taken together share one).
 */
export async function listSampleStartTimes(
  db: DbClient,
  q: { userId: string; types: readonly string[]; from?: Date | undefined; start?: Date | undefined; end?: Date | undefined; limit: number },
): Promise<Date[]> {
  const lower = [q.from, q.start].filter((t): t is Date => t !== undefined).reduce<Date | undefined>((a, b) => (a && a > b ? a : b), undefined);
  const perType = q.types.map((type) => {
    const page: SamplePageQuery = { userId: q.userId, type, start: lower, end: q.end, limit: q.limit - 1 };
    // Blood pressure readings are few: a window of all time when the search gives none.
    const hours = hoursAround(lower ?? new Date(ALL_TIME.start), q.end ?? new Date(ALL_TIME.end));
    return Prisma.sql`(
      WITH ${seriesCte(page)}, ${pageCut(page, q.limit, hours)}
      SELECT DISTINCT start_date
      FROM ${sampleRows(q.userId, hours, Prisma.sql`(SELECT last_hour FROM cut)`)} s
      WHERE ${pageFilters(page)}
      ORDER BY start_date LIMIT ${q.limit})`;
  });
  const rows = await db.$queryRaw<Array<{ start_date: Date }>>`
    SELECT DISTINCT start_date FROM (${Prisma.join(perType, " UNION ALL ")}) t ORDER BY start_date LIMIT ${q.limit}`;
  return rows.map((row) => row.start_date);
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
