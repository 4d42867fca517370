import {
  categoryOfCategoryType,
  categoryOfQuantityType,
  DAILY_SUMMARY_FIGURE_CATEGORIES,
  dailyFiguresOf,
  type DailySummaryRecord,
  type ParsedRecords,
  RECORD_KIND_CATEGORIES,
} from "../records/index.ts";
import type { DbClient } from "../platform/index.ts";
import { holdRecordWriterLock, listRevokedCategories } from "./source-consent-repository.ts";

const DAILY_FIGURES = Object.keys(DAILY_SUMMARY_FIGURE_CATEGORIES) as Array<keyof typeof DAILY_SUMMARY_FIGURE_CATEGORIES>;
const hasFigure = (summary: DailySummaryRecord) => DAILY_FIGURES.some((field) => summary[field] !== null && summary[field] !== undefined);

/**
 * Daily summaries without the figures of the revoked categories (set to null); a summary that
 * only held such figures is dropped. The summaries kept and how many were dropped.
 */
function withoutRevokedFigures(summaries: DailySummaryRecord[], revoked: ReadonlySet<string>): { kept: DailySummaryRecord[]; dropped: number } {
  const figures = dailyFiguresOf(revoked);
  if (figures.length === 0) return { kept: summaries, dropped: 0 };
  const kept: DailySummaryRecord[] = [];
  for (const summary of summaries) {
    const cleared: DailySummaryRecord = { ...summary, ...Object.fromEntries(figures.map((field) => [field, null])) };
    if (hasFigure(summary) && !hasFigure(cleared)) continue;
    kept.push(cleared);
  }
  return { kept, dropped: summaries.length - kept.length };
}

/**
 * The records of a bundle the user still consents to: records of a category the user revoked
 * for the provider are dropped and counted as skipped (neither stored nor rejected). Daily
 * summaries lose the figures of revoked categories, and are dropped (skipped) when only
 * such figures were left. Sample types outside the catalog belong to no category and are
 * kept. Call inside the transaction that writes the records: it holds the lock a
 * revocation's deletion waits for.
 */
export async function dropRevokedRecords(
  db: DbClient,
  batch: { userId: string; provider: string },
  records: ParsedRecords,
): Promise<{ records: ParsedRecords; skipped: number }> {
  await holdRecordWriterLock(db, batch.userId, batch.provider);
  const revoked = new Set(await listRevokedCategories(db, batch.userId, batch.provider));
  if (revoked.size === 0) return { records, skipped: 0 };
  let skipped = 0;
  const keep = <T>(list: T[], isRevoked: (record: T) => boolean): T[] => {
    const kept = list.filter((record) => !isRevoked(record));
    skipped += list.length - kept.length;
    return kept;
  };
  const whole = (kind: keyof typeof RECORD_KIND_CATEGORIES) => () => revoked.has(RECORD_KIND_CATEGORIES[kind]);
  const ofType = (categoryOf: (type: string) => string | null) => (record: { type: unknown }) => {
    const category = typeof record.type === "string" ? categoryOf(record.type) : null;
    return category !== null && revoked.has(category);
  };
  const daily = withoutRevokedFigures(records.dailySummaries, revoked);
  skipped += daily.dropped;
  return {
    records: {
      ...records,
      quantitySamples: keep(records.quantitySamples, ofType(categoryOfQuantityType)),
      categorySamples: keep(records.categorySamples, ofType(categoryOfCategoryType)),
      sleepSessions: keep(records.sleepSessions, whole("sleep_session")),
      workouts: keep(records.workouts, whole("workout")),
      nutritionLogs: keep(records.nutritionLogs, whole("nutrition_log")),
      dailySummaries: daily.kept,
      heartbeatSeries: keep(records.heartbeatSeries, whole("heartbeat_series")),
      ecgRecordings: keep(records.ecgRecordings, whole("ecg_recording")),
    },
    skipped,
  };
}
