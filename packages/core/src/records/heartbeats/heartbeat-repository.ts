import { Prisma } from "@svc/db";
import type { DbClient } from "../../platform/index.ts";
import { notTombstoned } from "../tombstone-repository.ts";
import type { AfterTimeUuid, TimePageQuery } from "../record-cursors.ts";
import { CHUNK_LAYOUT_CTES, chunksOfPage } from "../row-chunk-repository.ts";
import { chunkLayout } from "../row-chunks.ts";

/** A normalized heartbeat series ready to store (its intervals are stored separately). */
export interface HeartbeatSeriesWrite {
  startDate: Date;
  endDate: Date;
  beatCount: number;
  sourceName: string | null;
  externalId: string | null;
  metadata: Record<string, unknown>;
  source: string | null;
  sourceKey: string;
  device: string | null;
  onBody: boolean;
  dedupeKey: string;
}

export interface RrIntervalWrite {
  timestamp: Date;
  intervalMs: number;
  precededByGap: boolean;
}

export interface HrvResultWrite {
  firstBeatAt: Date;
  lastBeatAt: Date;
  beatCount: number;
  rmssdMs: number | null;
  sdnnMs: number | null;
  pnn50: number | null;
  meanRrMs: number | null;
  meanHeartRate: number | null;
}

/**
 * Upserts series by (user, provider, dedupe key), writing only changed ones; a series the
 * provider deleted (tombstone) is not stored again. Returns the id of every stored series
 * of the batch with whether it was inserted or updated. The batch must hold each dedupe key once.
 */
export function upsertHeartbeatSeries(
  db: DbClient,
  batch: { userId: string; provider: string; rawObjectId: string | null },
  series: readonly HeartbeatSeriesWrite[],
): Promise<Array<{ id: string; dedupe_key: string; inserted: boolean; changed: boolean }>> {
  if (series.length === 0) return Promise.resolve([]);
  const column = <K extends keyof HeartbeatSeriesWrite>(key: K) => series.map((s) => s[key]);
  return db.$queryRaw`
    WITH n AS (
      SELECT * FROM unnest(${column("startDate")}::timestamptz[], ${column("endDate")}::timestamptz[],
        ${column("beatCount")}::int[], ${column("sourceName")}::text[], ${column("externalId")}::text[],
        ${series.map((s) => JSON.stringify(s.metadata))}::jsonb[], ${column("source")}::text[], ${column("sourceKey")}::text[],
        ${column("device")}::text[], ${column("onBody")}::boolean[], ${column("dedupeKey")}::text[])
        AS n(start_date, end_date, beat_count, source_name, external_id, metadata, source, source_key, device, on_body, dedupe_key)
    ), written AS (
      INSERT INTO heartbeat_series AS q (id, user_id, provider, raw_object_id, start_date, end_date, beat_count, source_name,
        external_id, metadata, source, source_key, device, on_body, dedupe_key)
      SELECT gen_random_uuid(), ${batch.userId}::uuid, ${batch.provider}, ${batch.rawObjectId}::uuid, n.* FROM n
      WHERE ${notTombstoned(batch, "heartbeat_series")}
      ON CONFLICT (user_id, provider, dedupe_key) DO UPDATE SET
        start_date = excluded.start_date, end_date = excluded.end_date, beat_count = excluded.beat_count,
        source_name = excluded.source_name, external_id = excluded.external_id, metadata = excluded.metadata,
        source = excluded.source, source_key = excluded.source_key, device = excluded.device, on_body = excluded.on_body,
        raw_object_id = excluded.raw_object_id, ingested_at = now()
      WHERE (q.start_date, q.end_date, q.beat_count, q.source_name, q.external_id, q.metadata, q.source, q.device, q.on_body)
        IS DISTINCT FROM (excluded.start_date, excluded.end_date, excluded.beat_count, excluded.source_name,
          excluded.external_id, excluded.metadata, excluded.source, excluded.device, excluded.on_body)
      RETURNING q.id, q.dedupe_key, (xmax = 0) AS inserted
    )
    SELECT id, dedupe_key, inserted, true AS changed FROM written
    UNION ALL
    SELECT h.id, h.dedupe_key, false, false FROM heartbeat_series h JOIN n ON n.dedupe_key = h.dedupe_key
    WHERE h.user_id = ${batch.userId}::uuid AND h.provider = ${batch.provider}
      AND NOT EXISTS (SELECT 1 FROM written w WHERE w.dedupe_key = h.dedupe_key)`;
}

/** Marks a series as updated now (when only its intervals changed). */
export async function touchHeartbeatSeries(db: DbClient, seriesId: string, userId: string): Promise<void> {
  await db.$executeRaw`UPDATE heartbeat_series SET ingested_at = now() WHERE user_id = ${userId}::uuid AND id = ${seriesId}::uuid`;
}

/** The intervals of the chunks (aliased `c`) that meet `where`: (timestamp, interval_ms, preceded_by_gap, user_id, series_id). */
const intervalsOf = (where: Prisma.Sql) => Prisma.sql`
  SELECT c.first_at + o.offset_ms * interval '1 ms' AS timestamp, o.interval_ms, o.preceded_by_gap, c.user_id, c.series_id
  FROM rr_interval_chunks c, unnest(c.offsets_ms, c.interval_ms, c.preceded_by_gap) AS o(offset_ms, interval_ms, preceded_by_gap)
  WHERE ${where}`;

/**
 * Taken by every transaction that writes a user's RR intervals or moves their legacy rows
 * (row-chunk-move.ts), before it locks any heartbeat series row.
 */
export async function lockUserRrIntervals(db: DbClient, userId: string): Promise<void> {
  await db.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended('rr_intervals:' || ${userId}, 0))`;
}

/** The first series (by user and series id) with intervals left in rr_intervals_legacy, or null when none is. */
export async function nextLegacyRrSeries(db: DbClient): Promise<{ userId: string; seriesId: string } | null> {
  const [row] = await db.$queryRaw<Array<{ user_id: string; series_id: string }>>`
    SELECT user_id, series_id FROM rr_intervals_legacy ORDER BY user_id, series_id, timestamp LIMIT 1`;
  return row ? { userId: row.user_id, seriesId: row.series_id } : null;
}

/**
 * Moves a series' intervals from rr_intervals_legacy into chunks laid out as chunkLayout lays
 * them out (the SQL of the first text of the migration *_grouped_rr_and_route_points, for one
 * series); returns how many it moved. Call after lockUserRrIntervals.
 */
export async function moveLegacyRrIntervals(db: DbClient, userId: string, seriesId: string): Promise<number> {
  const [row] = await db.$queryRaw<Array<{ moved: number }>>`
    WITH moved AS (
      DELETE FROM rr_intervals_legacy WHERE user_id = ${userId}::uuid AND series_id = ${seriesId}::uuid
      RETURNING timestamp, interval_ms, preceded_by_gap
    ), ${CHUNK_LAYOUT_CTES}, inserted AS (
      INSERT INTO rr_interval_chunks (user_id, series_id, chunk_no, first_at, last_at, interval_count, offsets_ms, interval_ms, preceded_by_gap)
      SELECT ${userId}::uuid, ${seriesId}::uuid, d.chunk_no, d.first_at, max(d.timestamp), count(*)::int,
        array_agg((extract(epoch FROM d.timestamp - d.first_at) * 1000)::int ORDER BY d.timestamp),
        array_agg(d.interval_ms ORDER BY d.timestamp), array_agg(d.preceded_by_gap ORDER BY d.timestamp)
      FROM dated d
      GROUP BY d.chunk_no, d.first_at
      RETURNING interval_count
    )
    SELECT coalesce(sum(interval_count), 0)::int AS moved FROM inserted`;
  return row?.moved ?? 0;
}

/**
 * Replaces a series' intervals (one per timestamp) when they differ from the stored ones;
 * returns whether they did. They are stored in chunks (records/row-chunks.ts).
 */
export async function replaceRrIntervals(db: DbClient, seriesId: string, userId: string, intervals: readonly RrIntervalWrite[]): Promise<boolean> {
  const ordered = [...intervals].sort((a, b) => a.timestamp.getTime() - b.timestamp.getTime());
  const timestamps = ordered.map((i) => i.timestamp);
  const values = ordered.map((i) => i.intervalMs);
  const gaps = ordered.map((i) => i.precededByGap);
  const [diff] = await db.$queryRaw<Array<{ differs: boolean }>>`
    WITH n AS (
      SELECT * FROM unnest(${timestamps}::timestamptz[], ${values}::float8[], ${gaps}::boolean[]) AS n(timestamp, interval_ms, preceded_by_gap)
    ), stored AS (
      SELECT timestamp, interval_ms, preceded_by_gap FROM (${intervalsOf(Prisma.sql`c.user_id = ${userId}::uuid AND c.series_id = ${seriesId}::uuid`)}) s
    )
    SELECT EXISTS (SELECT * FROM n EXCEPT SELECT * FROM stored) OR EXISTS (SELECT * FROM stored EXCEPT SELECT * FROM n) AS differs`;
  if (!diff?.differs) return false;
  await db.$executeRaw`DELETE FROM rr_interval_chunks WHERE user_id = ${userId}::uuid AND series_id = ${seriesId}::uuid`;
  const { chunkNos, offsetsMs } = chunkLayout(timestamps);
  await db.$executeRaw`
    INSERT INTO rr_interval_chunks (user_id, series_id, chunk_no, first_at, last_at, interval_count, offsets_ms, interval_ms, preceded_by_gap)
    SELECT ${userId}::uuid, ${seriesId}::uuid, n.chunk_no, min(n.timestamp), max(n.timestamp), count(*)::int,
      array_agg(n.offset_ms ORDER BY n.ord), array_agg(n.interval_ms ORDER BY n.ord), array_agg(n.preceded_by_gap ORDER BY n.ord)
    FROM unnest(${chunkNos}::int[], ${offsetsMs}::int[], ${timestamps}::timestamptz[], ${values}::float8[], ${gaps}::boolean[])
      WITH ORDINALITY AS n(chunk_no, offset_ms, timestamp, interval_ms, preceded_by_gap, ord)
    GROUP BY n.chunk_no`;
  return true;
}

/** Stores a series' HRV figures; writes (and stamps computed_at) only when they changed. */
export async function upsertHrvResult(db: DbClient, seriesId: string, userId: string, hrv: HrvResultWrite): Promise<boolean> {
  const written = await db.$executeRaw`
    INSERT INTO hrv_results AS h (series_id, user_id, first_beat_at, last_beat_at, beat_count, rmssd_ms, sdnn_ms, pnn50,
      mean_rr_ms, mean_heart_rate)
    VALUES (${seriesId}::uuid, ${userId}::uuid, ${hrv.firstBeatAt}, ${hrv.lastBeatAt}, ${hrv.beatCount}, ${hrv.rmssdMs}::float8,
      ${hrv.sdnnMs}::float8, ${hrv.pnn50}::float8, ${hrv.meanRrMs}::float8, ${hrv.meanHeartRate}::float8)
    ON CONFLICT (user_id, series_id) DO UPDATE SET
      first_beat_at = excluded.first_beat_at, last_beat_at = excluded.last_beat_at, beat_count = excluded.beat_count,
      rmssd_ms = excluded.rmssd_ms, sdnn_ms = excluded.sdnn_ms, pnn50 = excluded.pnn50, mean_rr_ms = excluded.mean_rr_ms,
      mean_heart_rate = excluded.mean_heart_rate, computed_at = now()
    WHERE (h.first_beat_at, h.last_beat_at, h.beat_count, h.rmssd_ms, h.sdnn_ms, h.pnn50, h.mean_rr_ms, h.mean_heart_rate)
      IS DISTINCT FROM (excluded.first_beat_at, excluded.last_beat_at, excluded.beat_count, excluded.rmssd_ms,
        excluded.sdnn_ms, excluded.pnn50, excluded.mean_rr_ms, excluded.mean_heart_rate)`;
  return written > 0;
}

const SERIES_PROVENANCE = Prisma.sql`h.provider, h.source, h.device, h.ingested_at`;

export interface RrIntervalRow {
  series_id: string;
  timestamp: Date;
  interval_ms: number;
  preceded_by_gap: boolean;
  provider: string;
  source: string | null;
  device: string | null;
  ingested_at: Date;
}

export interface HeartbeatPageQuery<After> extends TimePageQuery<After> {
  seriesId?: string | undefined;
}

/** Conditions on RR intervals under the alias `r` (columns as intervalsOf names them): a page's window and cursor. */
function pageRows(q: HeartbeatPageQuery<AfterTimeUuid>, r: Prisma.Sql): Prisma.Sql {
  const rows = [Prisma.sql`true`];
  if (q.start) rows.push(Prisma.sql`${r}.timestamp >= ${q.start}`);
  if (q.end) rows.push(Prisma.sql`${r}.timestamp < ${q.end}`);
  if (q.after) rows.push(Prisma.sql`(${r}.timestamp, ${r}.series_id) > (${q.after.t}, ${q.after.id}::uuid)`);
  return Prisma.join(rows, " AND ");
}

/**
 * One page of a user's RR intervals by (timestamp, series id); one row more than `limit`.
 * Unnests only the chunks the page needs (row-chunk-repository.ts), and adds the intervals not
 * yet moved out of rr_intervals_legacy (an index probe when the user has none).
 */
export async function listRrIntervals(db: DbClient, q: HeartbeatPageQuery<AfterTimeUuid>): Promise<RrIntervalRow[]> {
  const owner = [Prisma.sql`c.user_id = ${q.userId}::uuid`];
  if (q.seriesId) owner.push(Prisma.sql`c.series_id = ${q.seriesId}::uuid`);
  const chunks = await chunksOfPage(db, "rr_interval_chunks", { ...q, chunksOf: Prisma.join(owner, " AND "), after: q.after?.t });
  const legacy = [Prisma.sql`l.user_id = ${q.userId}::uuid`, pageRows(q, Prisma.raw("l"))];
  if (q.seriesId) legacy.push(Prisma.sql`l.series_id = ${q.seriesId}::uuid`);
  // Redundant with the cursor's condition, but a range on the index (user_id, timestamp, id).
  if (q.after) legacy.push(Prisma.sql`l.timestamp >= ${q.after.t}`);
  return db.$queryRaw<RrIntervalRow[]>`
    SELECT r.series_id, r.timestamp, r.interval_ms, r.preceded_by_gap, ${SERIES_PROVENANCE}
    FROM (
      SELECT * FROM (${intervalsOf(chunks)}) k WHERE ${pageRows(q, Prisma.raw("k"))}
      UNION ALL
      (SELECT l.timestamp, l.interval_ms, l.preceded_by_gap, l.user_id, l.series_id FROM rr_intervals_legacy l
       WHERE ${Prisma.join(legacy, " AND ")}
       ORDER BY l.timestamp, l.series_id
       LIMIT ${q.limit + 1})
    ) r
    JOIN heartbeat_series h ON h.user_id = r.user_id AND h.id = r.series_id
    ORDER BY r.timestamp, r.series_id
    LIMIT ${q.limit + 1}`;
}

export interface HrvResultRow {
  series_id: string;
  first_beat_at: Date;
  last_beat_at: Date;
  beat_count: number;
  rmssd_ms: number | null;
  sdnn_ms: number | null;
  pnn50: number | null;
  mean_rr_ms: number | null;
  mean_heart_rate: number | null;
  provider: string;
  source: string | null;
  device: string | null;
  ingested_at: Date;
}

/** One page of a user's HRV results by (first beat, series id); one row more than `limit`. */
export function listHrvResults(db: DbClient, q: HeartbeatPageQuery<AfterTimeUuid>): Promise<HrvResultRow[]> {
  const parts = [Prisma.sql`v.user_id = ${q.userId}::uuid`];
  if (q.seriesId) parts.push(Prisma.sql`v.series_id = ${q.seriesId}::uuid`);
  if (q.start) parts.push(Prisma.sql`v.first_beat_at >= ${q.start}`);
  if (q.end) parts.push(Prisma.sql`v.first_beat_at < ${q.end}`);
  if (q.after) parts.push(Prisma.sql`(v.first_beat_at, v.series_id) > (${q.after.t}, ${q.after.id}::uuid)`);
  return db.$queryRaw<HrvResultRow[]>`
    SELECT v.series_id, v.first_beat_at, v.last_beat_at, v.beat_count, v.rmssd_ms, v.sdnn_ms, v.pnn50, v.mean_rr_ms,
      v.mean_heart_rate, ${SERIES_PROVENANCE}
    FROM hrv_results v JOIN heartbeat_series h ON h.user_id = v.user_id AND h.id = v.series_id
    WHERE ${Prisma.join(parts, " AND ")}
    ORDER BY v.first_beat_at, v.series_id
    LIMIT ${q.limit + 1}`;
}
