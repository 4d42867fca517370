import { afterDate, afterUuid, type ObservationPosition } from "./observation-position.ts";
import type { ObservationKind, RecordKind } from "./observation-kinds.ts";
import { dailyObservation } from "./observations/daily-observation.ts";
import { ecgObservation } from "./observations/ecg-observation.ts";
import { nutritionObservation } from "./observations/nutrition-observation.ts";
import { sleepObservation } from "./observations/sleep-observation.ts";
import { workoutObservation } from "./observations/workout-observation.ts";
import {
  dailySummariesPage,
  type DailySummaryRow,
  ecgRecordingsPage,
  mergedDailySummariesPage,
  mergedSleepSessionsPage,
  mergedWorkoutsPage,
  nutritionLogsPage,
  type RecordPage,
  type RecordPageSql,
  sleepSessionsPage,
  type SqlStream,
  type StreamTable,
  toDailyDto,
  toEcgDto,
  toNutritionDto,
  toSessionDto,
  toWorkoutDto,
  workoutsPage,
} from "../records/index.ts";
import { type ObservationEntry, sliceOf, type SliceQuery, type SourceSlice } from "./observation-entry.ts";

/** A FHIR page holds at most this many ECG recordings (their voltages are large). */
export const ECG_RECORDINGS_PER_PAGE = 100;

/**
 * The entries a page takes from candidates in its order: at most `limit`, and none after its
 * ECG_RECORDINGS_PER_PAGE-th recording (`atRecordingCap`: the page ends there).
 */
export function takePage(candidates: readonly ObservationEntry[], limit: number): { page: ObservationEntry[]; atRecordingCap: boolean } {
  const page: ObservationEntry[] = [];
  let recordings = 0;
  for (const entry of candidates) {
    if (page.length === limit) break;
    page.push(entry);
    if (entry.position.kind === "ecg_recording" && ++recordings === ECG_RECORDINGS_PER_PAGE) return { page, atRecordingCap: true };
  }
  return { page, atRecordingCap: false };
}

const at = (kind: ObservationKind, t: Date, id: string): ObservationPosition => ({ t, kind, id });

function pageQuery(q: SliceQuery, kind: ObservationKind, limit = q.limit) {
  return { userId: q.ctx.userId, start: q.window.start, end: q.window.end, after: afterUuid(q.after, kind), limit };
}

/**
 * The read of one kind of record towards a page: the page of its table (none: no rows; the
 * search reads several in one statement) and the slice its rows give.
 */
export interface RecordRead {
  kind: RecordKind;
  /** How many records it reads at most (one more tells there is more). */
  limit: number;
  page: RecordPageSql | null;
  slice: (rows: readonly object[]) => SourceSlice;
}

/** The kinds whose merged view ranks their table's streams: their reads wait for the ranked streams. */
export const RANKED_KINDS: ReadonlySet<RecordKind> = new Set<StreamTable>(["sleep_session", "workout", "daily_summary"]);

/** The read of a kind of record with `limit` (`ranked`: in the merged view, the ranked streams of its table). */
export function recordRead(q: SliceQuery, kind: RecordKind, limit: number, ranked: Partial<Record<StreamTable, SqlStream[]>>): RecordRead {
  const query = { ...q, limit };
  const read = <Row extends object>(page: RecordPage<Row> | null, slice: (q: SliceQuery, rows: readonly Row[]) => SourceSlice): RecordRead => ({
    kind,
    limit,
    page,
    // The rows are the page's own: read from it by name.
    slice: (rows) => slice(query, rows as readonly Row[]),
  });
  switch (kind) {
    case "sleep_session": {
      const page = pageQuery(query, kind);
      return read(q.view === "all" ? sleepSessionsPage(page) : mergedSleepSessionsPage(page, ranked.sleep_session ?? []), sleepSlice);
    }
    case "workout": {
      const page = pageQuery(query, kind);
      return read(q.view === "all" ? workoutsPage(page) : mergedWorkoutsPage(page, ranked.workout ?? []), workoutSlice);
    }
    case "daily_summary": {
      const page = dailyPageQuery(query);
      return read(q.view === "all" ? dailySummariesPage(page) : mergedDailySummariesPage(page, ranked.daily_summary ?? []), dailySlice);
    }
    case "ecg_recording":
      return read(ecgRecordingsPage(pageQuery(query, kind, Math.min(limit, ECG_RECORDINGS_PER_PAGE))), ecgSlice);
    case "nutrition_log":
      // Nutrition logs have no merged view: every provider's are listed.
      return read(nutritionLogsPage(pageQuery(query, kind)), nutritionSlice);
  }
}

type RowOf<F> = F extends (...args: never[]) => RecordPage<infer Row> | null ? Row : never;

function sleepSlice(q: SliceQuery, rows: readonly RowOf<typeof sleepSessionsPage>[]): SourceSlice {
  const positionOf = (row: (typeof rows)[number]) => at("sleep_session", row.bedtime_start, row.id);
  return sliceOf(rows, q.limit, (row) => ({ position: positionOf(row), render: () => sleepObservation(q.ctx, toSessionDto(row)) }), positionOf);
}

function workoutSlice(q: SliceQuery, rows: readonly RowOf<typeof workoutsPage>[]): SourceSlice {
  const positionOf = (row: (typeof rows)[number]) => at("workout", row.start_date, row.id);
  return sliceOf(rows, q.limit, (row) => ({ position: positionOf(row), render: () => workoutObservation(q.ctx, toWorkoutDto(row)) }), positionOf);
}

/** The first date whose midnight UTC is at or after `time`. */
function firstDateFrom(time: Date): string {
  const date = time.toISOString().slice(0, 10);
  return time.getTime() === Date.parse(date) ? date : new Date(Date.parse(date) + 86_400_000).toISOString().slice(0, 10);
}

function dailyPageQuery(q: SliceQuery) {
  return {
    userId: q.ctx.userId,
    startDate: q.window.start && firstDateFrom(q.window.start),
    endDate: q.window.end && firstDateFrom(q.window.end),
    after: afterDate(q.after),
    limit: q.limit,
  };
}

/**
 * Daily summaries sort at midnight UTC of their date. In the merged view a summary svc derived
 * from samples is left out: the samples it sums are listed themselves, and it owns no figure.
 */
function dailySlice(q: SliceQuery, rows: readonly DailySummaryRow[]): SourceSlice {
  const positionOf = (row: DailySummaryRow) => at("daily_summary", new Date(`${row.date}T00:00:00.000Z`), row.id);
  return sliceOf(
    rows,
    q.limit,
    (row) => (q.view === "merged" && row.derived ? null : { position: positionOf(row), render: () => dailyObservation(q.ctx, toDailyDto(row)) }),
    positionOf,
  );
}

/** ECG recordings: at most ECG_RECORDINGS_PER_PAGE a page; their voltages are loaded for the page only. */
function ecgSlice(q: SliceQuery, rows: readonly RowOf<typeof ecgRecordingsPage>[]): SourceSlice {
  const positionOf = (row: (typeof rows)[number]) => at("ecg_recording", row.start_date, row.id);
  return sliceOf(
    rows,
    Math.min(q.limit, ECG_RECORDINGS_PER_PAGE),
    (row) => ({ position: positionOf(row), render: (voltages) => ecgObservation(q.ctx, toEcgDto(row), voltages.get(row.id) ?? []) }),
    positionOf,
  );
}

function nutritionSlice(q: SliceQuery, rows: readonly RowOf<typeof nutritionLogsPage>[]): SourceSlice {
  const positionOf = (row: (typeof rows)[number]) => at("nutrition_log", row.start_date, row.id);
  return sliceOf(rows, q.limit, (row) => ({ position: positionOf(row), render: () => nutritionObservation(q.ctx, toNutritionDto(row)) }), positionOf);
}
