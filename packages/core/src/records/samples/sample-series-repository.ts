import { Prisma } from "@svc/db";
import type { DbClient } from "../../platform/index.ts";

/** What the samples of one series share (quantity_sample_series). */
export interface SampleSeriesFields {
  type: string;
  unit: string;
  source: string | null;
  sourceKey: string;
  device: string | null;
  onBody: boolean;
  sourceName: string | null;
  sourceBundleId: string | null;
  deviceModel: string | null;
  productType: string | null;
  isPrimarySource: boolean;
  wasUserEntered: boolean;
  timezone: string | null;
  originalUnit: string | null;
}

export interface SampleSeries extends SampleSeriesFields {
  id: bigint;
  provider: string;
}

/** One string per distinct series of a user and provider. */
export const seriesKey = (s: SampleSeriesFields): string =>
  JSON.stringify([
    s.type, s.unit, s.source, s.sourceKey, s.device, s.onBody, s.sourceName, s.sourceBundleId, s.deviceModel,
    s.productType, s.isPrimarySource, s.wasUserEntered, s.timezone, s.originalUnit,
  ]);

const SERIES_FIELDS = `provider, type, unit, source, source_key AS "sourceKey", device, on_body AS "onBody",
  source_name AS "sourceName", source_bundle_id AS "sourceBundleId", device_model AS "deviceModel",
  product_type AS "productType", is_primary_source AS "isPrimarySource", was_user_entered AS "wasUserEntered",
  timezone, original_unit AS "originalUnit"`;
const SERIES_COLUMNS = Prisma.raw(`id, ${SERIES_FIELDS}`);

/** The user's series of these types as a JSON array (seriesFromJson reads it), to read beside something else. */
export function seriesJsonSql(userId: string, types: readonly string[]): Prisma.Sql {
  return Prisma.sql`(SELECT coalesce(json_agg(x), '[]'::json) FROM (
    SELECT id::text AS id, ${Prisma.raw(SERIES_FIELDS)} FROM quantity_sample_series
    WHERE user_id = ${userId}::uuid AND type = ANY(${[...types]}::text[])) x)`;
}

export const seriesFromJson = (rows: ReadonlyArray<Omit<SampleSeries, "id"> & { id: string }>): SampleSeries[] =>
  rows.map((row) => ({ ...row, id: BigInt(row.id) }));

/**
 * Every sample write of a user holds this lock until its transaction ends: a write reads the
 * chunks it changes and writes them back whole, so two writes of one user go one after the other.
 */
export async function lockUserSamples(db: DbClient, userId: string): Promise<void> {
  await db.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended('quantity_samples:' || ${userId}, 0))`;
}

/** Stores the series not stored yet (repeats are ignored). */
export async function insertSampleSeries(db: DbClient, userId: string, provider: string, series: readonly SampleSeriesFields[]) {
  if (series.length === 0) return;
  const column = <K extends keyof SampleSeriesFields>(key: K) => series.map((s) => s[key]);
  await db.$executeRaw`
    INSERT INTO quantity_sample_series (user_id, provider, type, unit, source, source_key, device, on_body, source_name,
      source_bundle_id, device_model, product_type, is_primary_source, was_user_entered, timezone, original_unit)
    SELECT ${userId}::uuid, ${provider}, n.*
    FROM unnest(${column("type")}::text[], ${column("unit")}::text[], ${column("source")}::text[],
      ${column("sourceKey")}::text[], ${column("device")}::text[], ${column("onBody")}::boolean[],
      ${column("sourceName")}::text[], ${column("sourceBundleId")}::text[], ${column("deviceModel")}::text[],
      ${column("productType")}::text[], ${column("isPrimarySource")}::boolean[], ${column("wasUserEntered")}::boolean[],
      ${column("timezone")}::text[], ${column("originalUnit")}::text[]) AS n
    ON CONFLICT ON CONSTRAINT quantity_sample_series_fields_key DO NOTHING`;
}

/** The user's series of these types, of one provider or of all. */
export function listSampleSeries(db: DbClient, q: { userId: string; types: readonly string[]; provider?: string | undefined }) {
  return db.$queryRaw<SampleSeries[]>`
    SELECT ${SERIES_COLUMNS} FROM quantity_sample_series
    WHERE user_id = ${q.userId}::uuid AND type = ANY(${[...q.types]}::text[])
      ${q.provider === undefined ? Prisma.empty : Prisma.sql`AND provider = ${q.provider}`}
    ORDER BY id`;
}

/** The user's series of one provider, of every type. */
export function listProviderSeries(db: DbClient, q: { userId: string; provider: string }) {
  return db.$queryRaw<SampleSeries[]>`
    SELECT ${SERIES_COLUMNS} FROM quantity_sample_series WHERE user_id = ${q.userId}::uuid AND provider = ${q.provider}
    ORDER BY id`;
}
