import type { DbClient } from "../platform/index.ts";
import {
  applyProviderDeletions,
  insertRejectedRecords,
  type ParsedRecords,
  refreshDerivedDailyTotals,
  type RecordBatch,
  writeCategorySamples,
  writeDailySummaries,
  writeEcgRecordings,
  writeHeartbeatSeries,
  writeNutritionLogs,
  writeQuantitySamples,
  writeSleepSessions,
  type WriteSummary,
  writeWorkouts,
} from "../records/index.ts";
import { dropRevokedRecords } from "../sharing/index.ts";
import { storableValues } from "./storable-values.ts";

/** The tables a bundle writes to, as named in data.written's `records`. */
export const WRITTEN_TABLES = [
  "quantity_samples",
  "category_samples",
  "sleep_sessions",
  "workouts",
  "nutrition_logs",
  "daily_summaries",
  "heartbeat_series",
  "ecg_recordings",
] as const;

export type WrittenTable = (typeof WRITTEN_TABLES)[number];

/** What writing bundles changed: rows inserted or updated per table, their types and UTC days, records deleted. */
export interface BundleChanges {
  records: Partial<Record<WrittenTable, number>>;
  types: Set<string>;
  days: Set<string>;
  rejected: number;
  /** Records not stored because the user revoked their category for the provider (issue 10). */
  skipped: number;
  /** Records removed because the provider reported them deleted. */
  deleted: number;
  /** UTC days whose derived daily totals are still to be refreshed (when their refresh was deferred). */
  staleDailyTotals: Set<string>;
}

export const noChanges = (): BundleChanges => ({
  records: {},
  types: new Set(),
  days: new Set(),
  rejected: 0,
  skipped: 0,
  deleted: 0,
  staleDailyTotals: new Set(),
});

/**
 * Writes every list of a bundle through its writer (in the caller's transaction), then
 * applies the deletions it reports, and adds what changed. Records of a category the user
 * revoked for the provider are skipped here, the one place every upload, pull and self
 * report is written (sharing/consent-enforcement.ts).
 */
export async function writeParsedRecords(
  db: DbClient,
  batch: RecordBatch,
  records: ParsedRecords,
  changes: BundleChanges,
  options: { deferDailyTotals?: boolean } = {},
): Promise<void> {
  const consented = await dropRevokedRecords(db, batch, records);
  changes.skipped += consented.skipped;
  // Text and times as sent can hold what PostgreSQL cannot store (a NUL would fail the whole write).
  const parsed = storableValues(consented.records);
  const add = (table: WrittenTable, summary: WriteSummary) => {
    const written = summary.inserted + summary.updated;
    if (written > 0) changes.records[table] = (changes.records[table] ?? 0) + written;
    for (const type of summary.types) changes.types.add(type);
    for (const day of summary.days) changes.days.add(day);
    changes.rejected += summary.rejected;
  };
  if (parsed.quantitySamples.length) {
    const sampleOptions = { fixedTimeIds: parsed.fixedTimeIds ?? false, staleDailyTotals: changes.staleDailyTotals };
    add("quantity_samples", await writeQuantitySamples(db, batch, parsed.quantitySamples, sampleOptions));
  }
  if (parsed.categorySamples.length) add("category_samples", await writeCategorySamples(db, batch, parsed.categorySamples));
  if (parsed.sleepSessions.length) add("sleep_sessions", await writeSleepSessions(db, batch, parsed.sleepSessions));
  if (parsed.workouts.length) add("workouts", await writeWorkouts(db, batch, parsed.workouts));
  if (parsed.nutritionLogs.length) add("nutrition_logs", await writeNutritionLogs(db, batch, parsed.nutritionLogs));
  if (parsed.dailySummaries.length) add("daily_summaries", await writeDailySummaries(db, batch, parsed.dailySummaries));
  if (parsed.heartbeatSeries.length) add("heartbeat_series", await writeHeartbeatSeries(db, batch, parsed.heartbeatSeries));
  if (parsed.ecgRecordings.length) add("ecg_recordings", await writeEcgRecordings(db, batch, parsed.ecgRecordings));
  await insertRejectedRecords(db, batch, parsed.rejected);
  changes.rejected += parsed.rejected.length;
  if (parsed.deletedExternalIds?.length) changes.deleted += await applyProviderDeletions(db, batch, parsed.deletedExternalIds);
  if (!options.deferDailyTotals) await refreshStaleDailyTotals(db, batch, changes);
}

/**
 * Refreshes the derived daily totals of the days the bundles written so far made stale. A
 * caller that writes one upload in many batches (deferDailyTotals) calls it once after the last.
 */
export async function refreshStaleDailyTotals(db: DbClient, batch: RecordBatch, changes: BundleChanges): Promise<void> {
  if (changes.staleDailyTotals.size === 0) return;
  await refreshDerivedDailyTotals(db, batch.userId, batch.provider, [...changes.staleDailyTotals].sort());
  changes.staleDailyTotals.clear();
}
