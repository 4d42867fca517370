export {
  type CategorizedRecordKind,
  categoryOfCategoryType,
  categoryOfDailyFigure,
  categoryOfQuantityType,
  categoryOfRecordKind,
  categoryTypesOf,
  DAILY_SUMMARY_FIGURE_CATEGORIES,
  DAILY_SUMMARY_FIGURES,
  dailyFiguresOf,
  type DailySummaryFigure,
  DATA_CATEGORIES,
  type DataCategory,
  isDataCategory,
  quantityTypesOf,
  RECORD_KIND_CATEGORIES,
  sortCategories,
} from "./catalog/data-categories.ts";
export * from "./catalog/index.ts";
export { type MetricGroup } from "./catalog/quantity-types.ts";
export * from "./catalog/self-report-kinds.ts";
export * from "./category-samples/category-sample-writer.ts";
export * from "./category-samples/category-samples.ts";
export * from "./coverage.ts";
export * from "./daily/daily-summaries.ts";
export { dailySummariesPage, type DailySummaryRow, mergedDailySummariesPage } from "./daily/daily-summary-repository.ts";
export * from "./daily/daily-summary-writer.ts";
export * from "./daily/daily-totals.ts";
export * from "./ecg/ecg-recordings.ts";
export { ecgRecordingsPage, listEcgVoltages } from "./ecg/ecg-repository.ts";
export * from "./ecg/ecg-writer.ts";
export * from "./heartbeats/heartbeat-writer.ts";
export * from "./heartbeats/hrv-results.ts";
export * from "./heartbeats/rr-intervals.ts";
export * from "./menstrual-cycles/menstrual-cycles.ts";
export * from "./merge/source-orders.ts";
export { rankStreams, resolveSourceOrder, type UserSourceOrders } from "./merge/source-ranking.ts";
export { BUILTIN_SOURCE_ORDERS } from "./merge/builtin-orders.ts";
export { MATCH_WINDOW_SECONDS } from "./merge/match-kinds.ts";
export { RECORD_METRICS } from "./merge/record-metrics.ts";
export type { MatchKind } from "./merge/match-kinds.ts";
export type { SqlStream } from "./merge/merge-sql-repository.ts";
export { nutritionLogsPage } from "./nutrition/nutrition-log-repository.ts";
export * from "./nutrition/nutrition-writer.ts";
export * from "./nutrition/nutrition.ts";
export * from "./parsed-records.ts";
export { applyProviderDeletions } from "./provider-deletions.ts";
export { type RecordBatch, type WriteSummary } from "./record-batches.ts";
export { type AfterTimeBigint, type AfterTimeUuid } from "./record-cursors.ts";
export { readRecordPages, type RecordPage, type RecordPageRows, type RecordPages, type RecordPageSql } from "./record-pages-repository.ts";
export {
  findLatestRecordTimes,
  type LatestRecordTimes,
  type LocatableRecordKind,
  type LocatedRecord,
  type LocatedSample,
  locateRecord,
  locateSample,
} from "./record-lookup-repository.ts";
export { countRejectedRecordsOfRawObject, insertRejectedRecords, listRejectedRecordsOfRawObject } from "./rejected-record-repository.ts";
export { resolveStatsIntervals } from "./samples/intervals.ts";
export { mergedSampleBucketAggregates, type QuantitySampleRow } from "./samples/quantity-sample-repository.ts";
export { readPageSeries, type PageSeries } from "./samples/sample-walks.ts";
export { sampleColumnPages, sampleRowAt } from "./samples/sample-column-walk.ts";
export { SampleColumnsPool, type SampleColumns } from "./samples/sample-column-repository.ts";
export { readNextSampleWindows, startSampleTypesWalk, type SampleTypeSpan, type SampleTypesWalk } from "./samples/sample-types-walk.ts";
export * from "./samples/sample-stats.ts";
export { queueStaleMergedRollups, refreshMergedSampleRollups } from "./samples/merged-rollups.ts";
export { rebuildUserSampleRollups } from "./samples/sample-rollup-repository.ts";
export { listSampleTypeSpans } from "./samples/sample-stream-repository.ts";
export { findSampleTypesByExternalId } from "./samples/sample-chunks.ts";
export { moveLegacySampleBatch, moveUserLegacySamples } from "./samples/legacy-sample-move.ts";
export { moveLegacyData, type DataMovesRun } from "./data-moves.ts";
export { LEGACY_MOVES, type LegacyMove } from "./legacy-moves.ts";
export * from "./samples/sample-types.ts";
export * from "./samples/sample-writer.ts";
export { externalIdentity, recordIdentity } from "./samples/sample-identity.ts";
export * from "./samples/samples.ts";
export { mergedSleepSessionsPage, sleepSessionsPage } from "./sleep/sleep-session-repository.ts";
export * from "./sleep/sleep-sessions.ts";
export * from "./sleep/sleep-writer.ts";
export * from "./time-tags.ts";
export { mergedWorkoutsPage, workoutsPage } from "./workouts/workout-repository.ts";
export * from "./workouts/workout-writer.ts";
export * from "./workouts/workouts.ts";
