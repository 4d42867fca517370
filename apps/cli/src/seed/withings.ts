// Withings (provider `withings`, source `withings`): a bathroom scale used most mornings,
// weight and body fat from one weighing.

import type { QuantitySampleRecord } from "@svc/core";
import type { DayPlan } from "./person.ts";
import { noiseAt, randomFor, round, seedOf, stableNumericId } from "./random.ts";
import type { ProviderDay } from "./records.ts";
import { dayNumber, isWeekend, MINUTE, SECOND, ZONE } from "./time.ts";

export const WITHINGS_PROVIDER = "withings";

const SCALE = { source: "withings", device: "Withings Body+", on_body: false, source_name: "Withings" } as const;

export function withingsDay(plan: DayPlan): ProviderDay {
  const { profile, date } = plan;
  const r = randomFor(profile.userId, date, "withings");
  if (!r.chance(0.8)) return { provider: WITHINGS_PROVIDER, quantity: [] };
  const at = Math.round((plan.night.outOfBed + r.between(5, 25) * MINUTE) / SECOND) * SECOND;
  const d = dayNumber(date);
  const phase = noiseAt(seedOf(profile.userId, "weight"), 0) * 2 * Math.PI;
  // A slow drift over weeks, a little more after weekends, and the scale's day-to-day wobble.
  const weight = profile.weightKg + 0.9 * Math.sin((2 * Math.PI * d) / 47 + phase) + (isWeekend(date) ? 0.3 : 0) + r.normal(0, 0.25);
  const fat = profile.bodyFat + 0.6 * Math.sin((2 * Math.PI * d) / 47 + phase) + r.normal(0, 0.4);
  const group = stableNumericId(10, profile.userId, date, "withings-weighing");
  const sample = (type: string, value: number, measureType: number): QuantitySampleRecord => ({
    ...SCALE,
    type,
    value,
    start_date: new Date(at),
    external_id: `${group}-${measureType}`,
    timezone: ZONE,
    metadata: { grpid: group, measure_type: measureType, attrib: 0 },
  });
  return {
    provider: WITHINGS_PROVIDER,
    quantity: [sample("body_mass", round(weight, 2), 1), sample("body_fat_percentage", round(fat, 1), 6)],
  };
}
