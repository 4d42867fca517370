import { Prisma } from "@svc/db";
import type { DbClient } from "../../platform/index.ts";
import { mergeConditions, rankOfRecord, streamsCte, type MergeTable, type SqlStream } from "../merge/merge-sql-repository.ts";
import { notTombstoned } from "../tombstone-repository.ts";
import type { AfterTimeUuid, TimePageQuery } from "../record-cursors.ts";
import type { RecordPage } from "../record-pages-repository.ts";

/** A normalized sleep session ready to store (totals already derived from phases where missing). */
export interface SleepSessionWrite {
  kind: string;
  bedtimeStart: Date;
  bedtimeEnd: Date;
  timezone: string | null;
  totalSleepSeconds: number | null;
  awakeSeconds: number | null;
  lightSeconds: number | null;
  deepSeconds: number | null;
  remSeconds: number | null;
  latencySeconds: number | null;
  efficiency: number | null;
  score: number | null;
  averageHeartRate: number | null;
  lowestHeartRate: number | null;
  averageHrv: number | null;
  respiratoryRate: number | null;
  sourceName: string | null;
  externalId: string | null;
  metadata: Record<string, unknown>;
  source: string | null;
  sourceKey: string;
  device: string | null;
  onBody: boolean;
  dedupeKey: string;
}

export interface SleepSessionRow {
  id: string;
  kind: string;
  bedtime_start: Date;
  bedtime_end: Date;
  timezone: string | null;
  total_sleep_seconds: number | null;
  awake_seconds: number | null;
  light_seconds: number | null;
  deep_seconds: number | null;
  rem_seconds: number | null;
  latency_seconds: number | null;
  efficiency: number | null;
  score: number | null;
  average_heart_rate: number | null;
  lowest_heart_rate: number | null;
  average_hrv: number | null;
  respiratory_rate: number | null;
  source_name: string | null;
  external_id: string | null;
  metadata: Record<string, unknown>;
  provider: string;
  source: string | null;
  device: string | null;
  ingested_at: Date;
  outranked?: Array<{ provider: string; source: string }>;
}

const SESSION_COLUMNS = Prisma.sql`s.id, s.kind, s.bedtime_start, s.bedtime_end, s.timezone, s.total_sleep_seconds,
  s.awake_seconds, s.light_seconds, s.deep_seconds, s.rem_seconds, s.latency_seconds, s.efficiency, s.score,
  s.average_heart_rate, s.lowest_heart_rate, s.average_hrv, s.respiratory_rate, s.source_name, s.external_id,
  s.metadata, s.provider, s.source, s.device, s.ingested_at`;

/** All sleep sessions (sleep and naps) of a user are one metric, `sleep_session`. */
export const SLEEP_TABLE: MergeTable = { table: "sleep_sessions", start: "bedtime_start", end: "bedtime_end", sameMetric: [] };

/**
 * Inserts new sessions and updates stored ones whose details changed; a session the
 * provider deleted (tombstone) is not stored again. The batch must hold each dedupe key
 * once. Returns the inserted and updated rows, and the id of every stored session of the
 * batch by dedupe key (changed or not).
 */
export async function upsertSleepSessions(
  db: DbClient,
  batch: { userId: string; provider: string; rawObjectId: string | null },
  sessions: readonly SleepSessionWrite[],
): Promise<{ changed: Array<{ id: string; inserted: boolean; bedtime_start: Date; bedtime_end: Date }>; ids: Map<string, string> }> {
  if (sessions.length === 0) return { changed: [], ids: new Map() };
  const column = <K extends keyof SleepSessionWrite>(key: K) => sessions.map((s) => s[key]);
  const changed = await db.$queryRaw<Array<{ id: string; inserted: boolean; bedtime_start: Date; bedtime_end: Date }>>`
    INSERT INTO sleep_sessions AS q (id, user_id, provider, raw_object_id, kind, bedtime_start, bedtime_end, timezone,
      total_sleep_seconds, awake_seconds, light_seconds, deep_seconds, rem_seconds, latency_seconds, efficiency, score,
      average_heart_rate, lowest_heart_rate, average_hrv, respiratory_rate, source_name, external_id, metadata,
      source, source_key, device, on_body, dedupe_key)
    SELECT gen_random_uuid(), ${batch.userId}::uuid, ${batch.provider}, ${batch.rawObjectId}::uuid, n.*
    FROM unnest(${column("kind")}::text[], ${column("bedtimeStart")}::timestamptz[], ${column("bedtimeEnd")}::timestamptz[],
      ${column("timezone")}::text[], ${column("totalSleepSeconds")}::int[], ${column("awakeSeconds")}::int[],
      ${column("lightSeconds")}::int[], ${column("deepSeconds")}::int[], ${column("remSeconds")}::int[],
      ${column("latencySeconds")}::int[], ${column("efficiency")}::float8[], ${column("score")}::float8[],
      ${column("averageHeartRate")}::float8[], ${column("lowestHeartRate")}::float8[], ${column("averageHrv")}::float8[],
      ${column("respiratoryRate")}::float8[], ${column("sourceName")}::text[], ${column("externalId")}::text[],
      ${sessions.map((s) => JSON.stringify(s.metadata))}::jsonb[], ${column("source")}::text[], ${column("sourceKey")}::text[],
      ${column("device")}::text[], ${column("onBody")}::boolean[], ${column("dedupeKey")}::text[])
      AS n(kind, bedtime_start, bedtime_end, timezone, total_sleep_seconds, awake_seconds, light_seconds, deep_seconds,
        rem_seconds, latency_seconds, efficiency, score, average_heart_rate, lowest_heart_rate, average_hrv,
        respiratory_rate, source_name, external_id, metadata, source, source_key, device, on_body, dedupe_key)
    WHERE ${notTombstoned(batch, "sleep_session")}
    ON CONFLICT (user_id, provider, dedupe_key) DO UPDATE SET
      kind = excluded.kind, bedtime_start = excluded.bedtime_start, bedtime_end = excluded.bedtime_end,
      timezone = excluded.timezone, total_sleep_seconds = excluded.total_sleep_seconds,
      awake_seconds = excluded.awake_seconds, light_seconds = excluded.light_seconds,
      deep_seconds = excluded.deep_seconds, rem_seconds = excluded.rem_seconds,
      latency_seconds = excluded.latency_seconds, efficiency = excluded.efficiency, score = excluded.score,
      average_heart_rate = excluded.average_heart_rate, lowest_heart_rate = excluded.lowest_heart_rate,
      average_hrv = excluded.average_hrv, respiratory_rate = excluded.respiratory_rate,
      source_name = excluded.source_name, external_id = excluded.external_id, metadata = excluded.metadata,
      source = excluded.source, source_key = excluded.source_key, device = excluded.device, on_body = excluded.on_body,
      raw_object_id = excluded.raw_object_id, ingested_at = now()
    WHERE (q.kind, q.bedtime_start, q.bedtime_end, q.timezone, q.total_sleep_seconds, q.awake_seconds, q.light_seconds,
        q.deep_seconds, q.rem_seconds, q.latency_seconds, q.efficiency, q.score, q.average_heart_rate,
        q.lowest_heart_rate, q.average_hrv, q.respiratory_rate, q.source_name, q.external_id, q.metadata, q.source,
        q.device, q.on_body)
      IS DISTINCT FROM (excluded.kind, excluded.bedtime_start, excluded.bedtime_end, excluded.timezone,
        excluded.total_sleep_seconds, excluded.awake_seconds, excluded.light_seconds, excluded.deep_seconds,
        excluded.rem_seconds, excluded.latency_seconds, excluded.efficiency, excluded.score,
        excluded.average_heart_rate, excluded.lowest_heart_rate, excluded.average_hrv, excluded.respiratory_rate,
        excluded.source_name, excluded.external_id, excluded.metadata, excluded.source, excluded.device,
        excluded.on_body)
    RETURNING q.id, (xmax = 0) AS inserted, q.bedtime_start, q.bedtime_end`;
  const stored = await db.$queryRaw<Array<{ id: string; dedupe_key: string }>>`
    SELECT id, dedupe_key FROM sleep_sessions
    WHERE user_id = ${batch.userId}::uuid AND provider = ${batch.provider} AND dedupe_key = ANY(${column("dedupeKey")}::text[])`;
  return { changed, ids: new Map(stored.map((row) => [row.dedupe_key, row.id])) };
}

export type SleepPageQuery = TimePageQuery<AfterTimeUuid>;

function sessionFilters(q: SleepPageQuery): Prisma.Sql {
  const parts = [Prisma.sql`s.user_id = ${q.userId}::uuid`];
  if (q.start) parts.push(Prisma.sql`s.bedtime_start >= ${q.start}`);
  if (q.end) parts.push(Prisma.sql`s.bedtime_start < ${q.end}`);
  if (q.after) parts.push(Prisma.sql`(s.bedtime_start, s.id) > (${q.after.t}, ${q.after.id}::uuid)`);
  return Prisma.join(parts, " AND ");
}

/** One page of sessions ordered by bedtime_start then id; one row more than `limit`. */
export function selectSleepSessions(db: DbClient, q: SleepPageQuery): Promise<SleepSessionRow[]> {
  return db.$queryRaw<SleepSessionRow[]>(sleepSessionsPage(q).sql);
}

/** One page of the merged view: sessions match when they share at least half of the shorter one. */
export function selectMergedSleepSessions(db: DbClient, q: SleepPageQuery, streams: readonly SqlStream[]): Promise<SleepSessionRow[]> {
  const page = mergedSleepSessionsPage(q, streams);
  return page ? db.$queryRaw<SleepSessionRow[]>(page.sql) : Promise.resolve([]);
}

/** The times of a session row, and its order (record-pages-repository.ts reads pages as JSON). */
const SESSION_PAGE = { times: ["bedtime_start", "bedtime_end", "ingested_at"], order: ["bedtime_start", "id"] } as const;

/** The statement of selectSleepSessions. */
export function sleepSessionsPage(q: SleepPageQuery): RecordPage<SleepSessionRow> {
  return {
    ...SESSION_PAGE,
    sql: Prisma.sql`
      SELECT ${SESSION_COLUMNS} FROM sleep_sessions s
      WHERE ${sessionFilters(q)}
      ORDER BY s.bedtime_start, s.id
      LIMIT ${q.limit + 1}`,
  };
}

/** The statement of selectMergedSleepSessions; none without streams (no sessions). */
export function mergedSleepSessionsPage(q: SleepPageQuery, streams: readonly SqlStream[]): RecordPage<SleepSessionRow> | null {
  if (streams.length === 0) return null;
  const merge = mergeConditions(SLEEP_TABLE, "sessions");
  return {
    ...SESSION_PAGE,
    sql: Prisma.sql`
      WITH ${streamsCte(streams)}
      SELECT ${SESSION_COLUMNS}, ${merge.outranked} AS outranked
      FROM sleep_sessions s
      ${rankOfRecord()}
      WHERE ${sessionFilters(q)} AND ${merge.keep}
      ORDER BY s.bedtime_start, s.id
      LIMIT ${q.limit + 1}`,
  };
}

/** The session if it belongs to the user, else null. */
export function findSleepSessionOfUser(db: DbClient, userId: string, sessionId: string) {
  return db.sleepSession.findFirst({ where: { id: sessionId, userId }, select: { id: true } });
}
