import { Prisma } from "@svc/db";
import type { DbClient } from "../platform/index.ts";

/** The record kinds coverage counts row by row (each row naming its provider), with the time that places it on a day. */
export const COVERED_KINDS = {
  sleep_sessions: { table: "sleep_sessions", time: "bedtime_start" },
  workouts: { table: "workouts", time: "start_date" },
  nutrition_logs: { table: "nutrition_logs", time: "start_date" },
  heartbeat_series: { table: "heartbeat_series", time: "start_date" },
  ecg_recordings: { table: "ecg_recordings", time: "start_date" },
} as const;

export type CoveredKind = keyof typeof COVERED_KINDS | "quantity_samples" | "category_samples" | "daily_summaries";

export interface CoverageRow {
  kind: CoveredKind;
  provider: string;
  day: string;
  count: number;
}

/** Records of a user per kind, provider and UTC day in [start, end); daily summaries svc derived are not the provider's records. */
export function countRecordsPerDay(
  db: DbClient,
  q: { userId: string; start: Date; end: Date; provider?: string | undefined },
): Promise<CoverageRow[]> {
  const provider = q.provider === undefined ? Prisma.empty : Prisma.sql` AND provider = ${q.provider}`;
  const timed = Object.entries(COVERED_KINDS).map(
    ([kind, { table, time }]) => Prisma.sql`
      SELECT ${kind} AS kind, provider, to_char(${Prisma.raw(time)} AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, count(*)::int AS count
      FROM ${Prisma.raw(table)}
      WHERE user_id = ${q.userId}::uuid AND ${Prisma.raw(time)} >= ${q.start} AND ${Prisma.raw(time)} < ${q.end}${provider}
      GROUP BY 2, 3`,
  );
  // Samples lie grouped per hour: a chunk inside the window counts whole, one at its edges sample by sample.
  // Those an upgrade left one row each (until the job data-moves moves them) count one by one.
  const samples = Prisma.sql`
    SELECT kind, provider, day, sum(count)::int AS count FROM (
    SELECT 'quantity_samples' AS kind, r.provider, to_char(c.hour AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day,
      sum(CASE WHEN c.hour >= ${q.start} AND c.hour + interval '1 hour' <= ${q.end} THEN c.sample_count
        ELSE (SELECT count(*) FROM unnest(c.start_offsets, c.sample_values) u(start_offset, value)
          WHERE u.value IS NOT NULL AND c.hour + u.start_offset * interval '1 millisecond' >= ${q.start}
            AND c.hour + u.start_offset * interval '1 millisecond' < ${q.end}) END)::int AS count
    FROM quantity_sample_series r
    JOIN quantity_sample_chunks c ON c.user_id = r.user_id AND c.series_id = r.id
      AND c.hour >= date_trunc('hour', ${q.start}::timestamptz, 'UTC') AND c.hour < ${q.end}
    WHERE r.user_id = ${q.userId}::uuid${q.provider === undefined ? Prisma.empty : Prisma.sql` AND r.provider = ${q.provider}`}
    GROUP BY 2, 3
    HAVING sum(c.sample_count) > 0
    UNION ALL
    SELECT 'quantity_samples', provider, to_char(start_date AT TIME ZONE 'UTC', 'YYYY-MM-DD'), count(*)::int
    FROM quantity_samples_legacy
    WHERE user_id = ${q.userId}::uuid AND start_date >= ${q.start} AND start_date < ${q.end}${provider}
    GROUP BY 2, 3
    ) s
    GROUP BY 1, 2, 3`;
  // Category samples name their provider in their series, those not moved yet since the upgrade to series in their own row.
  const categorySamples = Prisma.sql`
    SELECT 'category_samples' AS kind, c.provider, to_char(c.start_date AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, count(*)::int AS count
    FROM (
      SELECT r.provider, s.start_date
      FROM category_sample_series r
      JOIN category_samples s ON s.user_id = r.user_id AND s.series_id = r.id AND s.start_date >= ${q.start} AND s.start_date < ${q.end}
      WHERE r.user_id = ${q.userId}::uuid${q.provider === undefined ? Prisma.empty : Prisma.sql` AND r.provider = ${q.provider}`}
      UNION ALL
      SELECT l.provider, l.start_date
      FROM category_samples_legacy l
      WHERE l.user_id = ${q.userId}::uuid AND l.start_date >= ${q.start} AND l.start_date < ${q.end}${provider}
    ) c
    GROUP BY 2, 3`;
  const daily = Prisma.sql`
    SELECT 'daily_summaries' AS kind, provider, to_char(date, 'YYYY-MM-DD') AS day, count(*)::int AS count
    FROM daily_summaries
    WHERE user_id = ${q.userId}::uuid AND NOT derived AND date >= ${q.start}::date AND date < ${q.end}::date${provider}
    GROUP BY 2, 3`;
  return db.$queryRaw<CoverageRow[]>`${Prisma.join([samples, categorySamples, ...timed, daily], " UNION ALL ")} ORDER BY day, provider, kind`;
}
