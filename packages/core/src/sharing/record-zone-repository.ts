import { Prisma } from "@svc/db";
import type { DbClient } from "../platform/index.ts";

/** Samples of each type whose zones are counted: the latest of the window. */
const SAMPLES_PER_TYPE = 500;

/**
 * The time zones the user's records of a window carry, most carried first: sleep sessions,
 * workouts and daily summaries (one a day or so) starting in the window, and the latest
 * SAMPLES_PER_TYPE samples of each of `sampleTypes` (their metadata.timezone). Zones are
 * returned as stored; the caller checks them.
 */
export function listRecordZones(
  db: DbClient,
  q: { userId: string; start: Date; end: Date; sampleTypes: readonly string[] },
): Promise<Array<{ zone: string; records: number }>> {
  const samples =
    q.sampleTypes.length === 0
      ? Prisma.empty
      : Prisma.sql`UNION ALL
        SELECT z.zone FROM unnest(${[...q.sampleTypes]}::text[]) t(type)
        CROSS JOIN LATERAL (
          SELECT s.metadata->>'timezone' AS zone FROM quantity_samples s
          WHERE s.user_id = ${q.userId}::uuid AND s.type = t.type AND s.start_date >= ${q.start} AND s.start_date < ${q.end}
          ORDER BY s.start_date DESC
          LIMIT ${SAMPLES_PER_TYPE}
        ) z`;
  return db.$queryRaw<Array<{ zone: string; records: number }>>`
    SELECT zone, count(*)::int AS records FROM (
      SELECT timezone AS zone FROM sleep_sessions
      WHERE user_id = ${q.userId}::uuid AND bedtime_start >= ${q.start} AND bedtime_start < ${q.end}
      UNION ALL
      SELECT timezone FROM workouts
      WHERE user_id = ${q.userId}::uuid AND start_date >= ${q.start} AND start_date < ${q.end}
      UNION ALL
      SELECT timezone FROM daily_summaries
      WHERE user_id = ${q.userId}::uuid AND date >= ${q.start}::date AND date < ${q.end}::date
      ${samples}
    ) r
    WHERE zone IS NOT NULL
    GROUP BY zone
    ORDER BY records DESC, zone`;
}
