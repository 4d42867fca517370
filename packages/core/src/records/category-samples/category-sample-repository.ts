import { Prisma } from "@svc/db";
import type { DbClient } from "../../platform/index.ts";
import { mergeConditions, rankOfRecord, streamsCte, type MergeTable, type SqlStream } from "../merge/merge-sql-repository.ts";
import { notTombstoned } from "../tombstone-repository.ts";
import type { AfterTimeBigint, TimePageQuery } from "../record-cursors.ts";

/** A normalized category sample ready to store, in its series. */
export interface CategorySampleWrite {
  seriesId: bigint;
  type: string;
  value: string;
  startDate: Date;
  endDate: Date;
  externalId: string | null;
  /** Its zone when not its series' ("" for none); null: its series' zone. */
  timezone: string | null;
  /** Its own metadata, without the zone; null when empty. */
  metadata: Record<string, unknown> | null;
  dedupeKey: string;
}

export interface CategorySampleRow {
  id: bigint;
  type: string;
  value: string;
  start_date: Date;
  end_date: Date;
  source_name: string | null;
  source_bundle_id: string | null;
  device_model: string | null;
  external_id: string | null;
  was_user_entered: boolean;
  metadata: Record<string, unknown>;
  provider: string;
  source: string | null;
  device: string | null;
  ingested_at: Date;
  /** Only in the merged view. */
  outranked?: Array<{ provider: string; source: string }>;
}

/** HealthKit's ids: stored as uuid (external_uuid) and read back in upper case. */
const UPPERCASE_UUID = /^[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}$/;

/**
 * A sample's identity within its user: its provider, type and dedupe key (the provider's id,
 * else times, device and source name), hashed to 16 bytes. Neither provider nor type has a
 * space, so the three are never confused. The migration *_category_sample_series computes it
 * the same way.
 */
export const categoryIdentity = (provider: Prisma.Sql, type: Prisma.Sql, dedupeKey: Prisma.Sql): Prisma.Sql =>
  Prisma.sql`md5(${provider} || ' ' || ${type} || ' ' || ${dedupeKey})::uuid`;

/** The zone of a sample `s` of the series `r`. */
const ZONE = Prisma.sql`nullif(coalesce(s.timezone, r.timezone), '')`;

/** A sample (`s`) with its series (`r`), as the API shows it: the zone back in metadata, the provider's id as sent. */
const CATEGORY_COLUMNS = Prisma.sql`s.id, r.type, s.value, s.start_date, s.end_date, r.source_name, r.source_bundle_id, r.device_model,
  coalesce(s.external_id, upper(s.external_uuid::text)) AS external_id, r.was_user_entered,
  coalesce(s.metadata, '{}'::jsonb) || jsonb_strip_nulls(jsonb_build_object('timezone', ${ZONE})) AS metadata,
  r.provider, r.source, r.device, s.ingested_at`;

/**
 * A sample of category_samples_legacy (stored one wide row each before the upgrade to series,
 * until the job data-moves moves it: legacy-category-sample-repository.ts) aliased `l`, as
 * CATEGORY_COLUMNS shows a sample moved: its metadata and provider's id are stored as shown.
 * Every read adds the user's legacy samples to the others.
 */
const LEGACY_COLUMNS = Prisma.sql`l.id, l.type, l.value, l.start_date, l.end_date, l.source_name, l.source_bundle_id, l.device_model,
  l.external_id, l.was_user_entered, l.metadata, l.provider, l.source, l.device, l.ingested_at`;

/** Category samples match per type when their intervals overlap (spec: anything else). */
export const CATEGORY_TABLE: MergeTable = {
  table: "category_samples",
  series: "category_sample_series",
  start: "start_date",
  end: "end_date",
  sameMetric: ["type"],
};

/** The samples not moved yet, which hold their series' fields themselves. */
const LEGACY_CATEGORY_TABLE: MergeTable = { table: "category_samples_legacy", start: "start_date", end: "end_date", sameMetric: ["type"] };

/**
 * Every category sample write or move of a user holds this lock until its transaction ends: a
 * write first moves the user's samples not moved yet, so that it finds them by their identity.
 */
export async function lockUserCategorySamples(db: DbClient, userId: string): Promise<void> {
  await db.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended('category_samples:' || ${userId}, 0))`;
}

/**
 * Inserts new category samples and updates stored ones whose value, times, series or details
 * changed (a sample whose source name changed moves to its new series and keeps its id); a
 * sample the provider deleted (tombstone) is not stored again. The batch must hold each (type,
 * dedupe key) once. Returns the type and times of each inserted or updated sample.
 */
export async function upsertCategorySamples(
  db: DbClient,
  batch: { userId: string; provider: string; rawObjectId: string | null },
  samples: readonly CategorySampleWrite[],
): Promise<{ inserted: number; updated: number; changed: Array<{ type: string; start_date: Date; end_date: Date }> }> {
  if (samples.length === 0) return { inserted: 0, updated: 0, changed: [] };
  const column = <K extends keyof CategorySampleWrite>(key: K) => samples.map((s) => s[key]);
  const uuids = samples.map((s) => (s.externalId !== null && UPPERCASE_UUID.test(s.externalId) ? s.externalId : null));
  const rows = await db.$queryRaw<Array<{ inserted: boolean; series_id: bigint; start_date: Date; end_date: Date }>>`
    INSERT INTO category_samples AS q (user_id, series_id, start_date, end_date, identity, raw_object_id, external_uuid, value,
      external_id, timezone, metadata)
    SELECT ${batch.userId}::uuid, n.series_id, n.start_date, n.end_date,
      ${categoryIdentity(Prisma.sql`${batch.provider}`, Prisma.sql`n.type`, Prisma.sql`n.dedupe_key`)}, ${batch.rawObjectId}::uuid,
      n.external_uuid, n.value, CASE WHEN n.external_uuid IS NULL THEN n.external_id END, n.timezone, n.metadata
    FROM unnest(${column("seriesId")}::bigint[], ${column("type")}::text[], ${column("dedupeKey")}::text[],
      ${column("startDate")}::timestamptz[], ${column("endDate")}::timestamptz[], ${uuids}::uuid[], ${column("value")}::text[],
      ${column("externalId")}::text[], ${column("timezone")}::text[],
      ${samples.map((s) => (s.metadata === null ? null : JSON.stringify(s.metadata)))}::jsonb[])
      AS n(series_id, type, dedupe_key, start_date, end_date, external_uuid, value, external_id, timezone, metadata)
    WHERE ${notTombstoned(batch, "category_sample")}
    ON CONFLICT (user_id, identity) DO UPDATE SET
      series_id = excluded.series_id, start_date = excluded.start_date, end_date = excluded.end_date, value = excluded.value,
      external_uuid = excluded.external_uuid, external_id = excluded.external_id, timezone = excluded.timezone,
      metadata = excluded.metadata, raw_object_id = excluded.raw_object_id, ingested_at = now()
    WHERE (q.series_id, q.start_date, q.end_date, q.value, q.external_uuid, q.external_id, q.timezone, q.metadata)
      IS DISTINCT FROM (excluded.series_id, excluded.start_date, excluded.end_date, excluded.value, excluded.external_uuid,
        excluded.external_id, excluded.timezone, excluded.metadata)
    RETURNING (xmax = 0) AS inserted, q.series_id, q.start_date, q.end_date`;
  const typeOfSeries = new Map(samples.map((s) => [s.seriesId, s.type]));
  const inserted = rows.filter((row) => row.inserted).length;
  const changed = rows.map((row) => ({ type: typeOfSeries.get(row.series_id)!, start_date: row.start_date, end_date: row.end_date }));
  return { inserted, updated: rows.length - inserted, changed };
}

export interface CategoryPageQuery extends TimePageQuery<AfterTimeBigint> {
  /** Missing: every type. */
  type?: string | undefined;
}

/** The page's window and cursor on a sample aliased `s` (or `l`). */
function timeFilters(q: CategoryPageQuery, s: "s" | "l"): Prisma.Sql[] {
  const col = (name: string) => Prisma.raw(`${s}.${name}`);
  const parts: Prisma.Sql[] = [];
  if (q.start) parts.push(Prisma.sql`${col("start_date")} >= ${q.start}`);
  if (q.end) parts.push(Prisma.sql`${col("start_date")} < ${q.end}`);
  if (q.after) parts.push(Prisma.sql`(${col("start_date")}, ${col("id")}) > (${q.after.t}, ${q.after.id})`);
  return parts;
}

/** The page's conditions on a sample `s` of the series `r`. */
function sampleFilters(q: CategoryPageQuery): Prisma.Sql {
  return Prisma.join([Prisma.sql`s.user_id = r.user_id AND s.series_id = r.id`, ...timeFilters(q, "s")], " AND ");
}

/** The page's conditions on a legacy sample `l` (of one type or all). */
function legacyFilters(q: CategoryPageQuery, type: string | undefined): Prisma.Sql {
  const own = type === undefined ? Prisma.sql`l.user_id = ${q.userId}::uuid` : Prisma.sql`l.user_id = ${q.userId}::uuid AND l.type = ${type}`;
  return Prisma.join([own, ...timeFilters(q, "l")], " AND ");
}

/** The user's series `r` (of one type or all). */
function seriesFilters(userId: string, type: string | undefined): Prisma.Sql {
  return type === undefined ? Prisma.sql`r.user_id = ${userId}::uuid` : Prisma.sql`r.user_id = ${userId}::uuid AND r.type = ${type}`;
}

/**
 * One page of category samples (of one type or all), oldest first; one row more than `limit`.
 * Each series gives its first `limit + 1` samples in the order of its key, the legacy samples
 * theirs in the order of their index; the page is the first of them all.
 */
export function selectCategorySamples(db: DbClient, q: CategoryPageQuery): Promise<CategorySampleRow[]> {
  return db.$queryRaw<CategorySampleRow[]>`
    SELECT * FROM (
      (SELECT ${CATEGORY_COLUMNS}
      FROM category_sample_series r
      CROSS JOIN LATERAL (
        SELECT * FROM category_samples s WHERE ${sampleFilters(q)} ORDER BY s.start_date, s.id LIMIT ${q.limit + 1}
      ) s
      WHERE ${seriesFilters(q.userId, q.type)}
      ORDER BY s.start_date, s.id
      LIMIT ${q.limit + 1})
      UNION ALL
      (SELECT ${LEGACY_COLUMNS} FROM category_samples_legacy l WHERE ${legacyFilters(q, q.type)} ORDER BY l.start_date, l.id LIMIT ${q.limit + 1})
    ) page
    ORDER BY page.start_date, page.id
    LIMIT ${q.limit + 1}`;
}

/**
 * The merged view of a sample aliased `r` of the series (or legacy sample) `rs`: the matching
 * samples of other streams are looked for among the samples in series and the legacy ones.
 */
function mergeOf(r: string, rs: string): { keep: Prisma.Sql; outranked: Prisma.Sql } {
  const moved = mergeConditions(CATEGORY_TABLE, "other", r, rs);
  const legacy = mergeConditions(LEGACY_CATEGORY_TABLE, "other", r, rs);
  return {
    keep: Prisma.sql`${moved.keep} AND ${legacy.keep}`,
    // As one list, each stream once, in the order a single jsonb_agg(DISTINCT ...) gives.
    outranked: Prisma.sql`(
      SELECT coalesce(jsonb_agg(DISTINCT o.value), '[]'::jsonb)
      FROM (SELECT value FROM jsonb_array_elements(${moved.outranked}) UNION ALL SELECT value FROM jsonb_array_elements(${legacy.outranked})) o
    )`,
  };
}

/**
 * One page of the merged view. Each type is ranked on its own (the metric is the type), so
 * the page is the union of one ranked query per type, each reading its series and legacy
 * samples as selectCategorySamples does, cut to `limit + 1` rows overall.
 */
export async function selectMergedCategorySamples(
  db: DbClient,
  q: CategoryPageQuery,
  streamsByType: ReadonlyMap<string, readonly SqlStream[]>,
): Promise<CategorySampleRow[]> {
  if (streamsByType.size === 0) return [];
  const merge = mergeOf("s", "r");
  const legacyMerge = mergeOf("l", "l");
  const branches = [...streamsByType].flatMap(([type, streams]) => [
    Prisma.sql`(
      WITH ${streamsCte(streams)}
      SELECT ${CATEGORY_COLUMNS}, ${merge.outranked} AS outranked
      FROM category_sample_series r
      ${rankOfRecord("r")}
      CROSS JOIN LATERAL (
        SELECT * FROM category_samples s WHERE ${sampleFilters(q)} AND ${merge.keep} ORDER BY s.start_date, s.id LIMIT ${q.limit + 1}
      ) s
      WHERE ${seriesFilters(q.userId, type)}
      ORDER BY s.start_date, s.id
      LIMIT ${q.limit + 1}
    )`,
    Prisma.sql`(
      WITH ${streamsCte(streams)}
      SELECT ${LEGACY_COLUMNS}, ${legacyMerge.outranked} AS outranked
      FROM category_samples_legacy l
      ${rankOfRecord("l")}
      WHERE ${legacyFilters(q, type)} AND ${legacyMerge.keep}
      ORDER BY l.start_date, l.id
      LIMIT ${q.limit + 1}
    )`,
  ]);
  return db.$queryRaw<CategorySampleRow[]>`
    SELECT * FROM (${Prisma.join(branches, " UNION ALL ")}) page
    ORDER BY page.start_date, page.id
    LIMIT ${q.limit + 1}`;
}

/** The user's streams of category samples (of one type or all), with each stream's longest sample. */
export function selectCategoryStreams(db: DbClient, userId: string, type: string | undefined) {
  const legacyOfType = type === undefined ? Prisma.empty : Prisma.sql` AND l.type = ${type}`;
  return db.$queryRaw<Array<{ type: string; sourceKey: string; provider: string; onBody: boolean; maxDurationSeconds: number }>>`
    SELECT x.type, x.source_key AS "sourceKey", x.provider, x.on_body AS "onBody",
      ceil(extract(epoch FROM max(x.duration)))::int AS "maxDurationSeconds"
    FROM (
      SELECT r.type, r.source_key, r.provider, r.on_body, max(s.end_date - s.start_date) AS duration
      FROM category_sample_series r
      JOIN category_samples s ON s.user_id = r.user_id AND s.series_id = r.id
      WHERE ${seriesFilters(userId, type)}
      GROUP BY 1, 2, 3, 4
      UNION ALL
      SELECT l.type, l.source_key, l.provider, l.on_body, max(l.end_date - l.start_date)
      FROM category_samples_legacy l
      WHERE l.user_id = ${userId}::uuid${legacyOfType}
      GROUP BY 1, 2, 3, 4
    ) x
    GROUP BY 1, 2, 3, 4
    ORDER BY 1, 2, 3, 4`;
}

/** Every recorded menstrual flow other than `none` of a user: times and the zone it was recorded in. */
export function selectMenstrualFlowTimes(db: DbClient, userId: string) {
  return db.$queryRaw<Array<{ start_date: Date; end_date: Date; timezone: string | null }>>`
    SELECT s.start_date, s.end_date, coalesce(${ZONE}, s.metadata->>'timezone') AS timezone
    FROM category_sample_series r
    JOIN category_samples s ON s.user_id = r.user_id AND s.series_id = r.id
    WHERE r.user_id = ${userId}::uuid AND r.type = 'menstrual_flow' AND s.value <> 'none'
    UNION ALL
    SELECT l.start_date, l.end_date, l.metadata->>'timezone'
    FROM category_samples_legacy l
    WHERE l.user_id = ${userId}::uuid AND l.type = 'menstrual_flow' AND l.value <> 'none'`;
}
