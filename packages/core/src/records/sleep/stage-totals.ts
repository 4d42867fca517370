/**
 * Sleep stage totals derived from a session's phases, for providers that send phases but
 * no totals (HealthKit sleep analysis, Health Connect stages).
 *
 * - Each stage's seconds are the length of the union of its phases (overlapping phases of
 *   one stage are not counted twice).
 * - total_sleep_seconds is the union of light, deep, rem and asleep (stage unknown) phases.
 * - light, deep and rem seconds are derived only when some phase is light, deep or rem (a
 *   source that only knows "asleep" does not report 0 deep sleep).
 * - awake_seconds, latency_seconds (bedtime start to the first sleep phase) and efficiency
 *   (total sleep / time in bed, 0 to 1) are derived when some phase is a sleep phase.
 * - in_bed and out_of_bed phases are kept but count towards no total.
 */

export const SLEEP_STAGES = ["awake", "light", "deep", "rem", "asleep", "in_bed", "out_of_bed"] as const;
export type SleepStage = (typeof SLEEP_STAGES)[number];

const SLEEP_STAGES_ASLEEP: readonly SleepStage[] = ["light", "deep", "rem", "asleep"];
const DETAILED_STAGES: readonly SleepStage[] = ["light", "deep", "rem"];

export interface PhaseInterval {
  stage: SleepStage;
  startDate: Date;
  endDate: Date;
}

export interface StageTotals {
  totalSleepSeconds?: number;
  awakeSeconds?: number;
  lightSeconds?: number;
  deepSeconds?: number;
  remSeconds?: number;
  latencySeconds?: number;
  efficiency?: number;
}

/** Milliseconds covered by the union of intervals. */
function unionMs(intervals: ReadonlyArray<{ startDate: Date; endDate: Date }>): number {
  const sorted = [...intervals].sort((a, b) => a.startDate.getTime() - b.startDate.getTime());
  let total = 0;
  let currentStart = -Infinity;
  let currentEnd = -Infinity;
  for (const { startDate, endDate } of sorted) {
    const start = startDate.getTime();
    const end = endDate.getTime();
    if (start > currentEnd) {
      if (currentEnd > currentStart) total += currentEnd - currentStart;
      currentStart = start;
      currentEnd = end;
    } else if (end > currentEnd) {
      currentEnd = end;
    }
  }
  if (currentEnd > currentStart) total += currentEnd - currentStart;
  return total;
}

const seconds = (ms: number) => Math.round(ms / 1000);

/** Totals the phases allow; a field the phases cannot tell is left out. */
export function deriveStageTotals(bedtimeStart: Date, bedtimeEnd: Date, phases: readonly PhaseInterval[]): StageTotals {
  const of = (stages: readonly SleepStage[]) => phases.filter((p) => stages.includes(p.stage));
  const asleep = of(SLEEP_STAGES_ASLEEP);
  if (asleep.length === 0) return {};
  const totalMs = unionMs(asleep);
  const inBedMs = bedtimeEnd.getTime() - bedtimeStart.getTime();
  const firstSleep = Math.min(...asleep.map((p) => p.startDate.getTime()));
  const totals: StageTotals = {
    totalSleepSeconds: seconds(totalMs),
    awakeSeconds: seconds(unionMs(of(["awake"]))),
    latencySeconds: Math.max(0, seconds(firstSleep - bedtimeStart.getTime())),
  };
  if (inBedMs > 0) totals.efficiency = Math.min(1, totalMs / inBedMs);
  if (of(DETAILED_STAGES).length > 0) {
    totals.lightSeconds = seconds(unionMs(of(["light"])));
    totals.deepSeconds = seconds(unionMs(of(["deep"])));
    totals.remSeconds = seconds(unionMs(of(["rem"])));
  }
  return totals;
}
