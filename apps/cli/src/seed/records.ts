import type {
  CategorySampleRecord,
  DailySummaryRecord,
  EcgRecordingRecord,
  HeartbeatSeriesRecord,
  NutritionLogRecord,
  QuantitySampleRecord,
  SleepPhaseRecord,
  SleepSessionRecord,
  WorkoutRecord,
} from "@svc/core";

/** What one provider delivers for one day, in the writers' input types. */
export interface ProviderDay {
  provider: string;
  quantity?: QuantitySampleRecord[];
  category?: CategorySampleRecord[];
  sleep?: SleepSessionRecord[];
  workouts?: WorkoutRecord[];
  nutrition?: NutritionLogRecord[];
  daily?: DailySummaryRecord[];
  heartbeats?: HeartbeatSeriesRecord[];
  ecg?: EcgRecordingRecord[];
}

/** Options every provider's generator gets. */
export interface SeedOptions {
  /** Seconds between the Apple Watch's heart rate samples. */
  heartRateEvery: number;
}

/** Joins neighbouring phases of one stage and drops empty ones. */
export function joinPhases(phases: readonly SleepPhaseRecord[]): SleepPhaseRecord[] {
  const joined: SleepPhaseRecord[] = [];
  for (const phase of phases) {
    if (phase.end_date <= phase.start_date) continue;
    const last = joined.at(-1);
    if (last && last.stage === phase.stage && last.end_date.getTime() === phase.start_date.getTime()) {
      joined[joined.length - 1] = { ...last, end_date: phase.end_date };
    } else {
      joined.push(phase);
    }
  }
  return joined;
}
