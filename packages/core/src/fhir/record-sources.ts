import { afterDate, afterUuid, type ObservationPosition } from "./observation-position.ts";
import type { ObservationKind } from "./observation-kinds.ts";
import { dailyObservation } from "./observations/daily-observation.ts";
import { ecgObservation } from "./observations/ecg-observation.ts";
import { nutritionObservation } from "./observations/nutrition-observation.ts";
import { sleepObservation } from "./observations/sleep-observation.ts";
import { workoutObservation } from "./observations/workout-observation.ts";
import {
  type DailySummaryRow,
  rankedStreamsOf,
  readDailyPage,
  selectEcgRecordings,
  selectMergedSleepSessions,
  selectMergedWorkouts,
  selectNutritionLogs,
  selectSleepSessions,
  selectWorkouts,
  SLEEP_METRIC,
  SLEEP_TABLE,
  toDailyDto,
  toEcgDto,
  toNutritionDto,
  toSessionDto,
  toWorkoutDto,
  WORKOUT_METRIC,
  WORKOUT_TABLE,
} from "../records/index.ts";
import { sliceOf, type SliceQuery, type SourceSlice } from "./observation-entry.ts";

/** A FHIR page holds at most this many ECG recordings (their voltages are large). */
export const ECG_RECORDINGS_PER_PAGE = 100;

const at = (kind: ObservationKind, t: Date, id: string): ObservationPosition => ({ t, kind, id });

function pageQuery(q: SliceQuery, kind: ObservationKind, limit = q.limit) {
  return { userId: q.ctx.userId, start: q.window.start, end: q.window.end, after: afterUuid(q.after, kind), limit };
}

export async function sleepSlice(q: SliceQuery): Promise<SourceSlice> {
  const query = pageQuery(q, "sleep_session");
  const rows =
    q.view === "all"
      ? await selectSleepSessions(q.db, query)
      : await selectMergedSleepSessions(q.db, query, await rankedStreamsOf(q.db, q.ctx.userId, SLEEP_TABLE, SLEEP_METRIC));
  const positionOf = (row: (typeof rows)[number]) => at("sleep_session", row.bedtime_start, row.id);
  return sliceOf(rows, q.limit, (row) => ({ position: positionOf(row), render: () => sleepObservation(q.ctx, toSessionDto(row)) }), positionOf);
}

export async function workoutSlice(q: SliceQuery): Promise<SourceSlice> {
  const query = pageQuery(q, "workout");
  const rows =
    q.view === "all"
      ? await selectWorkouts(q.db, query)
      : await selectMergedWorkouts(q.db, query, await rankedStreamsOf(q.db, q.ctx.userId, WORKOUT_TABLE, WORKOUT_METRIC));
  const positionOf = (row: (typeof rows)[number]) => at("workout", row.start_date, row.id);
  return sliceOf(rows, q.limit, (row) => ({ position: positionOf(row), render: () => workoutObservation(q.ctx, toWorkoutDto(row)) }), positionOf);
}

/** The first date whose midnight UTC is at or after `time`. */
function firstDateFrom(time: Date): string {
  const date = time.toISOString().slice(0, 10);
  return time.getTime() === Date.parse(date) ? date : new Date(Date.parse(date) + 86_400_000).toISOString().slice(0, 10);
}

/**
 * Daily summaries sort at midnight UTC of their date. In the merged view a summary svc derived
 * from samples is left out: the samples it sums are listed themselves, and it owns no figure.
 */
export async function dailySlice(q: SliceQuery): Promise<SourceSlice> {
  const query = {
    userId: q.ctx.userId,
    startDate: q.window.start && firstDateFrom(q.window.start),
    endDate: q.window.end && firstDateFrom(q.window.end),
    after: afterDate(q.after),
    limit: q.limit,
  };
  const rows = await readDailyPage(q.db, query, q.view);
  const positionOf = (row: DailySummaryRow) => at("daily_summary", new Date(`${row.date}T00:00:00.000Z`), row.id);
  return sliceOf(
    rows,
    q.limit,
    (row) => (q.view === "merged" && row.derived ? null : { position: positionOf(row), render: () => dailyObservation(q.ctx, toDailyDto(row)) }),
    positionOf,
  );
}

/** ECG recordings: at most ECG_RECORDINGS_PER_PAGE a page; their voltages are loaded for the page only. */
export async function ecgSlice(q: SliceQuery): Promise<SourceSlice> {
  const limit = Math.min(q.limit, ECG_RECORDINGS_PER_PAGE);
  const rows = await selectEcgRecordings(q.db, pageQuery(q, "ecg_recording", limit));
  const positionOf = (row: (typeof rows)[number]) => at("ecg_recording", row.start_date, row.id);
  return sliceOf(
    rows,
    limit,
    (row) => ({ position: positionOf(row), render: (voltages) => ecgObservation(q.ctx, toEcgDto(row), voltages.get(row.id) ?? []) }),
    positionOf,
  );
}

/** Nutrition logs have no merged view: every provider's are listed. */
export async function nutritionSlice(q: SliceQuery): Promise<SourceSlice> {
  const rows = await selectNutritionLogs(q.db, pageQuery(q, "nutrition_log"));
  const positionOf = (row: (typeof rows)[number]) => at("nutrition_log", row.start_date, row.id);
  return sliceOf(rows, q.limit, (row) => ({ position: positionOf(row), render: () => nutritionObservation(q.ctx, toNutritionDto(row)) }), positionOf);
}
