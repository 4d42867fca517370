import { Prisma } from "@svc/db";
import type { DbClient } from "../../platform/index.ts";
import { notTombstoned } from "../tombstone-repository.ts";
import type { AfterTimeUuid, TimePageQuery } from "../record-cursors.ts";
import type { RecordPage } from "../record-pages-repository.ts";

/** A normalized ECG recording ready to store (its voltages are stored separately). */
export interface EcgRecordingWrite {
  startDate: Date;
  endDate: Date;
  classification: string | null;
  averageHeartRate: number | null;
  samplingFrequencyHz: number;
  leadName: string | null;
  sampleCount: number;
  symptoms: string[];
  sourceName: string | null;
  externalId: string | null;
  metadata: Record<string, unknown>;
  source: string | null;
  sourceKey: string;
  device: string | null;
  onBody: boolean;
  dedupeKey: string;
}

export interface EcgRecordingRow {
  id: string;
  start_date: Date;
  end_date: Date;
  classification: string | null;
  average_heart_rate: number | null;
  sampling_frequency_hz: number;
  lead_name: string | null;
  sample_count: number;
  symptoms: string[] | null;
  source_name: string | null;
  external_id: string | null;
  metadata: Record<string, unknown>;
  provider: string;
  source: string | null;
  device: string | null;
  ingested_at: Date;
}

/**
 * Upserts recordings by (user, provider, dedupe key), writing only changed ones; a
 * recording the provider deleted (tombstone) is not stored again. Returns the id of every
 * stored recording of the batch with whether it was inserted or updated. The batch must
 * hold each dedupe key once.
 */
export function upsertEcgRecordings(
  db: DbClient,
  batch: { userId: string; provider: string; rawObjectId: string | null },
  recordings: readonly EcgRecordingWrite[],
): Promise<Array<{ id: string; dedupe_key: string; inserted: boolean; changed: boolean }>> {
  if (recordings.length === 0) return Promise.resolve([]);
  const column = <K extends keyof EcgRecordingWrite>(key: K) => recordings.map((r) => r[key]);
  return db.$queryRaw`
    WITH n AS (
      SELECT n.start_date, n.end_date, n.classification, n.average_heart_rate, n.sampling_frequency_hz, n.lead_name,
        n.sample_count, ARRAY(SELECT jsonb_array_elements_text(n.symptoms)) AS symptoms, n.source_name, n.external_id,
        n.metadata, n.source, n.source_key, n.device, n.on_body, n.dedupe_key
      FROM unnest(${column("startDate")}::timestamptz[], ${column("endDate")}::timestamptz[],
        ${column("classification")}::text[], ${column("averageHeartRate")}::float8[], ${column("samplingFrequencyHz")}::float8[],
        ${column("leadName")}::text[], ${column("sampleCount")}::int[], ${recordings.map((r) => JSON.stringify(r.symptoms))}::jsonb[],
        ${column("sourceName")}::text[], ${column("externalId")}::text[], ${recordings.map((r) => JSON.stringify(r.metadata))}::jsonb[],
        ${column("source")}::text[], ${column("sourceKey")}::text[], ${column("device")}::text[], ${column("onBody")}::boolean[],
        ${column("dedupeKey")}::text[])
        AS n(start_date, end_date, classification, average_heart_rate, sampling_frequency_hz, lead_name, sample_count,
          symptoms, source_name, external_id, metadata, source, source_key, device, on_body, dedupe_key)
    ), written AS (
      INSERT INTO ecg_recordings AS q (id, user_id, provider, raw_object_id, start_date, end_date, classification,
        average_heart_rate, sampling_frequency_hz, lead_name, sample_count, symptoms, source_name, external_id, metadata,
        source, source_key, device, on_body, dedupe_key)
      SELECT gen_random_uuid(), ${batch.userId}::uuid, ${batch.provider}, ${batch.rawObjectId}::uuid, n.* FROM n
      WHERE ${notTombstoned(batch, "ecg_recording")}
      ON CONFLICT (user_id, provider, dedupe_key) DO UPDATE SET
        start_date = excluded.start_date, end_date = excluded.end_date, classification = excluded.classification,
        average_heart_rate = excluded.average_heart_rate, sampling_frequency_hz = excluded.sampling_frequency_hz,
        lead_name = excluded.lead_name, sample_count = excluded.sample_count, symptoms = excluded.symptoms,
        source_name = excluded.source_name, external_id = excluded.external_id, metadata = excluded.metadata,
        source = excluded.source, source_key = excluded.source_key, device = excluded.device, on_body = excluded.on_body,
        raw_object_id = excluded.raw_object_id, ingested_at = now()
      WHERE (q.start_date, q.end_date, q.classification, q.average_heart_rate, q.sampling_frequency_hz, q.lead_name,
          q.sample_count, q.symptoms, q.source_name, q.external_id, q.metadata, q.source, q.device, q.on_body)
        IS DISTINCT FROM (excluded.start_date, excluded.end_date, excluded.classification, excluded.average_heart_rate,
          excluded.sampling_frequency_hz, excluded.lead_name, excluded.sample_count, excluded.symptoms,
          excluded.source_name, excluded.external_id, excluded.metadata, excluded.source, excluded.device, excluded.on_body)
      RETURNING q.id, q.dedupe_key, (xmax = 0) AS inserted
    )
    SELECT id, dedupe_key, inserted, true AS changed FROM written
    UNION ALL
    SELECT e.id, e.dedupe_key, false, false FROM ecg_recordings e JOIN n ON n.dedupe_key = e.dedupe_key
    WHERE e.user_id = ${batch.userId}::uuid AND e.provider = ${batch.provider}
      AND NOT EXISTS (SELECT 1 FROM written w WHERE w.dedupe_key = e.dedupe_key)`;
}

/** Marks a recording as updated now (when only its voltages changed). */
export async function touchEcgRecording(db: DbClient, userId: string, recordingId: string): Promise<void> {
  await db.$executeRaw`UPDATE ecg_recordings SET ingested_at = now() WHERE user_id = ${userId}::uuid AND id = ${recordingId}::uuid`;
}

/** Stores a recording's voltages (microvolts, in order); writes only when they changed. */
export async function upsertEcgVoltages(db: DbClient, userId: string, recordingId: string, microvolts: readonly number[]): Promise<boolean> {
  const written = await db.$executeRaw`
    INSERT INTO ecg_voltages AS v (user_id, recording_id, microvolts) VALUES (${userId}::uuid, ${recordingId}::uuid, ${[...microvolts]}::float8[])
    ON CONFLICT (user_id, recording_id) DO UPDATE SET microvolts = excluded.microvolts
    WHERE v.microvolts IS DISTINCT FROM excluded.microvolts`;
  return written > 0;
}

const RECORDING_COLUMNS = Prisma.sql`e.id, e.start_date, e.end_date, e.classification, e.average_heart_rate,
  e.sampling_frequency_hz, e.lead_name, e.sample_count, e.symptoms, e.source_name, e.external_id, e.metadata,
  e.provider, e.source, e.device, e.ingested_at`;

export type EcgPageQuery = TimePageQuery<AfterTimeUuid>;

/** One page of a user's recordings (without voltages) by (start_date, id); one row more than `limit`. */
export function selectEcgRecordings(db: DbClient, q: EcgPageQuery): Promise<EcgRecordingRow[]> {
  return db.$queryRaw<EcgRecordingRow[]>(ecgRecordingsPage(q).sql);
}

/** The statement of selectEcgRecordings (record-pages-repository.ts reads pages as JSON). */
export function ecgRecordingsPage(q: EcgPageQuery): RecordPage<EcgRecordingRow> {
  const parts = [Prisma.sql`e.user_id = ${q.userId}::uuid`];
  if (q.start) parts.push(Prisma.sql`e.start_date >= ${q.start}`);
  if (q.end) parts.push(Prisma.sql`e.start_date < ${q.end}`);
  if (q.after) parts.push(Prisma.sql`(e.start_date, e.id) > (${q.after.t}, ${q.after.id}::uuid)`);
  return {
    times: ["start_date", "end_date", "ingested_at"],
    order: ["start_date", "id"],
    sql: Prisma.sql`
      SELECT ${RECORDING_COLUMNS} FROM ecg_recordings e
      WHERE ${Prisma.join(parts, " AND ")}
      ORDER BY e.start_date, e.id
      LIMIT ${q.limit + 1}`,
  };
}

/** One recording of the user with its voltages; undefined when the user has no such recording. */
export async function findEcgRecording(db: DbClient, userId: string, recordingId: string): Promise<(EcgRecordingRow & { microvolts: number[] }) | undefined> {
  const [row] = await db.$queryRaw<Array<EcgRecordingRow & { microvolts: number[] }>>`
    SELECT ${RECORDING_COLUMNS}, coalesce(v.microvolts, '{}') AS microvolts
    FROM ecg_recordings e LEFT JOIN ecg_voltages v ON v.user_id = e.user_id AND v.recording_id = e.id
    WHERE e.user_id = ${userId}::uuid AND e.id = ${recordingId}::uuid`;
  return row;
}

/** The voltages (microvolts) of these recordings of the user, by recording id; a recording without any is missing. */
export async function listEcgVoltages(db: DbClient, userId: string, recordingIds: readonly string[]): Promise<Map<string, number[]>> {
  if (recordingIds.length === 0) return new Map();
  const rows = await db.$queryRaw<Array<{ recording_id: string; microvolts: number[] }>>`
    SELECT recording_id, microvolts FROM ecg_voltages WHERE user_id = ${userId}::uuid AND recording_id = ANY(${recordingIds}::uuid[])`;
  return new Map(rows.map((row) => [row.recording_id, row.microvolts]));
}
