// Heart rate series of the benchmarks (samples, export), loaded in SQL.
import type pg from "pg";

/** One stream of heart rate samples, one every `stepSeconds` from the origin. */
export interface HeartRateSeries {
  userId: string;
  provider: string;
  source: string;
  device: string;
  onBody: boolean;
  count: number;
  stepSeconds: number;
}

// A heart rate that wanders and jitters as a watch's does (a sawtooth would compress unfairly well).
export const VALUE_SQL = "round(70 + 20 * sin(g / 500.0) + abs(hashint4(g)) % 11 - 5)::float8";

// Rows shaped exactly as the sample writer stores them (a series, chunks of one hour of it,
// the merged view's stream), generated in SQL because millions of samples through the writer
// would take most of the run. Each statement writes whole hours: the writer's one chunk per
// series and hour.
export async function insertHeartRateSeries(sql: pg.Client, { userId, provider, source, device, onBody, count, stepSeconds }: HeartRateSeries, origin: number) {
  const { rows } = await sql.query(
    `INSERT INTO quantity_sample_series (user_id, provider, type, unit, source, source_key, device, on_body, is_primary_source,
       was_user_entered, timezone)
     VALUES ($1, $2, 'heart_rate', 'count/min', $3, $3, $4, $5, true, false, 'Europe/Berlin') RETURNING id`,
    [userId, provider, source, device, onBody],
  );
  const perStatement = (3600 / stepSeconds) * 300;
  for (let from = 0; from < count; from += perStatement) {
    const to = Math.min(count, from + perStatement);
    await sql.query(
      `INSERT INTO quantity_sample_chunks (user_id, series_id, hour, chunk_id, sample_count, start_offsets, durations_ms,
         sample_values, ingested_at, raw_object_ids)
       SELECT $1::uuid, $2::bigint, hour, nextval('quantity_sample_chunk_ids'), count(*)::int,
         array_agg((extract(epoch FROM t - hour) * 1000)::int ORDER BY g), array_agg(0::bigint ORDER BY g),
         array_agg(${VALUE_SQL} ORDER BY g), array_agg(now() ORDER BY g), array_agg(NULL::uuid ORDER BY g)
       FROM generate_series($3::int, $4::int - 1) g,
         LATERAL (SELECT to_timestamp($5::bigint / 1000.0 + g * $6::int) AS t) x,
         LATERAL (SELECT date_trunc('hour', t, 'UTC') AS hour) h
       GROUP BY hour`,
      [userId, rows[0].id, from, to, origin, stepSeconds],
    );
  }
  await sql.query(
    `INSERT INTO quantity_sample_streams (user_id, type, provider, source_key, on_body, max_duration_seconds, first_start, last_start)
     VALUES ($1, 'heart_rate', $2, $3, $4, 0, to_timestamp($5 / 1000.0), to_timestamp($5 / 1000.0 + ($6 - 1) * $7))`,
    [userId, provider, source, onBody, origin, count, stepSeconds],
  );
}
