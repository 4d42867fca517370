import type { Observation } from "fhir/r4.js";
import type { SleepSessionDto } from "../../records/index.ts";
import { LOINC, LOINC_SLEEP } from "../fhir-systems.ts";
import {
  figureComponent,
  minutesOf,
  observationBase,
  quantityOf,
  secondsComponent,
  UNKNOWN_VALUE,
  type ObservationContext,
  withComponents,
} from "./observation-parts.ts";

/** `sleep-{id}`: a sleep session or nap over its bedtime, valued as time asleep in minutes. */
export function sleepObservation(ctx: ObservationContext, session: SleepSessionDto): Observation {
  const { systems } = ctx;
  const asleep = minutesOf(session.total_sleep_seconds);
  return {
    ...observationBase(ctx, `sleep-${session.id}`, session, {
      code: {
        coding: [
          { system: LOINC, code: LOINC_SLEEP.duration, display: "Sleep duration" },
          { system: systems.recordType, code: "sleep_session" },
        ],
        text: session.kind === "nap" ? "Nap" : "Sleep",
      },
      category: null,
      effective: { effectivePeriod: { start: session.bedtime_start, end: session.bedtime_end } },
    }),
    ...(asleep === null ? { dataAbsentReason: UNKNOWN_VALUE } : { valueQuantity: quantityOf(asleep, "min") }),
    ...withComponents([
      ...secondsComponent(systems, { field: "awake_seconds", value: session.awake_seconds }),
      ...secondsComponent(systems, { field: "light_seconds", value: session.light_seconds, loinc: LOINC_SLEEP.light }),
      ...secondsComponent(systems, { field: "deep_seconds", value: session.deep_seconds, loinc: LOINC_SLEEP.deep }),
      ...secondsComponent(systems, { field: "rem_seconds", value: session.rem_seconds, loinc: LOINC_SLEEP.rem }),
      ...secondsComponent(systems, { field: "latency_seconds", value: session.latency_seconds }),
      ...figureComponent(systems, { field: "efficiency", value: session.efficiency === null ? null : session.efficiency * 100, ucum: "%" }),
      ...figureComponent(systems, { field: "score", value: session.score, ucum: "{score}" }),
      ...figureComponent(systems, { field: "average_heart_rate", value: session.average_heart_rate, ucum: "/min" }),
      ...figureComponent(systems, { field: "lowest_heart_rate", value: session.lowest_heart_rate, ucum: "/min" }),
      ...figureComponent(systems, { field: "average_hrv", value: session.average_hrv, ucum: "ms" }),
      ...figureComponent(systems, { field: "respiratory_rate", value: session.respiratory_rate, ucum: "/min", quantityType: "respiratory_rate" }),
    ]),
  };
}
