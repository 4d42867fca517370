import { Prisma } from "@svc/db";
import type { DbClient } from "../../platform/index.ts";
import { epochMs } from "./quantity-sample-repository.ts";
import { sourceOrdersJsonSql, type SourceOrderRow } from "../merge/merge-context-repository.ts";
import type { UnrankedStream } from "../merge/merge-sql-repository.ts";
import { type SampleSeries, seriesFromJson, seriesJsonSql } from "./sample-series-repository.ts";

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

/** What a page of a type starts from (findSampleTypeSpan). */
export interface SampleTypeStart {
  /** The start of the user's first and last sample of the type, its streams, and whether some of its samples are still in the legacy table (SeriesFilter); undefined when there is none. */
  span: { first: Date; last: Date; legacy: boolean; streams: UnrankedStream[] } | undefined;
  /** The type's series, whose fields the page's rows take. */
  series: SampleSeries[];
  /** When asked (the merged view): the user's orders of sources. */
  orders: SourceOrderRow[] | undefined;
}

type StreamSpanRow = UnrankedStream & { first: number; last: number };

/** What a page of a type starts from, in one read. */
export async function findSampleTypeSpan(db: DbClient, userId: string, type: string, ask: { orders: boolean }): Promise<SampleTypeStart> {
  const [row] = await db.$queryRaw<Array<{ streams: StreamSpanRow[]; legacy: boolean; series: Parameters<typeof seriesFromJson>[0]; orders: SourceOrderRow[] | null }>>`
    SELECT
      (SELECT coalesce(json_agg(json_build_object('sourceKey', source_key, 'provider', provider, 'onBody', on_body,
        'maxDurationSeconds', max_duration_seconds, 'first', ${epochMs("first_start")}, 'last', ${epochMs("last_start")})), '[]'::json)
        FROM quantity_sample_streams WHERE user_id = ${userId}::uuid AND type = ${type}) AS streams,
      EXISTS (SELECT 1 FROM quantity_samples_legacy WHERE user_id = ${userId}::uuid AND type = ${type}) AS legacy,
      ${seriesJsonSql(userId, [type])} AS series,
      ${ask.orders ? sourceOrdersJsonSql(userId) : Prisma.sql`NULL::json`} AS orders`;
  const { streams: rows, legacy, series, orders } = row!;
  const span =
    rows.length === 0
      ? undefined
      : {
          first: new Date(Math.min(...rows.map((r) => r.first))),
          last: new Date(Math.max(...rows.map((r) => r.last))),
          legacy,
          streams: rows.map(({ sourceKey, provider, onBody, maxDurationSeconds }) => ({ sourceKey, provider, onBody, maxDurationSeconds })),
        };
  return { span, series: seriesFromJson(series), orders: orders ?? undefined };
}
