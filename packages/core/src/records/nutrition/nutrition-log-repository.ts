import { Prisma } from "@svc/db";
import type { DbClient } from "../../platform/index.ts";
import { notTombstoned } from "../tombstone-repository.ts";
import type { AfterTimeUuid, TimePageQuery } from "../record-cursors.ts";
import type { RecordPage } from "../record-pages-repository.ts";

/** A normalized nutrition log ready to store. */
export interface NutritionLogWrite {
  startDate: Date;
  endDate: Date;
  mealType: string | null;
  name: string | null;
  energyKcal: number | null;
  proteinGrams: number | null;
  carbohydratesGrams: number | null;
  fatGrams: number | null;
  fiberGrams: number | null;
  sugarGrams: number | null;
  sodiumMilligrams: number | null;
  waterMilliliters: number | null;
  nutrients: Record<string, { value: number; unit: string }>;
  sourceName: string | null;
  externalId: string | null;
  metadata: Record<string, unknown>;
  source: string | null;
  sourceKey: string;
  device: string | null;
  onBody: boolean;
  dedupeKey: string;
}

export interface NutritionLogRow {
  id: string;
  start_date: Date;
  end_date: Date;
  meal_type: string | null;
  name: string | null;
  energy_kcal: number | null;
  protein_grams: number | null;
  carbohydrates_grams: number | null;
  fat_grams: number | null;
  fiber_grams: number | null;
  sugar_grams: number | null;
  sodium_milligrams: number | null;
  water_milliliters: number | null;
  nutrients: Record<string, { value: number; unit: string }>;
  source_name: string | null;
  external_id: string | null;
  metadata: Record<string, unknown>;
  provider: string;
  source: string | null;
  device: string | null;
  ingested_at: Date;
}

/**
 * Inserts new logs and updates stored ones whose fields changed; a log the provider
 * deleted (tombstone) is not stored again. The batch must hold each dedupe key once.
 */
export async function upsertNutritionLogs(
  db: DbClient,
  batch: { userId: string; provider: string; rawObjectId: string | null },
  logs: readonly NutritionLogWrite[],
): Promise<{ inserted: number; updated: number; changed: Array<{ start_date: Date; end_date: Date }> }> {
  if (logs.length === 0) return { inserted: 0, updated: 0, changed: [] };
  const column = <K extends keyof NutritionLogWrite>(key: K) => logs.map((l) => l[key]);
  const rows = await db.$queryRaw<Array<{ inserted: boolean; start_date: Date; end_date: Date }>>`
    INSERT INTO nutrition_logs AS q (id, user_id, provider, raw_object_id, start_date, end_date, meal_type, name,
      energy_kcal, protein_grams, carbohydrates_grams, fat_grams, fiber_grams, sugar_grams, sodium_milligrams,
      water_milliliters, nutrients, source_name, external_id, metadata, source, source_key, device, on_body, dedupe_key)
    SELECT gen_random_uuid(), ${batch.userId}::uuid, ${batch.provider}, ${batch.rawObjectId}::uuid, n.*
    FROM unnest(${column("startDate")}::timestamptz[], ${column("endDate")}::timestamptz[], ${column("mealType")}::text[],
      ${column("name")}::text[], ${column("energyKcal")}::float8[], ${column("proteinGrams")}::float8[],
      ${column("carbohydratesGrams")}::float8[], ${column("fatGrams")}::float8[], ${column("fiberGrams")}::float8[],
      ${column("sugarGrams")}::float8[], ${column("sodiumMilligrams")}::float8[], ${column("waterMilliliters")}::float8[],
      ${logs.map((l) => JSON.stringify(l.nutrients))}::jsonb[], ${column("sourceName")}::text[], ${column("externalId")}::text[],
      ${logs.map((l) => JSON.stringify(l.metadata))}::jsonb[], ${column("source")}::text[], ${column("sourceKey")}::text[],
      ${column("device")}::text[], ${column("onBody")}::boolean[], ${column("dedupeKey")}::text[])
      AS n(start_date, end_date, meal_type, name, energy_kcal, protein_grams, carbohydrates_grams, fat_grams,
        fiber_grams, sugar_grams, sodium_milligrams, water_milliliters, nutrients, source_name, external_id, metadata,
        source, source_key, device, on_body, dedupe_key)
    WHERE ${notTombstoned(batch, "nutrition_log")}
    ON CONFLICT (user_id, provider, dedupe_key) DO UPDATE SET
      start_date = excluded.start_date, end_date = excluded.end_date, meal_type = excluded.meal_type, name = excluded.name,
      energy_kcal = excluded.energy_kcal, protein_grams = excluded.protein_grams,
      carbohydrates_grams = excluded.carbohydrates_grams, fat_grams = excluded.fat_grams, fiber_grams = excluded.fiber_grams,
      sugar_grams = excluded.sugar_grams, sodium_milligrams = excluded.sodium_milligrams,
      water_milliliters = excluded.water_milliliters, nutrients = excluded.nutrients, source_name = excluded.source_name,
      external_id = excluded.external_id, metadata = excluded.metadata, source = excluded.source,
      source_key = excluded.source_key, device = excluded.device, on_body = excluded.on_body,
      raw_object_id = excluded.raw_object_id, ingested_at = now()
    WHERE (q.start_date, q.end_date, q.meal_type, q.name, q.energy_kcal, q.protein_grams, q.carbohydrates_grams,
        q.fat_grams, q.fiber_grams, q.sugar_grams, q.sodium_milligrams, q.water_milliliters, q.nutrients, q.source_name,
        q.external_id, q.metadata, q.source, q.device, q.on_body)
      IS DISTINCT FROM (excluded.start_date, excluded.end_date, excluded.meal_type, excluded.name, excluded.energy_kcal,
        excluded.protein_grams, excluded.carbohydrates_grams, excluded.fat_grams, excluded.fiber_grams,
        excluded.sugar_grams, excluded.sodium_milligrams, excluded.water_milliliters, excluded.nutrients,
        excluded.source_name, excluded.external_id, excluded.metadata, excluded.source, excluded.device, excluded.on_body)
    RETURNING (xmax = 0) AS inserted, q.start_date, q.end_date`;
  const inserted = rows.filter((row) => row.inserted).length;
  return { inserted, updated: rows.length - inserted, changed: rows };
}

export type NutritionPageQuery = TimePageQuery<AfterTimeUuid>;

/** One page of a user's nutrition logs by (start_date, id); one row more than `limit`. */
export function selectNutritionLogs(db: DbClient, q: NutritionPageQuery): Promise<NutritionLogRow[]> {
  return db.$queryRaw<NutritionLogRow[]>(nutritionLogsPage(q).sql);
}

/** The statement of selectNutritionLogs (record-pages-repository.ts reads pages as JSON). */
export function nutritionLogsPage(q: NutritionPageQuery): RecordPage<NutritionLogRow> {
  const parts = [Prisma.sql`n.user_id = ${q.userId}::uuid`];
  if (q.start) parts.push(Prisma.sql`n.start_date >= ${q.start}`);
  if (q.end) parts.push(Prisma.sql`n.start_date < ${q.end}`);
  if (q.after) parts.push(Prisma.sql`(n.start_date, n.id) > (${q.after.t}, ${q.after.id}::uuid)`);
  return {
    times: ["start_date", "end_date", "ingested_at"],
    order: ["start_date", "id"],
    sql: Prisma.sql`
      SELECT n.id, n.start_date, n.end_date, n.meal_type, n.name, n.energy_kcal, n.protein_grams, n.carbohydrates_grams,
        n.fat_grams, n.fiber_grams, n.sugar_grams, n.sodium_milligrams, n.water_milliliters, n.nutrients, n.source_name,
        n.external_id, n.metadata, n.provider, n.source, n.device, n.ingested_at
      FROM nutrition_logs n
      WHERE ${Prisma.join(parts, " AND ")}
      ORDER BY n.start_date, n.id
      LIMIT ${q.limit + 1}`,
  };
}
