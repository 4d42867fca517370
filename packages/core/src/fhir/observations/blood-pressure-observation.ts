import type { Observation, ObservationComponent } from "fhir/r4.js";
import type { QuantitySampleDto } from "../../records/index.ts";
import { LOINC, VITAL_SIGNS_PROFILE } from "../fhir-systems.ts";
import { BLOOD_PRESSURE_PROFILE } from "../observation-categories.ts";
import { BLOOD_PRESSURE_TYPES } from "../observation-kinds.ts";
import { effectiveOf, observationBase, quantityOf, quantityTypeCodings, UNKNOWN_VALUE, type ObservationContext } from "./observation-parts.ts";

/** A systolic and a diastolic reading taken together; one of them may be missing. */
export interface BloodPressurePanel {
  systolic: QuantitySampleDto | null;
  diastolic: QuantitySampleDto | null;
}

/** `bp-s{systolic id}-d{diastolic id}` (a side left out when missing). */
export function panelId(panel: BloodPressurePanel): string {
  const sides = [panel.systolic && `s${panel.systolic.id}`, panel.diastolic && `d${panel.diastolic.id}`].filter(Boolean);
  return `bp-${sides.join("-")}`;
}

function readingComponent(ctx: ObservationContext, type: string, reading: QuantitySampleDto | null): ObservationComponent {
  const code = { coding: quantityTypeCodings(ctx.systems, type), text: type };
  return reading ? { code, valueQuantity: quantityOf(reading.value, "mm[Hg]", reading.unit) } : { code, dataAbsentReason: UNKNOWN_VALUE };
}

/** A blood pressure panel (LOINC 85354-9) with its systolic and diastolic components. */
export function bloodPressureObservation(ctx: ObservationContext, panel: BloodPressurePanel): Observation {
  const first = panel.systolic ?? panel.diastolic;
  if (!first) throw new Error("a blood pressure panel holds at least one reading");
  return {
    ...observationBase(ctx, panelId(panel), first, {
      code: {
        coding: [
          { system: LOINC, code: "85354-9", display: "Blood pressure panel with all children optional" },
          { system: ctx.systems.recordType, code: "blood_pressure" },
        ],
        text: "Blood pressure",
      },
      category: "vital-signs",
      profiles: [VITAL_SIGNS_PROFILE, BLOOD_PRESSURE_PROFILE],
      effective: effectiveOf(first.start_date, first.end_date),
    }),
    component: [
      readingComponent(ctx, BLOOD_PRESSURE_TYPES.systolic, panel.systolic),
      readingComponent(ctx, BLOOD_PRESSURE_TYPES.diastolic, panel.diastolic),
    ],
  };
}
