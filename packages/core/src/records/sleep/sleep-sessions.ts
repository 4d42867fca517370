import { AppError, type DbClient, type Page, parseTimeWindow, toPage } from "../../platform/index.ts";
import { decodeAfterBigint, decodeAfterUuid } from "../record-cursors.ts";
import { selectSleepPhases, type SleepPhaseRow } from "./sleep-phase-repository.ts";
import {
  findSleepSessionOfUser,
  selectMergedSleepSessions,
  selectSleepSessions,
  SLEEP_TABLE,
  type SleepPageQuery,
  type SleepSessionRow,
} from "./sleep-session-repository.ts";
import type { SleepStage } from "./stage-totals.ts";
import type { RecordView } from "../samples/samples.ts";
import { rankedStreamsOf } from "../merge/source-orders.ts";

/** A sleep session as the API answers it: the stored row with its times as RFC 3339 text. */
export type SleepSessionDto = Omit<SleepSessionRow, "kind" | "bedtime_start" | "bedtime_end" | "ingested_at"> & {
  /** Stored only as validated by the writer. */
  kind: "sleep" | "nap";
  bedtime_start: string;
  bedtime_end: string;
  ingested_at: string;
};

export interface SleepPhaseDto {
  id: number;
  stage: SleepStage;
  start_date: string;
  end_date: string;
}

export const toSessionDto = ({ kind, bedtime_start, bedtime_end, ingested_at, outranked, ...row }: SleepSessionRow): SleepSessionDto => ({
  ...row,
  kind: kind === "nap" ? "nap" : "sleep",
  bedtime_start: bedtime_start.toISOString(),
  bedtime_end: bedtime_end.toISOString(),
  ingested_at: ingested_at.toISOString(),
  ...(outranked && { outranked }),
});

const toPhaseDto = (row: SleepPhaseRow): SleepPhaseDto => ({
  id: Number(row.id),
  stage: row.stage as SleepStage,
  start_date: row.start_date.toISOString(),
  end_date: row.end_date.toISOString(),
});

/** The metric of sleep sessions in the merged view and the order of sources. */
export const SLEEP_METRIC = "sleep_session";

/**
 * GET /v1/users/{id}/sleep: sessions (sleep and naps) ordered by bedtime_start then id. In
 * the merged view two sessions match when they share at least half of the shorter one.
 */
export async function listSleepSessions(
  db: DbClient,
  userId: string,
  input: { start?: string | undefined; end?: string | undefined; view: RecordView; cursor?: string | undefined; limit: number },
): Promise<Page<SleepSessionDto>> {
  const window = parseTimeWindow(input);
  const after = decodeAfterUuid(input.cursor);
  const query: SleepPageQuery = { userId, start: window.start, end: window.end, after, limit: input.limit };
  const rows =
    input.view === "all"
      ? await selectSleepSessions(db, query)
      : await selectMergedSleepSessions(db, query, await rankedStreamsOf(db, userId, SLEEP_TABLE, SLEEP_METRIC));
  return toPage(rows, input.limit, toSessionDto, (row) => ({ t: row.bedtime_start.toISOString(), id: row.id }));
}

/** GET /v1/users/{id}/sleep/{session_id}/phases: 404 unless the session is the user's. */
export async function listSleepPhases(
  db: DbClient,
  userId: string,
  sessionId: string,
  input: { start?: string | undefined; end?: string | undefined; cursor?: string | undefined; limit: number },
): Promise<Page<SleepPhaseDto>> {
  const window = parseTimeWindow(input);
  const after = decodeAfterBigint(input.cursor);
  if (!(await findSleepSessionOfUser(db, userId, sessionId))) throw new AppError("not_found", "No such sleep session.");
  const rows = await selectSleepPhases(db, { userId, sessionId, start: window.start, end: window.end, after, limit: input.limit });
  return toPage(rows, input.limit, toPhaseDto, (row) => ({ t: row.start_date.toISOString(), id: row.id.toString() }));
}
