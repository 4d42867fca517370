import { Prisma } from "@svc/db";
import type { DbClient } from "../../platform/index.ts";
import { rankOfRecord, streamsCte, type SqlStream } from "../merge/merge-sql-repository.ts";
import type { RecordPage } from "../record-pages-repository.ts";

/** The figures of a day, as stored (null when not known). */
export interface DailyFigures {
  steps: number | null;
  distanceMeters: number | null;
  activeEnergyKcal: number | null;
  totalEnergyKcal: number | null;
  floorsClimbed: number | null;
  activeSeconds: number | null;
  restingHeartRate: number | null;
  averageHeartRate: number | null;
  hrvRmssd: number | null;
  sleepSeconds: number | null;
  score: number | null;
}

/** A normalized daily summary ready to store. */
export interface DailySummaryWrite extends DailyFigures {
  /** Local date, YYYY-MM-DD. */
  date: string;
  timezone: string | null;
  metadata: Record<string, unknown>;
  source: string | null;
  sourceKey: string;
  device: string | null;
  onBody: boolean;
}

export interface DailySummaryRow {
  id: string;
  /** YYYY-MM-DD. */
  date: string;
  timezone: string | null;
  steps: number | null;
  distance_meters: number | null;
  active_energy_kcal: number | null;
  total_energy_kcal: number | null;
  floors_climbed: number | null;
  active_seconds: number | null;
  resting_heart_rate: number | null;
  average_heart_rate: number | null;
  hrv_rmssd: number | null;
  sleep_seconds: number | null;
  score: number | null;
  derived: boolean;
  metadata: Record<string, unknown>;
  provider: string;
  source: string | null;
  device: string | null;
  ingested_at: Date;
  /** Only in the merged view. */
  outranked?: Array<{ provider: string; source: string }>;
}

const FIGURE_COLUMNS = [
  "timezone",
  "steps",
  "distance_meters",
  "active_energy_kcal",
  "total_energy_kcal",
  "floors_climbed",
  "active_seconds",
  "resting_heart_rate",
  "average_heart_rate",
  "hrv_rmssd",
  "sleep_seconds",
  "score",
  "derived",
  "metadata",
  "source",
  "source_key",
  "device",
  "on_body",
] as const;

const setFromExcluded = Prisma.raw(FIGURE_COLUMNS.map((c) => `${c} = excluded.${c}`).join(", "));
const storedTuple = Prisma.raw(`(${FIGURE_COLUMNS.map((c) => `d.${c}`).join(", ")})`);
const excludedTuple = Prisma.raw(`(${FIGURE_COLUMNS.map((c) => `excluded.${c}`).join(", ")})`);

/**
 * Upserts summaries by (user, provider, date). `derived` rows never replace a summary the
 * provider sent; a sent one replaces a derived one. Only changed rows are written; returns
 * the dates written.
 */
export async function upsertDailySummaries(
  db: DbClient,
  batch: { userId: string; provider: string; rawObjectId: string | null },
  summaries: readonly DailySummaryWrite[],
  derived: boolean,
): Promise<{ inserted: number; updated: number; dates: string[] }> {
  if (summaries.length === 0) return { inserted: 0, updated: 0, dates: [] };
  const column = <K extends keyof DailySummaryWrite>(key: K) => summaries.map((s) => s[key]);
  const rows = await db.$queryRaw<Array<{ inserted: boolean; date: string }>>`
    INSERT INTO daily_summaries AS d (id, user_id, provider, raw_object_id, derived, date, timezone, steps,
      distance_meters, active_energy_kcal, total_energy_kcal, floors_climbed, active_seconds, resting_heart_rate,
      average_heart_rate, hrv_rmssd, sleep_seconds, score, metadata, source, source_key, device, on_body)
    SELECT gen_random_uuid(), ${batch.userId}::uuid, ${batch.provider}, ${batch.rawObjectId}::uuid, ${derived}, n.*
    FROM unnest(${column("date")}::date[], ${column("timezone")}::text[], ${column("steps")}::float8[],
      ${column("distanceMeters")}::float8[], ${column("activeEnergyKcal")}::float8[], ${column("totalEnergyKcal")}::float8[],
      ${column("floorsClimbed")}::float8[], ${column("activeSeconds")}::int[], ${column("restingHeartRate")}::float8[],
      ${column("averageHeartRate")}::float8[], ${column("hrvRmssd")}::float8[], ${column("sleepSeconds")}::int[],
      ${column("score")}::float8[], ${summaries.map((s) => JSON.stringify(s.metadata))}::jsonb[], ${column("source")}::text[],
      ${column("sourceKey")}::text[], ${column("device")}::text[], ${column("onBody")}::boolean[])
      AS n(date, timezone, steps, distance_meters, active_energy_kcal, total_energy_kcal, floors_climbed, active_seconds,
        resting_heart_rate, average_heart_rate, hrv_rmssd, sleep_seconds, score, metadata, source, source_key, device, on_body)
    ORDER BY n.date
    ON CONFLICT (user_id, provider, date) DO UPDATE SET ${setFromExcluded}, raw_object_id = excluded.raw_object_id, ingested_at = now()
    WHERE ${derived ? Prisma.sql`d.derived AND ` : Prisma.empty}${storedTuple} IS DISTINCT FROM ${excludedTuple}
    RETURNING (xmax = 0) AS inserted, to_char(d.date, 'YYYY-MM-DD') AS date`;
  const inserted = rows.filter((row) => row.inserted).length;
  return { inserted, updated: rows.length - inserted, dates: rows.map((row) => row.date) };
}

/**
 * Serializes recomputing one user's and provider's derived summaries until the transaction
 * ends, so two writers of overlapping days cannot each store a total missing the other's samples.
 */
export async function lockDerivedDailySummaries(db: DbClient, userId: string, provider: string): Promise<void> {
  await db.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`derived_daily:${userId}:${provider}`}, 0))`;
}

/** Deletes the provider's derived summaries of these dates (a summary the provider sent stays). */
export async function deleteDerivedDailySummaries(db: DbClient, userId: string, provider: string, dates: readonly string[]): Promise<number> {
  if (dates.length === 0) return 0;
  return db.$executeRaw`
    DELETE FROM daily_summaries
    WHERE user_id = ${userId}::uuid AND provider = ${provider} AND derived AND date = ANY(${[...dates]}::date[])`;
}

/** The streams of a user's daily summaries, for ranking in the merged view. */
export function listDailySummaryStreams(db: DbClient, userId: string) {
  return db.$queryRaw<Array<{ sourceKey: string; provider: string; onBody: boolean }>>(dailySummaryStreamsSql(userId));
}

/** The statement of listDailySummaryStreams (merge-context-repository.ts reads several in one). */
export function dailySummaryStreamsSql(userId: string): Prisma.Sql {
  return Prisma.sql`
    SELECT DISTINCT source_key AS "sourceKey", provider, on_body AS "onBody"
    FROM daily_summaries WHERE user_id = ${userId}::uuid`;
}

export interface DailyPageQuery {
  userId: string;
  /** Inclusive, YYYY-MM-DD. */
  startDate?: string | undefined;
  /** Exclusive, YYYY-MM-DD. */
  endDate?: string | undefined;
  after?: { d: string; id: string } | undefined;
  limit: number;
}

const DAILY_COLUMNS = Prisma.sql`d.id, to_char(d.date, 'YYYY-MM-DD') AS date, d.timezone, d.steps, d.distance_meters,
  d.active_energy_kcal, d.total_energy_kcal, d.floors_climbed, d.active_seconds, d.resting_heart_rate,
  d.average_heart_rate, d.hrv_rmssd, d.sleep_seconds, d.score, d.derived, d.metadata, d.provider, d.source, d.device,
  d.ingested_at`;

function dailyFilters(q: DailyPageQuery): Prisma.Sql {
  const parts = [Prisma.sql`d.user_id = ${q.userId}::uuid`];
  if (q.startDate) parts.push(Prisma.sql`d.date >= ${q.startDate}::date`);
  if (q.endDate) parts.push(Prisma.sql`d.date < ${q.endDate}::date`);
  if (q.after) parts.push(Prisma.sql`(d.date, d.id) > (${q.after.d}::date, ${q.after.id}::uuid)`);
  return Prisma.join(parts, " AND ");
}

/** One page of every provider's summaries by (date, id); one row more than `limit`. */
export function listDailySummaries(db: DbClient, q: DailyPageQuery): Promise<DailySummaryRow[]> {
  return db.$queryRaw<DailySummaryRow[]>(dailySummariesPage(q).sql);
}

/** The times of a summary row, and its order (record-pages-repository.ts reads pages as JSON). */
const DAILY_PAGE = { times: ["ingested_at"], order: ["date", "id"] } as const;

/** The statement of listDailySummaries. */
export function dailySummariesPage(q: DailyPageQuery): RecordPage<DailySummaryRow> {
  return {
    ...DAILY_PAGE,
    sql: Prisma.sql`
      SELECT ${DAILY_COLUMNS} FROM daily_summaries d
      WHERE ${dailyFilters(q)}
      ORDER BY d.date, d.id
      LIMIT ${q.limit + 1}`,
  };
}

/**
 * One page of the merged view: of the summaries of one date only the best ranked stream's
 * is kept; it lists the streams it outranked. A user has at most one summary per provider
 * and date, so two summaries of a date never share a stream (nor a rank).
 */
export function listMergedDailySummaries(db: DbClient, q: DailyPageQuery, streams: readonly SqlStream[]): Promise<DailySummaryRow[]> {
  return db.$queryRaw<DailySummaryRow[]>(mergedDailySummariesPage(q, streams).sql);
}

/** The statement of listMergedDailySummaries. */
export function mergedDailySummariesPage(q: DailyPageQuery, streams: readonly SqlStream[]): RecordPage<DailySummaryRow> {
  const sameDate = (rankTest: Prisma.Sql) => Prisma.sql`
    FROM daily_summaries o
    JOIN streams w ON w.source_key = o.source_key AND w.provider = o.provider AND w.on_body = o.on_body
    WHERE o.user_id = d.user_id AND o.date = d.date AND ${rankTest}`;
  return {
    ...DAILY_PAGE,
    sql: Prisma.sql`
      WITH ${streamsCte(streams)}
      SELECT ${DAILY_COLUMNS}, (
        SELECT coalesce(jsonb_agg(DISTINCT jsonb_build_object('provider', w.provider, 'source', w.source_key)), '[]'::jsonb)
        ${sameDate(Prisma.sql`w.rank > me.rank`)}
      ) AS outranked
      FROM daily_summaries d
      ${rankOfRecord("d")}
      WHERE ${dailyFilters(q)} AND NOT EXISTS (SELECT 1 ${sameDate(Prisma.sql`w.rank < me.rank`)})
      ORDER BY d.date, d.id
      LIMIT ${q.limit + 1}`,
  };
}
