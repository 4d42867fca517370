import type { DbClient } from "../../platform/index.ts";
import { upsertNutritionLogs, type NutritionLogWrite } from "./nutrition-log-repository.ts";
import { insertRejectedRecords } from "../rejected-record-repository.ts";
import { checkAmounts, checkInterval, identityOf, normalizeProvenance, type RecordProvenanceInput } from "../record-fields.ts";
import { partitionRecords, writeSummary } from "../record-batches.ts";
import { utcDays } from "../utc-days.ts";
import type { RecordBatch, WriteSummary } from "../record-batches.ts";

/** A meal or drink as a parser produces it. Amounts are in the unit their name says. */
export interface NutritionLogRecord extends RecordProvenanceInput {
  start_date: Date;
  /** Missing means an instant (end = start). */
  end_date?: Date | undefined;
  /** `breakfast`, `lunch`, `dinner` or `snack` (any case); anything else is stored as null. */
  meal_type?: string | null | undefined;
  name?: string | null | undefined;
  energy_kcal?: number | null | undefined;
  protein_grams?: number | null | undefined;
  carbohydrates_grams?: number | null | undefined;
  fat_grams?: number | null | undefined;
  fiber_grams?: number | null | undefined;
  sugar_grams?: number | null | undefined;
  sodium_milligrams?: number | null | undefined;
  water_milliliters?: number | null | undefined;
  /** Other nutrients by name: `{caffeine: {value: 95, unit: "mg"}}`. */
  nutrients?: Record<string, { value: number; unit: string }> | undefined;
}

const AMOUNTS = [
  "energy_kcal",
  "protein_grams",
  "carbohydrates_grams",
  "fat_grams",
  "fiber_grams",
  "sugar_grams",
  "sodium_milligrams",
  "water_milliliters",
] as const;

const MEAL_TYPES = new Set(["breakfast", "lunch", "dinner", "snack"]);
const NUTRIENT_NAME = /^[A-Za-z0-9_.\- ]{1,64}$/;
const CHUNK = 2000;

/**
 * Stores nutrition logs idempotently (identity: the provider's id, else times, device and
 * source name): a log seen before is stored once and updated when a field changed; what
 * cannot be stored becomes a rejected record whose reason never quotes a value.
 * Call inside the caller's transaction.
 */
export async function writeNutritionLogs(db: DbClient, batch: RecordBatch, logs: readonly NutritionLogRecord[]): Promise<WriteSummary> {
  const partitioned = partitionRecords(logs, "nutrition_log", (r) => normalizeNutritionLog(r, batch.provider), (log) => log.dedupeKey);
  const rows = [...partitioned.byIdentity.values()];
  let inserted = 0;
  let updated = 0;
  const days = new Set<string>();
  for (let i = 0; i < rows.length; i += CHUNK) {
    const result = await upsertNutritionLogs(db, { ...batch, rawObjectId: batch.rawObjectId ?? null }, rows.slice(i, i + CHUNK));
    inserted += result.inserted;
    updated += result.updated;
    for (const row of result.changed) for (const day of utcDays(row.start_date, row.end_date)) days.add(day);
  }
  await insertRejectedRecords(db, batch, partitioned.rejected);
  const types = inserted + updated > 0 ? ["nutrition_log"] : [];
  return writeSummary(partitioned, { inserted, updated, types, days });
}

function normalizeNutritionLog(record: NutritionLogRecord, provider: string): NutritionLogWrite | { reason: string } {
  const times = checkInterval("nutrition_log", record.start_date, record.end_date);
  if ("reason" in times) return times;
  const amounts = checkAmounts("nutrition_log", record, AMOUNTS);
  if ("reason" in amounts) return amounts;
  const nutrients: Record<string, { value: number; unit: string }> = {};
  for (const [name, nutrient] of Object.entries(record.nutrients ?? {})) {
    if (!NUTRIENT_NAME.test(name)) return { reason: "nutrition_log: a nutrient name is not 1 to 64 letters, digits, spaces, `_`, `-` or `.`" };
    if (typeof nutrient?.value !== "number" || !Number.isFinite(nutrient.value) || nutrient.value < 0) {
      return { reason: `nutrition_log: nutrient ${name} has no finite value of at least 0` };
    }
    if (typeof nutrient.unit !== "string" || nutrient.unit.length === 0 || nutrient.unit.length > 32) {
      return { reason: `nutrition_log: nutrient ${name} needs a unit of 1 to 32 characters` };
    }
    nutrients[name] = { value: nutrient.value, unit: nutrient.unit };
  }
  const provenance = normalizeProvenance(record, provider);
  const mealType = record.meal_type ? record.meal_type.trim().toLowerCase() : null;
  if (mealType !== null && !MEAL_TYPES.has(mealType)) provenance.metadata.meal_type_as_sent = record.meal_type;
  return {
    startDate: times.start,
    endDate: times.end,
    mealType: mealType !== null && MEAL_TYPES.has(mealType) ? mealType : null,
    name: record.name ?? null,
    energyKcal: amounts.energy_kcal,
    proteinGrams: amounts.protein_grams,
    carbohydratesGrams: amounts.carbohydrates_grams,
    fatGrams: amounts.fat_grams,
    fiberGrams: amounts.fiber_grams,
    sugarGrams: amounts.sugar_grams,
    sodiumMilligrams: amounts.sodium_milligrams,
    waterMilliliters: amounts.water_milliliters,
    nutrients,
    ...provenance,
    dedupeKey: identityOf(provenance, times.start, times.end),
  };
}
