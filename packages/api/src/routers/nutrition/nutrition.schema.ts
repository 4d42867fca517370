import { z } from "zod";
import { ZProvenance } from "../../schemas/records.ts";

const amount = (what: string) => z.number().nullable().describe(`${what}; null when not given.`);

export const ZNutritionLog = z.object({
  id: z.uuid().describe("The nutrition log's id."),
  start_date: z.iso.datetime().describe("When the meal or drink started (or was logged)."),
  end_date: z.iso.datetime().describe("When it ended; equal to start_date for a single moment."),
  meal_type: z.enum(["breakfast", "lunch", "dinner", "snack"]).nullable().describe("The meal, when the provider named one of these four."),
  name: z.string().nullable().describe("The food or meal name as the provider gave it."),
  energy_kcal: amount("Dietary energy in kcal"),
  protein_grams: amount("Protein in grams"),
  carbohydrates_grams: amount("Carbohydrates in grams"),
  fat_grams: amount("Total fat in grams"),
  fiber_grams: amount("Dietary fiber in grams"),
  sugar_grams: amount("Sugar in grams"),
  sodium_milligrams: amount("Sodium in milligrams"),
  water_milliliters: amount("Water in milliliters"),
  nutrients: z
    .record(z.string(), z.object({ value: z.number().describe("The amount."), unit: z.string().describe("Its unit as sent, e.g. `mg`.") }))
    .describe("Other nutrients by name, e.g. `{\"caffeine\": {\"value\": 95, \"unit\": \"mg\"}}`."),
  source_name: z.string().nullable().describe("The app or device name as the source reported it."),
  external_id: z.string().nullable().describe("The provider's id of the record."),
  metadata: z
    .record(z.string(), z.unknown())
    .describe("Provider fields as sent, plus `timezone`, and `meal_type_as_sent` when the meal was none of the four."),
  ...ZProvenance,
});
