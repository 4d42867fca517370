import type { Observation } from "fhir/r4.js";
import { findQuantityType, type QuantitySampleDto } from "../../records/index.ts";
import { categoryOfQuantityType, profilesOfQuantityType } from "../observation-categories.ts";
import { effectiveOf, observationBase, quantityOf, quantityTypeCodings, type ObservationContext } from "./observation-parts.ts";

/** `qs-{id}`: one quantity sample, valued in its type's UCUM unit. */
export function sampleObservation(ctx: ObservationContext, sample: QuantitySampleDto): Observation {
  return {
    ...observationBase(ctx, `qs-${sample.id}`, sample, {
      code: { coding: quantityTypeCodings(ctx.systems, sample.type), text: sample.type },
      category: categoryOfQuantityType(sample.type),
      profiles: profilesOfQuantityType(sample.type),
      effective: effectiveOf(sample.start_date, sample.end_date),
    }),
    valueQuantity: quantityOf(sample.value, findQuantityType(sample.type)?.ucum_unit, sample.unit),
  };
}
