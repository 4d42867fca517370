import type { Element, Observation, ObservationComponent } from "fhir/r4.js";
import { findQuantityType } from "../../records/index.ts";
import { OBSERVATION_STATISTICS, TZ_CODE_EXTENSION } from "../fhir-systems.ts";
import { categoryConcept, categoryOfQuantityType } from "../observation-categories.ts";
import { quantityOf, quantityTypeCodings, type ObservationContext } from "./observation-parts.ts";

/** A local day of a quantity type's samples (merged view), as a share holds it. */
export interface DayAggregate {
  type: string;
  /** The local date, YYYY-MM-DD. */
  day: string;
  /** The day's start and end in its zone (RFC 3339 with the zone's offset), cut to the share's window. */
  start: string;
  end: string;
  /** The IANA zone the day is counted in. */
  zone: string;
  /** Providers of the samples, sorted. */
  providers: string[];
  /** The storage unit of the samples. */
  unit: string;
  count: number;
  sum: number;
  min: number;
  max: number;
}

/** The id of a day's aggregate: `day-{type}-{date}` (FHIR ids allow no `_`; type names hold no `-`). */
export const dayAggregateId = (type: string, day: string) => `day-${type.replace(/_/g, "-")}-${day}`;

/** Whether a type is summed per day (counts: steps, energy, distance) rather than averaged (readings). */
export const isCumulativeType = (type: string) => findQuantityType(type)?.aggregation === "cumulative";

/** A statistic as a component, coded by HL7's statistic code and by svc's figure of the same name. */
function statistic(ctx: ObservationContext, code: "minimum" | "maximum" | "count", value: Pick<ObservationComponent, "valueQuantity" | "valueInteger">): ObservationComponent {
  return {
    code: {
      coding: [
        { system: OBSERVATION_STATISTICS, code, display: code.charAt(0).toUpperCase() + code.slice(1) },
        { system: ctx.systems.figure, code },
      ],
      text: code,
    },
    ...value,
  };
}

/**
 * `day-{type}-{date}`: one local day of a type's samples (what a share holds instead of each
 * sample, unless it asks for full detail). The code is the type's own (LOINC and quantity
 * type); effectivePeriod is the local day (cut to the share's window), each end naming its
 * zone with FHIR's tz-code extension; valueQuantity is the day's sum for counts (steps,
 * energy, distance...) or its average for readings (heart rate, SpO2...), as the meta tag
 * `{observation-statistics}|sum` or `|average` says; components give the number of samples
 * (`count`) and, for readings, the day's `minimum` and `maximum`. meta.tag `{base}/aggregate|day`
 * marks it as an aggregate, with one provider tag per provider whose samples it holds.
 */
export function dayAggregateObservation(ctx: ObservationContext, day: DayAggregate): Observation {
  const { systems } = ctx;
  const patient = { reference: `Patient/${ctx.userId}` };
  const ucum = findQuantityType(day.type)?.ucum_unit;
  const cumulative = isCumulativeType(day.type);
  const value = cumulative ? day.sum : day.sum / day.count;
  const category = categoryOfQuantityType(day.type);
  const zone: Element = { extension: [{ url: TZ_CODE_EXTENSION, valueCode: day.zone }] };
  const id = dayAggregateId(day.type, day.day);
  return {
    resourceType: "Observation",
    id,
    meta: {
      tag: [
        { system: systems.aggregate, code: "day", display: "Daily aggregate of samples" },
        cumulative
          ? { system: OBSERVATION_STATISTICS, code: "sum", display: "Sum" }
          : { system: OBSERVATION_STATISTICS, code: "average", display: "Average" },
        ...day.providers.map((provider) => ({ system: systems.provider, code: provider })),
      ],
    },
    identifier: [{ system: systems.observationId, value: id }],
    status: "final",
    ...(category && { category: categoryConcept(category) }),
    code: { coding: quantityTypeCodings(systems, day.type), text: day.type },
    subject: patient,
    effectivePeriod: { start: day.start, _start: zone, end: day.end, _end: zone },
    performer: [patient],
    valueQuantity: quantityOf(roundFigure(value), ucum, day.unit),
    component: [
      statistic(ctx, "count", { valueInteger: day.count }),
      ...(cumulative
        ? []
        : [statistic(ctx, "minimum", { valueQuantity: quantityOf(day.min, ucum, day.unit) }), statistic(ctx, "maximum", { valueQuantity: quantityOf(day.max, ucum, day.unit) })]),
    ],
  };
}

/** A sum or an average rid of floating-point noise (9931.689999999995 -> 9931.69). */
const roundFigure = (value: number) => Math.round(value * 1e6) / 1e6;
