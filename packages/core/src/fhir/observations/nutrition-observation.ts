import type { Observation, ObservationComponent } from "fhir/r4.js";
import { type NutritionLogDto, ucumCodeOf } from "../../records/index.ts";
import {
  codeOrNull,
  effectiveOf,
  figureComponent,
  observationBase,
  quantityOf,
  textOrNull,
  type ObservationContext,
  withComponents,
} from "./observation-parts.ts";

/**
 * Nutrients outside the named columns, coded `nutrients.{name}`: the unit as sent, with its
 * UCUM code when it has one (`mg`, `IU` as `[IU]`); a unit outside UCUM stays text only.
 */
function otherNutrients(ctx: ObservationContext, log: NutritionLogDto): ObservationComponent[] {
  return Object.entries(log.nutrients).flatMap(([name, amount]) => {
    const code = codeOrNull(name);
    if (!code) return [];
    const valueQuantity = quantityOf(amount.value, ucumCodeOf(amount.unit), amount.unit);
    return [{ code: { coding: [{ system: ctx.systems.figure, code: `nutrients.${code}` }], text: code }, valueQuantity }];
  });
}

/** `nutrition-{id}`: a meal or food logged, one component per nutrient. */
export function nutritionObservation(ctx: ObservationContext, log: NutritionLogDto): Observation {
  const { systems } = ctx;
  return {
    ...observationBase(ctx, `nutrition-${log.id}`, log, {
      code: {
        coding: [{ system: systems.recordType, code: "nutrition_log" }],
        text: textOrNull(log.name) ?? log.meal_type ?? "Food",
      },
      category: null,
      effective: effectiveOf(log.start_date, log.end_date),
    }),
    ...withComponents([
      ...(log.meal_type ? [{ code: { coding: [{ system: systems.figure, code: "meal_type" }], text: "meal_type" }, valueCodeableConcept: { text: log.meal_type } }] : []),
      ...figureComponent(systems, { field: "energy_kcal", value: log.energy_kcal, ucum: "kcal", quantityType: "dietary_energy_consumed" }),
      ...figureComponent(systems, { field: "protein_grams", value: log.protein_grams, ucum: "g", quantityType: "dietary_protein" }),
      ...figureComponent(systems, { field: "carbohydrates_grams", value: log.carbohydrates_grams, ucum: "g", quantityType: "dietary_carbohydrates" }),
      ...figureComponent(systems, { field: "fat_grams", value: log.fat_grams, ucum: "g", quantityType: "dietary_fat_total" }),
      ...figureComponent(systems, { field: "fiber_grams", value: log.fiber_grams, ucum: "g", quantityType: "dietary_fiber" }),
      ...figureComponent(systems, { field: "sugar_grams", value: log.sugar_grams, ucum: "g", quantityType: "dietary_sugar" }),
      ...figureComponent(systems, { field: "sodium_milligrams", value: log.sodium_milligrams, ucum: "mg", quantityType: "dietary_sodium" }),
      ...figureComponent(systems, { field: "water_milliliters", value: log.water_milliliters, ucum: "mL", quantityType: "dietary_water" }),
      ...otherNutrients(ctx, log),
    ]),
  };
}
