import type { Observation } from "fhir/r4.js";
import type { WorkoutDto } from "../../records/index.ts";
import { LOINC } from "../fhir-systems.ts";
import { codeOrNull, figureComponent, observationBase, quantityOf, textOrNull, type ObservationContext, withComponents } from "./observation-parts.ts";

/** `workout-{id}`: a workout over its period, valued as its duration in minutes, its activity type as a component. */
export function workoutObservation(ctx: ObservationContext, workout: WorkoutDto): Observation {
  const { systems } = ctx;
  const name = textOrNull(workout.name);
  return {
    ...observationBase(ctx, `workout-${workout.id}`, workout, {
      code: {
        coding: [
          { system: LOINC, code: "55411-3", display: "Exercise duration" },
          { system: systems.recordType, code: "workout" },
        ],
        text: "Workout",
      },
      category: "activity",
      effective: { effectivePeriod: { start: workout.start_date, end: workout.end_date } },
    }),
    valueQuantity: quantityOf(workout.duration_seconds / 60, "min"),
    ...withComponents([
      {
        code: { coding: [{ system: systems.figure, code: "activity_type" }], text: "activity_type" },
        valueCodeableConcept: {
          coding: [{ system: systems.activityType, code: codeOrNull(workout.activity_type) ?? "other" }],
          text: name ?? workout.activity_type,
        },
      },
      ...figureComponent(systems, { field: "distance_meters", value: workout.distance_meters, ucum: "m" }),
      ...figureComponent(systems, { field: "active_energy_kcal", value: workout.active_energy_kcal, ucum: "kcal", quantityType: "active_energy_burned" }),
      ...figureComponent(systems, { field: "total_energy_kcal", value: workout.total_energy_kcal, ucum: "kcal", quantityType: "total_energy_burned" }),
      ...figureComponent(systems, { field: "average_heart_rate", value: workout.average_heart_rate, ucum: "/min" }),
      ...figureComponent(systems, { field: "max_heart_rate", value: workout.max_heart_rate, ucum: "/min" }),
      ...figureComponent(systems, { field: "elevation_gain_meters", value: workout.elevation_gain_meters, ucum: "m" }),
      ...figureComponent(systems, { field: "steps", value: workout.steps, ucum: "{steps}", quantityType: "step_count" }),
    ]),
  };
}
