import type {
  CategorySampleRecord,
  DailySummaryRecord,
  EcgRecordingRecord,
  HeartbeatSeriesRecord,
  NutritionLogRecord,
  QuantitySampleRecord,
  SleepSessionRecord,
  WorkoutRecord,
} from "@svc/core";

/**
 * What a parser of an uploaded format produces from (a part of) one raw object: records
 * in the shapes the core writers take, and what it could not understand. The ETL hands
 * each list to its writer; a rejected item becomes a rejected record.
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
}

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

/** A problem with the upload as a whole (not one record): the route answers 400 naming it. */
export class MalformedUpload extends Error {
  readonly locator: string;
  constructor(locator: string, message: string) {
    super(message);
    this.locator = locator;
  }
}
