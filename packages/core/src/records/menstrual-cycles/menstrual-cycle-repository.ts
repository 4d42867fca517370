import type { DbClient } from "../../platform/index.ts";
import type { AfterTimeUuid } from "../record-cursors.ts";

export interface MenstrualCycleWrite {
  /** YYYY-MM-DD */
  startDate: string;
  periodEndDate: string;
  endDate: string | null;
  periodLengthDays: number;
  cycleLengthDays: number | null;
}

export interface MenstrualCycleRow {
  id: string;
  start_date: Date;
  end_date: Date | null;
  period_end_date: Date;
  period_length_days: number;
  cycle_length_days: number | null;
  computed_at: Date;
}

/**
 * Serializes recomputations of one user's cycles (two writers of flow at once would
 * otherwise each replace the other's result). Held until the transaction ends.
 */
export async function lockMenstrualCycles(db: DbClient, userId: string): Promise<void> {
  await db.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('menstrual_cycles'), hashtext(${userId}))`;
}

/**
 * Makes the user's stored cycles exactly `cycles`: removes cycles whose start is gone,
 * inserts new ones and updates changed ones (a cycle keeps its id while its start date stays).
 */
export async function replaceMenstrualCycles(db: DbClient, userId: string, cycles: readonly MenstrualCycleWrite[]): Promise<void> {
  const column = <K extends keyof MenstrualCycleWrite>(key: K) => cycles.map((c) => c[key]);
  await db.$executeRaw`
    DELETE FROM menstrual_cycles
    WHERE user_id = ${userId}::uuid AND NOT (start_date = ANY(${column("startDate")}::date[]))`;
  if (cycles.length === 0) return;
  await db.$executeRaw`
    INSERT INTO menstrual_cycles AS m (id, user_id, start_date, period_end_date, end_date, period_length_days, cycle_length_days)
    SELECT gen_random_uuid(), ${userId}::uuid, n.*
    FROM unnest(${column("startDate")}::date[], ${column("periodEndDate")}::date[], ${column("endDate")}::date[],
      ${column("periodLengthDays")}::int[], ${column("cycleLengthDays")}::int[])
      AS n(start_date, period_end_date, end_date, period_length_days, cycle_length_days)
    ON CONFLICT (user_id, start_date) DO UPDATE SET
      period_end_date = excluded.period_end_date, end_date = excluded.end_date,
      period_length_days = excluded.period_length_days, cycle_length_days = excluded.cycle_length_days,
      computed_at = now()
    WHERE (m.period_end_date, m.end_date, m.period_length_days, m.cycle_length_days)
      IS DISTINCT FROM (excluded.period_end_date, excluded.end_date, excluded.period_length_days, excluded.cycle_length_days)`;
}

export interface CyclePageQuery {
  userId: string;
  /** Compared with the cycle's start date: start <= start_date < end. */
  startDate?: string | undefined;
  endDate?: string | undefined;
  after?: AfterTimeUuid | undefined;
  limit: number;
}

/** One page of cycles ordered by start_date; one row more than `limit`. */
export function selectMenstrualCycles(db: DbClient, q: CyclePageQuery): Promise<MenstrualCycleRow[]> {
  return db.menstrualCycle
    .findMany({
      where: {
        userId: q.userId,
        startDate: {
          ...(q.startDate !== undefined && { gte: new Date(`${q.startDate}T00:00:00Z`) }),
          ...(q.endDate !== undefined && { lt: new Date(`${q.endDate}T00:00:00Z`) }),
        },
        ...(q.after && {
          OR: [{ startDate: { gt: q.after.t } }, { startDate: q.after.t, id: { gt: q.after.id } }],
        }),
      },
      orderBy: [{ startDate: "asc" }, { id: "asc" }],
      take: q.limit + 1,
    })
    .then((rows) =>
      rows.map((r) => ({
        id: r.id,
        start_date: r.startDate,
        end_date: r.endDate,
        period_end_date: r.periodEndDate,
        period_length_days: r.periodLengthDays,
        cycle_length_days: r.cycleLengthDays,
        computed_at: r.computedAt,
      })),
    );
}
