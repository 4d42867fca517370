import { type DbClient, isTimeZone, type Page, parseTimeWindow, toPage } from "../../platform/index.ts";
import { deriveMenstrualCycles, localDatesOf } from "./menstrual-cycle-rule.ts";
import { decodeAfterUuid } from "../record-cursors.ts";
import { selectMenstrualFlowTimes } from "../category-samples/category-sample-repository.ts";
import {
  lockMenstrualCycles,
  replaceMenstrualCycles,
  selectMenstrualCycles,
  type MenstrualCycleRow,
} from "./menstrual-cycle-repository.ts";

/** The category type whose samples the cycles are derived from. */
export const MENSTRUAL_FLOW = "menstrual_flow";

export interface MenstrualCycleDto {
  id: string;
  start_date: string;
  end_date: string | null;
  period_end_date: string;
  period_length_days: number;
  cycle_length_days: number | null;
}

const dateOf = (d: Date) => d.toISOString().slice(0, 10);

const toCycleDto = (row: MenstrualCycleRow): MenstrualCycleDto => ({
  id: row.id,
  start_date: dateOf(row.start_date),
  end_date: row.end_date && dateOf(row.end_date),
  period_end_date: dateOf(row.period_end_date),
  period_length_days: row.period_length_days,
  cycle_length_days: row.cycle_length_days,
});

/**
 * Recomputes every menstrual cycle of a user from the recorded flow (rule in
 * cycles/menstrual-cycle-rule.ts). Local dates are computed here, not in SQL: PostgreSQL
 * reads a `+05:30` given to AT TIME ZONE as a POSIX zone with the sign inverted.
 * Call inside the caller's transaction; it locks the user's cycles until it ends.
 */
export async function recomputeMenstrualCycles(db: DbClient, userId: string): Promise<void> {
  await lockMenstrualCycles(db, userId);
  const flows = await selectMenstrualFlowTimes(db, userId);
  const days = new Set<string>();
  for (const flow of flows) {
    const zone = flow.timezone && isTimeZone(flow.timezone) ? flow.timezone : null;
    for (const day of localDatesOf(flow.start_date, flow.end_date, zone)) days.add(day);
  }
  await replaceMenstrualCycles(db, userId, deriveMenstrualCycles(days));
}

/**
 * GET /v1/users/{id}/menstrual-cycles: cycles ordered by start_date, then id. The window is
 * compared as dates with the cycle's start: a YYYY-MM-DD, or the date part of an RFC 3339
 * time as written (its local date), as for daily summaries.
 */
export async function listMenstrualCycles(
  db: DbClient,
  userId: string,
  input: { start?: string | undefined; end?: string | undefined; cursor?: string | undefined; limit: number },
): Promise<Page<MenstrualCycleDto>> {
  parseTimeWindow(input);
  const rows = await selectMenstrualCycles(db, {
    userId,
    startDate: input.start?.slice(0, 10),
    endDate: input.end?.slice(0, 10),
    after: decodeAfterUuid(input.cursor),
    limit: input.limit,
  });
  return toPage(rows, input.limit, toCycleDto, (row) => ({ t: row.start_date.toISOString(), id: row.id }));
}
