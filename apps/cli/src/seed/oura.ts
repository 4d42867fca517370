// Oura (provider `oura`, source `oura`): a ring that scores the night in 5-minute epochs,
// a second sleep source overlapping the Apple Watch's, with nightly HRV and resting heart rate.

import type { QuantitySampleRecord, SleepPhaseRecord, SleepSessionRecord } from "@svc/core";
import { stageAt, type DayPlan, type Stage } from "./person.ts";
import { clamp, randomFor, round, stableUuid } from "./random.ts";
import { joinPhases, type ProviderDay } from "./records.ts";
import { MINUTE, SECOND, ZONE } from "./time.ts";

export const OURA_PROVIDER = "oura";

const RING = { source: "oura", device: "Oura Ring Gen3", on_body: true, source_name: "Oura" } as const;

const EPOCH = 5 * MINUTE;
const MIX_UP: Record<Stage, readonly Stage[]> = { light: ["rem", "deep"], deep: ["light"], rem: ["light"], awake: ["light"] };

export function ouraDay(plan: DayPlan): ProviderDay {
  const night = plan.night;
  const r = randomFor(plan.profile.userId, plan.date, "oura");
  const start = night.inBed - r.int(1, 5) * MINUTE - r.int(0, 59) * SECOND;
  const end = night.outOfBed + r.int(0, 4) * MINUTE;

  // One stage per 5-minute epoch from bedtime, read at the epoch's middle; now and then misread.
  const phases: SleepPhaseRecord[] = [];
  for (let from = start; from < end; from += EPOCH) {
    const to = Math.min(end, from + EPOCH);
    let stage: Stage = stageAt(night, (from + to) / 2) ?? "awake";
    if (r.chance(0.08)) stage = r.pick(MIX_UP[stage]);
    phases.push({ stage, start_date: new Date(from), end_date: new Date(to) });
  }
  const joined = joinPhases(phases);
  const asleepMs = joined.filter((p) => p.stage !== "awake").reduce((sum, p) => sum + (p.end_date.getTime() - p.start_date.getTime()), 0);
  const hours = asleepMs / 3_600_000;
  const efficiency = asleepMs / (end - start);
  const score = Math.round(clamp(40 + 5 * hours + 60 * (efficiency - 0.85) + r.normal(0, 3), 35, 98));
  const rmssd = Math.round(night.rmssd + r.normal(0, 1.5));

  const session: SleepSessionRecord = {
    ...RING,
    kind: "sleep",
    bedtime_start: new Date(start),
    bedtime_end: new Date(end),
    timezone: ZONE,
    score,
    average_heart_rate: round(night.averageHr + r.normal(0, 0.5), 2),
    lowest_heart_rate: night.lowestHr,
    average_hrv: rmssd,
    respiratory_rate: round(night.respiratoryRate + r.normal(0, 0.2), 3),
    external_id: stableUuid(plan.profile.userId, plan.date, "oura-sleep"),
    metadata: { type: "long_sleep", day: plan.date },
    phases: joined,
  };
  const sample = (type: string, value: number): QuantitySampleRecord => ({
    ...RING,
    type,
    value,
    start_date: new Date(start),
    end_date: new Date(end),
    timezone: ZONE,
  });
  return {
    provider: OURA_PROVIDER,
    sleep: [session],
    quantity: [sample("hrv_rmssd", rmssd), sample("resting_heart_rate", night.lowestHr)],
  };
}
