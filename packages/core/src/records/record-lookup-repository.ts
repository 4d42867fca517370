import { Prisma } from "@svc/db";
import type { DbClient } from "../platform/index.ts";
import { SLOTS_PER_CHUNK } from "./samples/sample-chunk-repository.ts";

/** Where a record is found by its id alone: its user and the time it sorts at. */
export interface LocatedRecord {
  userId: string;
  time: Date;
}

/** A quantity sample found by its id alone: also its type. */
export interface LocatedSample extends LocatedRecord {
  type: string;
}

/** The record tables whose rows are found by id (uuid), with the column of the time each sorts at. */
const RECORD_TIMES = {
  sleep_session: Prisma.sql`SELECT user_id, bedtime_start AS time FROM sleep_sessions`,
  workout: Prisma.sql`SELECT user_id, start_date AS time FROM workouts`,
  // A daily summary sorts at midnight UTC of its date.
  daily_summary: Prisma.sql`SELECT user_id, date::timestamp AT TIME ZONE 'UTC' AS time FROM daily_summaries`,
  ecg_recording: Prisma.sql`SELECT user_id, start_date AS time FROM ecg_recordings`,
  nutrition_log: Prisma.sql`SELECT user_id, start_date AS time FROM nutrition_logs`,
} as const;

export type LocatableRecordKind = keyof typeof RECORD_TIMES;

/**
 * A record of any user by its id (the index on id alone, for a FHIR read that names no user);
 * null when there is none. The caller checks that the user may be read.
 */
export async function locateRecord(db: DbClient, kind: LocatableRecordKind, id: string): Promise<LocatedRecord | null> {
  const rows = await db.$queryRaw<Array<{ user_id: string; time: Date }>>`${RECORD_TIMES[kind]} WHERE id = ${id}::uuid LIMIT 1`;
  const row = rows[0];
  return row ? { userId: row.user_id, time: row.time } : null;
}

/**
 * A quantity sample of any user by its id (null when there is none): a sample stored since the
 * upgrade to chunks is slot `id % 8192` of chunk `id / 8192` (index on chunk_id); one stored
 * before keeps its old id, in the legacy table until the job data-moves moves it, then in
 * its chunk's legacy_ids (partial GIN index).
 */
export async function locateSample(db: DbClient, id: bigint): Promise<LocatedSample | null> {
  const chunkId = id / BigInt(SLOTS_PER_CHUNK);
  const slot = Number(id % BigInt(SLOTS_PER_CHUNK)) + 1;
  const rows = await db.$queryRaw<Array<{ user_id: string; type: string; time: Date }>>`
    (SELECT c.user_id, s.type, c.hour + c.start_offsets[${slot}::int] * interval '1 millisecond' AS time
     FROM quantity_sample_chunks c
     JOIN quantity_sample_series s ON s.user_id = c.user_id AND s.id = c.series_id
     WHERE c.chunk_id = ${chunkId} AND c.sample_values[${slot}::int] IS NOT NULL
       AND (c.legacy_ids IS NULL OR c.legacy_ids[${slot}::int] IS NULL))
    UNION ALL
    (SELECT c.user_id, s.type, c.hour + c.start_offsets[p.slot] * interval '1 millisecond' AS time
     FROM quantity_sample_chunks c
     JOIN quantity_sample_series s ON s.user_id = c.user_id AND s.id = c.series_id
     CROSS JOIN LATERAL (SELECT array_position(c.legacy_ids, ${id}::bigint) AS slot) p
     WHERE c.legacy_ids IS NOT NULL AND c.legacy_ids @> ARRAY[${id}::bigint] AND c.sample_values[p.slot] IS NOT NULL)
    UNION ALL
    (SELECT user_id, type, start_date AS time FROM quantity_samples_legacy WHERE id = ${id})
    LIMIT 1`;
  const row = rows[0];
  return row ? { userId: row.user_id, type: row.type, time: row.time } : null;
}
