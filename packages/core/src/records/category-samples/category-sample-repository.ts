import { Prisma } from "@svc/db";
import type { DbClient } from "../../platform/index.ts";
import { mergeConditions, rankOfRecord, streamsCte, type MergeTable, type SqlStream } from "../merge/merge-sql-repository.ts";
import { notTombstoned } from "../tombstone-repository.ts";
import type { AfterTimeBigint, TimePageQuery } from "../record-cursors.ts";

/** A normalized category sample ready to store. */
export interface CategorySampleWrite {
  type: string;
  value: string;
  startDate: Date;
  endDate: Date;
  sourceName: string | null;
  sourceBundleId: string | null;
  deviceModel: string | null;
  externalId: string | null;
  wasUserEntered: boolean;
  metadata: Record<string, unknown>;
  source: string | null;
  sourceKey: string;
  device: string | null;
  onBody: boolean;
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

const CATEGORY_COLUMNS = Prisma.sql`s.id, s.type, s.value, s.start_date, s.end_date, s.source_name, s.source_bundle_id,
  s.device_model, s.external_id, s.was_user_entered, s.metadata, s.provider, s.source, s.device, s.ingested_at`;

/** Category samples match per type when their intervals overlap (spec: anything else). */
export const CATEGORY_TABLE: MergeTable = { table: "category_samples", start: "start_date", end: "end_date", sameMetric: ["type"] };

/**
 * Inserts new category samples and updates stored ones whose value or details changed; a
 * sample the provider deleted (tombstone) is not stored again. The batch must hold each
 * (type, dedupe key) once. Returns the type and times of each inserted or updated row.
 */
export async function upsertCategorySamples(
  db: DbClient,
  batch: { userId: string; provider: string; rawObjectId: string | null },
  samples: readonly CategorySampleWrite[],
): Promise<{ inserted: number; updated: number; changed: Array<{ type: string; start_date: Date; end_date: Date }> }> {
  if (samples.length === 0) return { inserted: 0, updated: 0, changed: [] };
  const column = <K extends keyof CategorySampleWrite>(key: K) => samples.map((s) => s[key]);
  const rows = await db.$queryRaw<Array<{ inserted: boolean; type: string; start_date: Date; end_date: Date }>>`
    INSERT INTO category_samples AS q (user_id, provider, raw_object_id, type, value, start_date, end_date,
      source_name, source_bundle_id, device_model, external_id, was_user_entered, metadata, source, source_key,
      device, on_body, dedupe_key)
    SELECT ${batch.userId}::uuid, ${batch.provider}, ${batch.rawObjectId}::uuid, n.*
    FROM unnest(${column("type")}::text[], ${column("value")}::text[], ${column("startDate")}::timestamptz[],
      ${column("endDate")}::timestamptz[], ${column("sourceName")}::text[], ${column("sourceBundleId")}::text[],
      ${column("deviceModel")}::text[], ${column("externalId")}::text[], ${column("wasUserEntered")}::boolean[],
      ${samples.map((s) => JSON.stringify(s.metadata))}::jsonb[], ${column("source")}::text[], ${column("sourceKey")}::text[],
      ${column("device")}::text[], ${column("onBody")}::boolean[], ${column("dedupeKey")}::text[])
      AS n(type, value, start_date, end_date, source_name, source_bundle_id, device_model, external_id,
        was_user_entered, metadata, source, source_key, device, on_body, dedupe_key)
    WHERE ${notTombstoned(batch, "category_sample")}
    ON CONFLICT (user_id, type, provider, dedupe_key) DO UPDATE SET
      value = excluded.value, start_date = excluded.start_date, end_date = excluded.end_date,
      source_name = excluded.source_name, source_bundle_id = excluded.source_bundle_id,
      device_model = excluded.device_model, external_id = excluded.external_id,
      was_user_entered = excluded.was_user_entered, metadata = excluded.metadata, source = excluded.source,
      source_key = excluded.source_key, device = excluded.device, on_body = excluded.on_body,
      raw_object_id = excluded.raw_object_id, ingested_at = now()
    WHERE (q.value, q.start_date, q.end_date, q.source_name, q.source_bundle_id, q.device_model, q.external_id,
        q.was_user_entered, q.metadata, q.source, q.device, q.on_body)
      IS DISTINCT FROM (excluded.value, excluded.start_date, excluded.end_date, excluded.source_name,
        excluded.source_bundle_id, excluded.device_model, excluded.external_id, excluded.was_user_entered,
        excluded.metadata, excluded.source, excluded.device, excluded.on_body)
    RETURNING (xmax = 0) AS inserted, q.type, q.start_date, q.end_date`;
  const inserted = rows.filter((row) => row.inserted).length;
  return { inserted, updated: rows.length - inserted, changed: rows };
}

export interface CategoryPageQuery extends TimePageQuery<AfterTimeBigint> {
  /** Missing: every type. */
  type?: string | undefined;
}

function categoryFilters(q: CategoryPageQuery, type: string | undefined): Prisma.Sql {
  const parts = [Prisma.sql`s.user_id = ${q.userId}::uuid`];
  if (type !== undefined) parts.push(Prisma.sql`s.type = ${type}`);
  if (q.start) parts.push(Prisma.sql`s.start_date >= ${q.start}`);
  if (q.end) parts.push(Prisma.sql`s.start_date < ${q.end}`);
  if (q.after) parts.push(Prisma.sql`(s.start_date, s.id) > (${q.after.t}, ${q.after.id})`);
  return Prisma.join(parts, " AND ");
}

/** One page of category samples (of one type or all), oldest first; one row more than `limit`. */
export function selectCategorySamples(db: DbClient, q: CategoryPageQuery): Promise<CategorySampleRow[]> {
  return db.$queryRaw<CategorySampleRow[]>`
    SELECT ${CATEGORY_COLUMNS} FROM category_samples s
    WHERE ${categoryFilters(q, q.type)}
    ORDER BY s.start_date, s.id
    LIMIT ${q.limit + 1}`;
}

/**
 * One page of the merged view. Each type is ranked on its own (the metric is the type), so
 * the page is the union of one ranked query per type, each on the (user, type, start)
 * index, cut to `limit + 1` rows overall.
 */
export async function selectMergedCategorySamples(
  db: DbClient,
  q: CategoryPageQuery,
  streamsByType: ReadonlyMap<string, readonly SqlStream[]>,
): Promise<CategorySampleRow[]> {
  if (streamsByType.size === 0) return [];
  const merge = mergeConditions(CATEGORY_TABLE, "other");
  const branches = [...streamsByType].map(
    ([type, streams]) => Prisma.sql`(
      WITH ${streamsCte(streams)}
      SELECT ${CATEGORY_COLUMNS}, ${merge.outranked} AS outranked
      FROM category_samples s
      ${rankOfRecord()}
      WHERE ${categoryFilters(q, type)} AND ${merge.keep}
      ORDER BY s.start_date, s.id
      LIMIT ${q.limit + 1}
    )`,
  );
  return db.$queryRaw<CategorySampleRow[]>`
    SELECT * FROM (${Prisma.join(branches, " UNION ALL ")}) page
    ORDER BY page.start_date, page.id
    LIMIT ${q.limit + 1}`;
}

/** The user's streams of category samples (of one type or all), with each stream's longest sample. */
export function selectCategoryStreams(db: DbClient, userId: string, type: string | undefined) {
  return db.$queryRaw<Array<{ type: string; sourceKey: string; provider: string; onBody: boolean; maxDurationSeconds: number }>>`
    SELECT type, source_key AS "sourceKey", provider, on_body AS "onBody",
      ceil(extract(epoch FROM max(end_date - start_date)))::int AS "maxDurationSeconds"
    FROM category_samples
    WHERE user_id = ${userId}::uuid ${type === undefined ? Prisma.empty : Prisma.sql`AND type = ${type}`}
    GROUP BY 1, 2, 3, 4
    ORDER BY 1, 2, 3, 4`;
}

/** Every recorded menstrual flow other than `none` of a user: times and the zone it was recorded in. */
export function selectMenstrualFlowTimes(db: DbClient, userId: string) {
  return db.$queryRaw<Array<{ start_date: Date; end_date: Date; timezone: string | null }>>`
    SELECT start_date, end_date, metadata->>'timezone' AS timezone
    FROM category_samples
    WHERE user_id = ${userId}::uuid AND type = 'menstrual_flow' AND value <> 'none'`;
}
