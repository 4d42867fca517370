import type { CategorySampleRecord } from "./category-samples/category-sample-writer.ts";
import type { DailySummaryRecord } from "./daily/daily-summary-writer.ts";
import type { EcgRecordingRecord } from "./ecg/ecg-writer.ts";
import type { HeartbeatSeriesRecord } from "./heartbeats/heartbeat-writer.ts";
import type { NutritionLogRecord } from "./nutrition/nutrition-writer.ts";
import type { QuantitySampleRecord } from "./samples/sample-writer.ts";
import type { SleepSessionRecord } from "./sleep/sleep-writer.ts";
import type { WorkoutRecord } from "./workouts/workout-writer.ts";

/**
 * What a parser of an uploaded or pulled format produces from (a part of) one raw object:
 * records in the shapes the writers take, and what it could not understand.
 */
export interface ParsedRecords {
  quantitySamples: QuantitySampleRecord[];
  categorySamples: CategorySampleRecord[];
  sleepSessions: SleepSessionRecord[];
  workouts: WorkoutRecord[];
  nutritionLogs: NutritionLogRecord[];
  dailySummaries: DailySummaryRecord[];
  heartbeatSeries: HeartbeatSeriesRecord[];
  ecgRecordings: EcgRecordingRecord[];
  /** Items not understood: where (line, index) and why, never quoting a value. */
  rejected: ParseRejection[];
  /** The provider's ids of records it reported deleted (HealthKit deleted objects, Health Connect deletions). */
  deletedExternalIds?: string[];
  /** The provider's sample ids name samples whose times never change (see SampleWriteOptions). */
  fixedTimeIds?: boolean;
}

/** The lists of records a bundle holds, by kind. */
export type RecordListName = Exclude<keyof ParsedRecords, "rejected" | "deletedExternalIds" | "fixedTimeIds">;

export interface ParseRejection {
  recordKind: string;
  locator: string;
  reason: string;
}

export function emptyParsedRecords(): ParsedRecords {
  return {
    quantitySamples: [],
    categorySamples: [],
    sleepSessions: [],
    workouts: [],
    nutritionLogs: [],
    dailySummaries: [],
    heartbeatSeries: [],
    ecgRecordings: [],
    rejected: [],
  };
}
