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
          SELECT zone FROM (
          (SELECT coalesce(r.timezone, u.metadata->>'timezone') AS zone, c.hour + u.start_offset * interval '1 millisecond' AS at
          FROM (
            -- The latest chunks first: each holds at least one sample.
            SELECT c.* FROM quantity_sample_series r0
            JOIN quantity_sample_chunks c ON c.user_id = r0.user_id AND c.series_id = r0.id
              AND c.hour >= date_trunc('hour', ${q.start}::timestamptz, 'UTC') AND c.hour < ${q.end}
            WHERE r0.user_id = ${q.userId}::uuid AND r0.type = t.type
            ORDER BY c.hour DESC LIMIT ${SAMPLES_PER_TYPE}
          ) c
          JOIN quantity_sample_series r ON r.user_id = c.user_id AND r.id = c.series_id
          CROSS JOIN LATERAL unnest(c.start_offsets, c.sample_values, c.metadata) u(start_offset, value, metadata)
          WHERE u.value IS NOT NULL AND c.hour + u.start_offset * interval '1 millisecond' >= ${q.start}
            AND c.hour + u.start_offset * interval '1 millisecond' < ${q.end}
          ORDER BY c.hour + u.start_offset * interval '1 millisecond' DESC
          LIMIT ${SAMPLES_PER_TYPE})
          UNION ALL
          -- Samples an upgrade left one row each, until the job data-moves moves them.
          (SELECT l.metadata->>'timezone', l.start_date FROM quantity_samples_legacy l
          WHERE l.user_id = ${q.userId}::uuid AND l.type = t.type AND l.start_date >= ${q.start} AND l.start_date < ${q.end}
          ORDER BY l.start_date DESC LIMIT ${SAMPLES_PER_TYPE})
          ) latest
          ORDER BY at DESC LIMIT ${SAMPLES_PER_TYPE}
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
