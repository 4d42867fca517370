import { findQuantityType } from "@svc/core/quantity-types";
import type { Observation } from "fhir/r4.js";
import type { DayFinder } from "./days.ts";
import { isDayAggregate, statisticValue, timesOf, valueOf } from "./observation-codes.ts";

/** One local day of a quantity type: how many values, their sum, minimum and maximum (null when unknown). */
export interface QuantityDay {
  day: string;
  count: number;
  sum: number;
  min: number | null;
  max: number | null;
  /** When the day holds one sample: its instant. */
  only: number | null;
}

/**
 * Counts (steps, energy, distance, floors...) are summed per day; readings (heart rate,
 * SpO2...) are shown as the day's minimum, average and maximum. The catalog says which.
 */
export const isCumulative = (type: string): boolean => findQuantityType(type)?.aggregation === "cumulative";

/** The local date an aggregate stands for: the date its start shows (written in its zone's offset). */
function aggregateDay(observation: Observation, days: DayFinder): string | null {
  const start = observation.effectivePeriod?.start ?? "";
  if (/^\d{4}-\d{2}-\d{2}T/.test(start)) return start.slice(0, 10);
  const times = timesOf(observation);
  return times ? days.dayOfWhen(times.start) : null;
}

/**
 * The days of a quantity type's Observations: svc's daily aggregates as they are (a share's
 * default), single samples (a share with full detail, or types shared as samples) grouped by
 * the local day of their start in the zone.
 */
export function quantityDays(type: string, observations: readonly Observation[], days: DayFinder): QuantityDay[] {
  const cumulative = isCumulative(type);
  const byDay = new Map<string, QuantityDay>();
  const add = (day: string, part: Omit<QuantityDay, "day" | "only">, at: number | null) => {
    const known = byDay.get(day);
    if (!known) {
      byDay.set(day, { day, ...part, only: part.count === 1 ? at : null });
      return;
    }
    known.count += part.count;
    known.sum += part.sum;
    known.min = known.min === null || part.min === null ? null : Math.min(known.min, part.min);
    known.max = known.max === null || part.max === null ? null : Math.max(known.max, part.max);
    known.only = null;
  };
  for (const observation of observations) {
    const value = valueOf(observation);
    if (value === null) continue;
    if (isDayAggregate(observation)) {
      const day = aggregateDay(observation, days);
      const count = statisticValue(observation, "count") ?? 1;
      if (day === null || count < 1) continue;
      // A count's value is the day's sum; a reading's the day's average.
      const sum = cumulative ? value : value * count;
      const [min, max] = cumulative ? [null, null] : [statisticValue(observation, "minimum"), statisticValue(observation, "maximum")];
      add(day, { count, sum, min, max }, null);
    } else {
      const times = timesOf(observation);
      if (!times) continue;
      add(days.dayOfWhen(times.start), { count: 1, sum: value, min: value, max: value }, times.start.kind === "time" ? times.start.ms : null);
    }
  }
  return [...byDay.values()].sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0));
}
