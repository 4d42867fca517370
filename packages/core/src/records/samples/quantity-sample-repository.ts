import { Prisma } from "@svc/db";
import type { DbClient } from "../../platform/index.ts";
import { mergeConditions, rankOfRecord, streamsCte, UNRANKED, type SqlStream } from "../merge/merge-sql-repository.ts";
import { notTombstoned } from "../tombstone-repository.ts";
import type { MatchKind } from "../merge/match-kinds.ts";
import type { AfterTimeBigint, TimePageQuery } from "../record-cursors.ts";

/** A normalized sample ready to store (values already in the storage unit). */
export interface QuantitySampleWrite {
  type: string;
  value: number;
  unit: string;
  startDate: Date;
  endDate: Date;
  sourceName: string | null;
  sourceBundleId: string | null;
  deviceModel: string | null;
  productType: string | null;
  externalId: string | null;
  isPrimarySource: boolean;
  wasUserEntered: boolean;
  metadata: Record<string, unknown>;
  source: string | null;
  sourceKey: string;
  device: string | null;
  onBody: boolean;
  dedupeKey: string;
}

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
  metadata: Record<string, unknown>;
  provider: string;
  source: string | null;
  device: string | null;
  ingested_at: Date;
  /** Only in the merged view. */
  outranked?: Array<{ provider: string; source: string }>;
}

const SAMPLE_COLUMNS = Prisma.sql`s.id, s.type, s.value, s.unit, s.start_date, s.end_date, s.source_name,
  s.source_bundle_id, s.device_model, s.product_type, s.external_id, s.is_primary_source,
  s.was_user_entered, s.metadata, s.provider, s.source, s.device, s.ingested_at`;

/**
 * Inserts new samples and updates stored ones whose value or details changed; a sample
 * the provider deleted (tombstone) is not stored again. Returns how many rows were
 * inserted and updated, and the type and times of each (unchanged ones are neither). The batch must hold each dedupe key once.
 */
export async function upsertQuantitySamples(
  db: DbClient,
  batch: { userId: string; provider: string; rawObjectId: string | null },
  samples: readonly QuantitySampleWrite[],
): Promise<{ inserted: number; updated: number; changed: Array<{ type: string; start_date: Date; end_date: Date }> }> {
  if (samples.length === 0) return { inserted: 0, updated: 0, changed: [] };
  const column = <K extends keyof QuantitySampleWrite>(key: K) => samples.map((s) => s[key]);
  const rows = await db.$queryRaw<Array<{ inserted: boolean; type: string; start_date: Date; end_date: Date }>>`
    INSERT INTO quantity_samples AS q (user_id, provider, raw_object_id, type, value, unit, start_date, end_date,
      source_name, source_bundle_id, device_model, product_type, external_id, is_primary_source,
      was_user_entered, metadata, source, source_key, device, on_body, dedupe_key)
    SELECT ${batch.userId}::uuid, ${batch.provider}, ${batch.rawObjectId}::uuid, n.*
    FROM unnest(${column("type")}::text[], ${column("value")}::float8[], ${column("unit")}::text[],
      ${column("startDate")}::timestamptz[], ${column("endDate")}::timestamptz[], ${column("sourceName")}::text[],
      ${column("sourceBundleId")}::text[], ${column("deviceModel")}::text[], ${column("productType")}::text[],
      ${column("externalId")}::text[], ${column("isPrimarySource")}::boolean[], ${column("wasUserEntered")}::boolean[],
      ${samples.map((s) => JSON.stringify(s.metadata))}::jsonb[], ${column("source")}::text[], ${column("sourceKey")}::text[],
      ${column("device")}::text[], ${column("onBody")}::boolean[], ${column("dedupeKey")}::text[])
      AS n(type, value, unit, start_date, end_date, source_name, source_bundle_id, device_model, product_type,
        external_id, is_primary_source, was_user_entered, metadata, source, source_key, device, on_body, dedupe_key)
    WHERE ${notTombstoned(batch, "quantity_sample")}
    ON CONFLICT (user_id, type, provider, dedupe_key) DO UPDATE SET
      value = excluded.value, unit = excluded.unit, start_date = excluded.start_date, end_date = excluded.end_date,
      source_name = excluded.source_name, source_bundle_id = excluded.source_bundle_id,
      device_model = excluded.device_model, product_type = excluded.product_type, external_id = excluded.external_id,
      is_primary_source = excluded.is_primary_source, was_user_entered = excluded.was_user_entered,
      metadata = excluded.metadata, source = excluded.source, source_key = excluded.source_key,
      device = excluded.device, on_body = excluded.on_body, raw_object_id = excluded.raw_object_id, ingested_at = now()
    WHERE (q.value, q.unit, q.start_date, q.end_date, q.source_name, q.source_bundle_id, q.device_model,
        q.product_type, q.external_id, q.is_primary_source, q.was_user_entered, q.metadata, q.source, q.device, q.on_body)
      IS DISTINCT FROM (excluded.value, excluded.unit, excluded.start_date, excluded.end_date, excluded.source_name,
        excluded.source_bundle_id, excluded.device_model, excluded.product_type, excluded.external_id,
        excluded.is_primary_source, excluded.was_user_entered, excluded.metadata, excluded.source, excluded.device,
        excluded.on_body)
    RETURNING (xmax = 0) AS inserted, q.type, q.start_date, q.end_date`;
  const inserted = rows.filter((row) => row.inserted).length;
  return { inserted, updated: rows.length - inserted, changed: rows };
}

export interface SamplePageQuery extends TimePageQuery<AfterTimeBigint> {
  type: string;
  /** Provider filter (stats, derived totals); reads leave it out. */
  provider?: string | undefined;
}

function sampleFilters(q: SamplePageQuery): Prisma.Sql {
  const parts = [Prisma.sql`s.user_id = ${q.userId}::uuid AND s.type = ${q.type}`];
  if (q.start) parts.push(Prisma.sql`s.start_date >= ${q.start}`);
  if (q.end) parts.push(Prisma.sql`s.start_date < ${q.end}`);
  if (q.provider) parts.push(Prisma.sql`s.provider = ${q.provider}`);
  if (q.after) parts.push(Prisma.sql`(s.start_date, s.id) > (${q.after.t}, ${q.after.id})`);
  return Prisma.join(parts, " AND ");
}

const SAMPLES_TABLE = { table: "quantity_samples", start: "start_date", end: "end_date", sameMetric: ["type"] };

/** One page of samples of a type, oldest first; one row more than `limit`. */
export function listQuantitySamples(db: DbClient, q: SamplePageQuery): Promise<QuantitySampleRow[]> {
  return db.$queryRaw<QuantitySampleRow[]>`
    SELECT ${SAMPLE_COLUMNS} FROM quantity_samples s
    WHERE ${sampleFilters(q)}
    ORDER BY s.start_date, s.id
    LIMIT ${q.limit + 1}`;
}

/**
 * One page of the merged view: a sample is left out when a better ranked stream has a
 * matching sample; each kept sample lists the streams it outranked.
 */
export function listMergedQuantitySamples(
  db: DbClient,
  q: SamplePageQuery,
  streams: readonly SqlStream[],
  kind: MatchKind,
): Promise<QuantitySampleRow[]> {
  const merge = mergeConditions(SAMPLES_TABLE, kind);
  return db.$queryRaw<QuantitySampleRow[]>`
    WITH ${streamsCte(streams)}
    SELECT ${SAMPLE_COLUMNS}, ${merge.outranked} AS outranked
    FROM quantity_samples s
    ${rankOfRecord()}
    WHERE ${sampleFilters(q)} AND ${merge.keep}
    ORDER BY s.start_date, s.id
    LIMIT ${q.limit + 1}`;
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
 * `cap` means the answer is truncated. `streams` set: the merged view.
 */
export function sampleStatsBuckets(
  db: DbClient,
  q: Omit<SamplePageQuery, "after" | "limit">,
  boundaries: readonly Date[],
  cap: number,
  merged: { streams: readonly SqlStream[]; kind: MatchKind } | undefined,
): Promise<StatsBucketRow[]> {
  const filters = sampleFilters({ ...q, limit: cap });
  const mergedParts = merged && mergeConditions(SAMPLES_TABLE, merged.kind);
  return db.$queryRaw<StatsBucketRow[]>`
    WITH ${merged ? Prisma.sql`${streamsCte(merged.streams)},` : Prisma.empty}
    matched AS (
      SELECT s.id, s.start_date, s.provider, s.source_key, s.device, s.unit, s.value
      FROM quantity_samples s
      ${mergedParts ? rankOfRecord() : Prisma.empty}
      WHERE ${filters}${mergedParts ? Prisma.sql` AND ${mergedParts.keep}` : Prisma.empty}
      ORDER BY s.start_date, s.id
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
  const perType = q.types.map(
    (type) => Prisma.sql`(SELECT DISTINCT s.start_date FROM quantity_samples s
      WHERE s.user_id = ${q.userId}::uuid AND s.type = ${type}
        ${q.from ? Prisma.sql`AND s.start_date >= ${q.from}` : Prisma.empty}
        ${q.start ? Prisma.sql`AND s.start_date >= ${q.start}` : Prisma.empty}
        ${q.end ? Prisma.sql`AND s.start_date < ${q.end}` : Prisma.empty}
      ORDER BY s.start_date LIMIT ${q.limit})`,
  );
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
 * samples. The merged view's rule (merge/merge-sql-repository.ts, merge/match-kinds.ts) is computed with two window
 * passes over the type's samples in time order instead of a probe per sample: for each rank r
 * of the streams, the latest start (readings) or end (counts) among samples of better ranked
 * streams up to each sample, and the earliest start from it on. A reading is left out when one
 * of those starts is within the match window; a count when a better one overlaps it (a record
 * of no length counts as one millisecond long). No chains, as in the merged view. Samples up
 * to `padMs` outside [start, end) are read too: they can outrank ones inside.
 */
export function mergedSampleBucketAggregates(
  db: DbClient,
  q: { userId: string; type: string; start: Date; end: Date; padMs: number },
  boundaries: readonly Date[],
  merged: { streams: readonly SqlStream[]; kind: "counts" | "readings"; windowSeconds: number },
): Promise<SampleBucketRow[]> {
  const ranks = [...new Set(merged.streams.map((stream) => stream.rank))].sort((a, b) => a - b);
  // A sample of rank r is compared with the samples of ranks below r; the best rank has none.
  const thresholds = [...ranks.slice(1), UNRANKED];
  const readings = merged.kind === "readings";
  const window = Prisma.sql`make_interval(secs => ${merged.windowSeconds})`;
  const passes = thresholds.map(
    (rank, i) => Prisma.sql`,
      max(CASE WHEN rank < ${rank}::int THEN ${readings ? Prisma.sql`t` : Prisma.sql`e`} END) OVER up AS ${Prisma.raw(`p${i}`)},
      min(CASE WHEN rank < ${rank}::int THEN t END) OVER down AS ${Prisma.raw(`n${i}`)}`,
  );
  const outranked = thresholds.map((rank, i) => {
    const [p, n] = [Prisma.raw(`p${i}`), Prisma.raw(`n${i}`)];
    const matched = readings
      ? Prisma.sql`coalesce(${p} >= t - ${window}, false) OR coalesce(${n} <= t + ${window}, false)`
      : Prisma.sql`coalesce(${p} > t, false) OR coalesce(${n} < e, false)`;
    return Prisma.sql` WHEN ${rank}::int THEN ${matched}`;
  });
  const [readFrom, readTo] = [new Date(q.start.getTime() - q.padMs), new Date(q.end.getTime() + q.padMs)];
  return db.$queryRaw<SampleBucketRow[]>`
    WITH ${streamsCte(merged.streams)},
    s AS (
      SELECT s.start_date AS t, greatest(s.end_date, s.start_date + interval '1 millisecond') AS e, s.value, s.provider,
        coalesce(x.rank, ${UNRANKED}::int) AS rank
      FROM quantity_samples s
      LEFT JOIN streams x ON x.source_key = s.source_key AND x.provider = s.provider AND x.on_body = s.on_body
      WHERE s.user_id = ${q.userId}::uuid AND s.type = ${q.type} AND s.start_date >= ${readFrom} AND s.start_date < ${readTo}
    ),
    m AS (
      SELECT t, e, value, provider, rank${Prisma.join(passes, "")}
      FROM s
      WINDOW up AS (ORDER BY t RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW),
        down AS (ORDER BY t DESC RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)
    )
    SELECT width_bucket(t, ${boundaries}::timestamptz[]) AS bucket, provider,
      count(*)::int AS count, sum(value) AS sum, min(value) AS min, max(value) AS max
    FROM m
    WHERE t >= ${q.start} AND t < ${q.end} AND NOT (CASE rank${Prisma.join(outranked, "")} ELSE false END)
    GROUP BY 1, 2
    ORDER BY 1, 2`;
}
