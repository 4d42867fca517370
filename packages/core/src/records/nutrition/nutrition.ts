import { type DbClient, type Page, parseTimeWindow, toPage } from "../../platform/index.ts";
import { selectNutritionLogs as listNutritionRows, type NutritionLogRow } from "./nutrition-log-repository.ts";
import { decodeAfterUuid } from "../record-cursors.ts";
import { toProvenanceDto } from "../provenance-dto.ts";

/** The meals a nutrition log can name; the writer stores anything else as null. */
export type MealType = "breakfast" | "lunch" | "dinner" | "snack";

export interface NutritionLogDto {
  id: string;
  start_date: string;
  end_date: string;
  meal_type: MealType | null;
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
  ingested_at: string;
}

export const toNutritionDto = (row: NutritionLogRow): NutritionLogDto => ({
  id: row.id,
  start_date: row.start_date.toISOString(),
  end_date: row.end_date.toISOString(),
  meal_type: row.meal_type as MealType | null,
  name: row.name,
  energy_kcal: row.energy_kcal,
  protein_grams: row.protein_grams,
  carbohydrates_grams: row.carbohydrates_grams,
  fat_grams: row.fat_grams,
  fiber_grams: row.fiber_grams,
  sugar_grams: row.sugar_grams,
  sodium_milligrams: row.sodium_milligrams,
  water_milliliters: row.water_milliliters,
  nutrients: row.nutrients,
  source_name: row.source_name,
  external_id: row.external_id,
  metadata: row.metadata,
  ...toProvenanceDto(row),
});

/** A user's nutrition logs by start_date, oldest first (every provider's; there is no merged view). */
export async function listNutritionLogs(
  db: DbClient,
  userId: string,
  input: { start?: string | undefined; end?: string | undefined; cursor?: string | undefined; limit: number },
): Promise<Page<NutritionLogDto>> {
  const window = parseTimeWindow(input);
  const rows = await listNutritionRows(db, {
    userId,
    start: window.start,
    end: window.end,
    after: decodeAfterUuid(input.cursor),
    limit: input.limit,
  });
  return toPage(rows, input.limit, toNutritionDto, (row) => ({ t: row.start_date.toISOString(), id: row.id }));
}
