import type { DbClient } from "../../platform/index.ts";
import type { UnrankedStream } from "../merge/merge-sql-repository.ts";

export interface SampleStreamWrite {
  type: string;
  provider: string;
  sourceKey: string;
  onBody: boolean;
  maxDurationSeconds: number;
  firstStart: Date;
  lastStart: Date;
}

/** Records (or widens) the streams a batch of samples belongs to. */
export async function upsertSampleStreams(db: DbClient, userId: string, streams: readonly SampleStreamWrite[]) {
  if (streams.length === 0) return;
  const column = <K extends keyof SampleStreamWrite>(key: K) => streams.map((s) => s[key]);
  await db.$executeRaw`
    INSERT INTO quantity_sample_streams AS q (user_id, type, provider, source_key, on_body, max_duration_seconds, first_start, last_start)
    SELECT ${userId}::uuid, n.* FROM unnest(${column("type")}::text[], ${column("provider")}::text[],
      ${column("sourceKey")}::text[], ${column("onBody")}::boolean[], ${column("maxDurationSeconds")}::int[],
      ${column("firstStart")}::timestamptz[], ${column("lastStart")}::timestamptz[])
      AS n(type, provider, source_key, on_body, max_duration_seconds, first_start, last_start)
    ORDER BY 1, 2, 3, 4, 5
    ON CONFLICT (user_id, type, provider, source_key, on_body) DO UPDATE SET
      max_duration_seconds = greatest(q.max_duration_seconds, excluded.max_duration_seconds),
      first_start = least(q.first_start, excluded.first_start),
      last_start = greatest(q.last_start, excluded.last_start)
    WHERE excluded.max_duration_seconds > q.max_duration_seconds
      OR excluded.first_start < q.first_start OR excluded.last_start > q.last_start`;
}

export function listSampleStreams(db: DbClient, userId: string, type: string) {
  return db.quantitySampleStream.findMany({
    where: { userId, type },
    select: { sourceKey: true, provider: true, onBody: true, maxDurationSeconds: true },
  });
}

/** Whether the user has stored samples of a type (which makes a type outside the catalog readable). */
export async function userHasSampleType(db: DbClient, userId: string, type: string): Promise<boolean> {
  return (await db.quantitySampleStream.findFirst({ where: { userId, type }, select: { type: true } })) !== null;
}

/** Each type the user has samples of, with the start of its first and last sample. */
export function listSampleTypeSpans(db: DbClient, userId: string) {
  return db.$queryRaw<Array<{ type: string; first_start: Date; last_start: Date }>>`
    SELECT type, min(first_start) AS first_start, max(last_start) AS last_start
    FROM quantity_sample_streams WHERE user_id = ${userId}::uuid
    GROUP BY type ORDER BY type`;
}

/** Each type the user has samples of: the start of its first and last sample and the providers they came from. */
export function listSampleTypeProviders(db: DbClient, userId: string) {
  return db.$queryRaw<Array<{ type: string; first_start: Date; last_start: Date; providers: string[] }>>`
    SELECT type, min(first_start) AS first_start, max(last_start) AS last_start,
      array_agg(DISTINCT provider ORDER BY provider) AS providers
    FROM quantity_sample_streams WHERE user_id = ${userId}::uuid
    GROUP BY type ORDER BY type`;
}

/**
 * What a page of a type starts from, in one read: the start of the user's first and last sample
 * of it (undefined when there is none), its streams, and whether some of its samples are still in
 * the legacy table (SeriesFilter).
 */
export async function findSampleTypeSpan(
  db: DbClient,
  userId: string,
  type: string,
): Promise<{ first: Date; last: Date; legacy: boolean; streams: UnrankedStream[] } | undefined> {
  const rows = await db.$queryRaw<Array<UnrankedStream & { first: Date; last: Date; legacy: boolean }>>`
    SELECT source_key AS "sourceKey", provider, on_body AS "onBody", max_duration_seconds AS "maxDurationSeconds",
      first_start AS first, last_start AS last,
      EXISTS (SELECT 1 FROM quantity_samples_legacy WHERE user_id = ${userId}::uuid AND type = ${type}) AS legacy
    FROM quantity_sample_streams WHERE user_id = ${userId}::uuid AND type = ${type}`;
  if (rows.length === 0) return undefined;
  const first = new Date(Math.min(...rows.map((row) => row.first.getTime())));
  const last = new Date(Math.max(...rows.map((row) => row.last.getTime())));
  const streams = rows.map(({ sourceKey, provider, onBody, maxDurationSeconds }) => ({ sourceKey, provider, onBody, maxDurationSeconds }));
  return { first, last, legacy: rows[0]!.legacy, streams };
}
