import { z } from "zod";
import { type DbClient, decodeCursor, type Page, parseTimeWindow, toPage } from "../../platform/index.ts";
import {
  listDailySummaries as listDailyRows,
  listDailySummaryStreams,
  listMergedDailySummaries,
  type DailyPageQuery,
  type DailySummaryRow,
} from "./daily-summary-repository.ts";
import { toProvenanceDto } from "../provenance-dto.ts";
import type { RecordView } from "../samples/samples.ts";
import { rankStreamsForMetric } from "../merge/source-orders.ts";

/** A daily summary as the API answers it: the stored row with its time as RFC 3339 text. */
export type DailySummaryDto = Omit<DailySummaryRow, "ingested_at"> & { ingested_at: string };

export const toDailyDto = (row: DailySummaryRow): DailySummaryDto => ({
  id: row.id,
  date: row.date,
  timezone: row.timezone,
  steps: row.steps,
  distance_meters: row.distance_meters,
  active_energy_kcal: row.active_energy_kcal,
  total_energy_kcal: row.total_energy_kcal,
  floors_climbed: row.floors_climbed,
  active_seconds: row.active_seconds,
  resting_heart_rate: row.resting_heart_rate,
  average_heart_rate: row.average_heart_rate,
  hrv_rmssd: row.hrv_rmssd,
  sleep_seconds: row.sleep_seconds,
  score: row.score,
  derived: row.derived,
  metadata: row.metadata,
  ...toProvenanceDto(row),
  ...(row.outranked && { outranked: row.outranked }),
});

/** Cursor of the daily list: the last row's date and id. */
const DateUuidCursor = z.object({ d: z.iso.date(), id: z.uuid() }).strict();

/** The metric daily summaries are ranked as (group activity). */
export const DAILY_SUMMARY_METRIC = "daily_summary";

/** One page of daily summaries in a view (one row more than `limit`); merged: one per date, the best ranked stream's. */
export async function readDailyPage(db: DbClient, query: DailyPageQuery, view: RecordView): Promise<DailySummaryRow[]> {
  if (view === "all") return listDailyRows(db, query);
  const streams = (await listDailySummaryStreams(db, query.userId)).map((s) => ({ ...s, maxDurationSeconds: 86_400 }));
  return listMergedDailySummaries(db, query, await rankStreamsForMetric(db, query.userId, DAILY_SUMMARY_METRIC, streams));
}

/**
 * A user's daily summaries by date, then id. start and end are compared as dates: a
 * YYYY-MM-DD, or the date part of an RFC 3339 time as written (its local date). In the
 * merged view (default) one summary per date is kept: that of the best ranked stream for
 * the metric `daily_summary`, listing the streams it outranked.
 */
export async function listDailySummaries(
  db: DbClient,
  userId: string,
  input: { start?: string | undefined; end?: string | undefined; view: RecordView; cursor?: string | undefined; limit: number },
): Promise<Page<DailySummaryDto>> {
  parseTimeWindow(input);
  const after = input.cursor === undefined ? undefined : decodeCursor(input.cursor, DateUuidCursor);
  const query: DailyPageQuery = {
    userId,
    startDate: input.start?.slice(0, 10),
    endDate: input.end?.slice(0, 10),
    after,
    limit: input.limit,
  };
  const rows = await readDailyPage(db, query, input.view);
  return toPage(rows, input.limit, toDailyDto, (row) => ({ d: row.date, id: row.id }));
}
