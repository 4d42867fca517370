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
  sleep_session: { table: "sleep_sessions", time: "bedtime_start" },
  workout: { table: "workouts", time: "start_date" },
  daily_summary: { table: "daily_summaries", time: "date" },
  ecg_recording: { table: "ecg_recordings", time: "start_date" },
  nutrition_log: { table: "nutrition_logs", time: "start_date" },
} as const;

export type LocatableRecordKind = keyof typeof RECORD_TIMES;

/** A kind's time column (or an aggregate of it) as the instant it sorts at: a daily summary sorts at midnight UTC of its date. */
const asInstant = (kind: LocatableRecordKind, time: Prisma.Sql): Prisma.Sql => (kind === "daily_summary" ? Prisma.sql`(${time})::timestamp AT TIME ZONE 'UTC'` : time);

/**
 * A record of any user by its id (the index on id alone, for a FHIR read that names no user);
 * null when there is none. The caller checks that the user may be read.
 */
export async function locateRecord(db: DbClient, kind: LocatableRecordKind, id: string): Promise<LocatedRecord | null> {
  const { table, time } = RECORD_TIMES[kind];
  const rows = await db.$queryRaw<Array<{ user_id: string; time: Date }>>`
    SELECT user_id, ${asInstant(kind, Prisma.raw(time))} AS time FROM ${Prisma.raw(table)} WHERE id = ${id}::uuid LIMIT 1`;
  const row = rows[0];
  return row ? { userId: row.user_id, time: row.time } : null;
}

/** When a user's latest records sort: per record kind asked, and per type of quantity sample. */
export interface LatestRecordTimes {
  records: Partial<Record<LocatableRecordKind, Date>>;
  /** At or after the latest sample of each type (quantity_sample_streams only ever widen). */
  sampleTypes: Map<string, Date>;
}

/**
 * The time the user's latest record of each asked kind sorts at (a backward step of each table's
 * index on user and time), and the end of its streams of each sample type, in one statement.
 */
export async function findLatestRecordTimes(db: DbClient, userId: string, kinds: readonly LocatableRecordKind[]): Promise<LatestRecordTimes> {
  const latest = kinds.map((kind) => {
    const { table, time } = RECORD_TIMES[kind];
    const max = Prisma.sql`(SELECT max(${Prisma.raw(time)}) FROM ${Prisma.raw(table)} WHERE user_id = ${userId}::uuid)`;
    return Prisma.sql`${kind}::text, ${asInstant(kind, max)}`;
  });
  const [row] = await db.$queryRaw<Array<{ records: Record<string, string | null> | null; sample_types: Array<{ type: string; last: string }> }>>`
    SELECT ${latest.length > 0 ? Prisma.sql`json_build_object(${Prisma.join(latest, ", ")})` : Prisma.sql`NULL::json`} AS records,
      (SELECT coalesce(json_agg(json_build_object('type', type, 'last', last)), '[]'::json)
       FROM (SELECT type, max(last_start) AS last FROM quantity_sample_streams WHERE user_id = ${userId}::uuid GROUP BY type) t) AS sample_types`;
  const records: LatestRecordTimes["records"] = {};
  for (const [kind, time] of Object.entries(row?.records ?? {})) if (time !== null) records[kind as LocatableRecordKind] = new Date(time);
  return { records, sampleTypes: new Map((row?.sample_types ?? []).map(({ type, last }) => [type, new Date(last)])) };
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
