import type { DbClient } from "../../platform/index.ts";

/** What the category samples of one series share (category_sample_series), besides user, provider and zone. */
export interface CategorySeriesFields {
  type: string;
  source: string | null;
  sourceKey: string;
  device: string | null;
  onBody: boolean;
  sourceName: string | null;
  sourceBundleId: string | null;
  deviceModel: string | null;
  wasUserEntered: boolean;
}

/** One string per distinct series of a user and provider. */
export const categorySeriesKey = (s: CategorySeriesFields): string =>
  JSON.stringify([s.type, s.source, s.sourceKey, s.device, s.onBody, s.sourceName, s.sourceBundleId, s.deviceModel, s.wasUserEntered]);

export interface CategorySeries {
  id: bigint;
  /** The zone of its samples (a sample in another one keeps its own). */
  timezone: string | null;
}

/**
 * These series of the user and provider, by categorySeriesKey; a series not stored yet is
 * stored first, with the zone given.
 */
export async function categorySeries(
  db: DbClient,
  batch: { userId: string; provider: string },
  series: ReadonlyArray<CategorySeriesFields & { timezone: string | null }>,
): Promise<Map<string, CategorySeries>> {
  if (series.length === 0) return new Map();
  const column = <K extends keyof CategorySeriesFields | "timezone">(key: K) => series.map((s) => s[key]);
  await db.$executeRaw`
    INSERT INTO category_sample_series (user_id, provider, type, source, source_key, device, on_body, source_name,
      source_bundle_id, device_model, was_user_entered, timezone)
    SELECT ${batch.userId}::uuid, ${batch.provider}, n.*
    FROM unnest(${column("type")}::text[], ${column("source")}::text[], ${column("sourceKey")}::text[], ${column("device")}::text[],
      ${column("onBody")}::boolean[], ${column("sourceName")}::text[], ${column("sourceBundleId")}::text[],
      ${column("deviceModel")}::text[], ${column("wasUserEntered")}::boolean[], ${column("timezone")}::text[]) AS n
    ON CONFLICT (user_id, type, provider, source_key, on_body, source, device, source_name, source_bundle_id, device_model,
      was_user_entered) DO NOTHING`;
  const stored = await db.$queryRaw<Array<CategorySeriesFields & CategorySeries>>`
    SELECT id, type, source, source_key AS "sourceKey", device, on_body AS "onBody", source_name AS "sourceName",
      source_bundle_id AS "sourceBundleId", device_model AS "deviceModel", was_user_entered AS "wasUserEntered", timezone
    FROM category_sample_series
    WHERE user_id = ${batch.userId}::uuid AND provider = ${batch.provider} AND type = ANY(${[...new Set(column("type"))]}::text[])`;
  return new Map(stored.map((s) => [categorySeriesKey(s), { id: s.id, timezone: s.timezone }]));
}
