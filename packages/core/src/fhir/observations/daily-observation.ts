import type { Observation } from "fhir/r4.js";
import type { DailySummaryDto } from "../../records/index.ts";
import { LOINC_SLEEP } from "../fhir-systems.ts";
import { figureComponent, observationBase, secondsComponent, type ObservationContext, withComponents } from "./observation-parts.ts";

/** `daily-{id}`: a provider's figures of one local day (effectiveDateTime is the date), one component each. */
export function dailyObservation(ctx: ObservationContext, summary: DailySummaryDto): Observation {
  const { systems } = ctx;
  return {
    ...observationBase(ctx, `daily-${summary.id}`, { ...summary, external_id: null }, {
      code: { coding: [{ system: systems.recordType, code: "daily_summary" }], text: "Daily summary" },
      category: "activity",
      effective: { effectiveDateTime: summary.date },
    }),
    ...withComponents([
      ...figureComponent(systems, { field: "steps", value: summary.steps, ucum: "{steps}", quantityType: "step_count" }),
      ...figureComponent(systems, { field: "distance_meters", value: summary.distance_meters, ucum: "m" }),
      ...figureComponent(systems, { field: "active_energy_kcal", value: summary.active_energy_kcal, ucum: "kcal", quantityType: "active_energy_burned" }),
      ...figureComponent(systems, { field: "total_energy_kcal", value: summary.total_energy_kcal, ucum: "kcal", quantityType: "total_energy_burned" }),
      ...figureComponent(systems, { field: "floors_climbed", value: summary.floors_climbed, ucum: "{flights}", quantityType: "flights_climbed" }),
      ...secondsComponent(systems, { field: "active_seconds", value: summary.active_seconds }),
      ...figureComponent(systems, { field: "resting_heart_rate", value: summary.resting_heart_rate, ucum: "/min", quantityType: "resting_heart_rate" }),
      ...figureComponent(systems, { field: "average_heart_rate", value: summary.average_heart_rate, ucum: "/min" }),
      ...figureComponent(systems, { field: "hrv_rmssd", value: summary.hrv_rmssd, ucum: "ms", quantityType: "hrv_rmssd" }),
      ...secondsComponent(systems, { field: "sleep_seconds", value: summary.sleep_seconds, loinc: LOINC_SLEEP.duration }),
      ...figureComponent(systems, { field: "score", value: summary.score, ucum: "{score}" }),
    ]),
  };
}
