import { Prisma } from "@svc/db";
import type { DbClient } from "../../platform/index.ts";
import { epochMs } from "../samples/quantity-sample-repository.ts";
import { dailySummaryStreamsSql } from "../daily/daily-summary-repository.ts";
import { SLEEP_TABLE } from "../sleep/sleep-session-repository.ts";
import { WORKOUT_TABLE } from "../workouts/workout-repository.ts";
import { streamsOfSql, type UnrankedStream } from "./merge-sql-repository.ts";
import { recordPageRows, type RecordPages, recordPagesJson } from "../record-pages-repository.ts";

/** A stream of the user's quantity samples of one type, with the start of its first and last sample. */
export interface SampleStreamRow extends UnrankedStream {
  type: string;
  firstStart: Date;
  lastStart: Date;
}

/** The record tables whose streams a read of several kinds ranks beside the samples'. */
export type StreamTable = "sleep_session" | "workout" | "daily_summary";

const STREAMS_OF: Record<StreamTable, (userId: string) => Prisma.Sql> = {
  sleep_session: (userId) => streamsOfSql(SLEEP_TABLE, userId),
  workout: (userId) => streamsOfSql(WORKOUT_TABLE, userId),
  // A user has at most one summary per provider and date: the longest reaches a day.
  daily_summary: (userId) => Prisma.sql`SELECT d.*, 86400 AS "maxDurationSeconds" FROM (${dailySummaryStreamsSql(userId)}) d`,
};

/** A row of the user's orders of sources as sourceOrdersJsonSql answers it. */
export interface SourceOrderRow {
  scope: string;
  sources: string[];
}

/** The user's orders of sources as a JSON array of SourceOrderRow, to read beside something else. */
export function sourceOrdersJsonSql(userId: string): Prisma.Sql {
  return Prisma.sql`(SELECT coalesce(json_agg(json_build_object('scope', scope, 'sources', sources) ORDER BY scope), '[]'::json)
        FROM source_orders WHERE user_id = ${userId}::uuid)`;
}

interface ContextRow {
  samples: Array<Omit<SampleStreamRow, "firstStart" | "lastStart"> & { firstStart: number; lastStart: number }>;
  orders: SourceOrderRow[] | null;
  tables: Partial<Record<StreamTable, UnrankedStream[]>> | null;
  pages: Record<string, Array<Record<string, unknown>>>;
  legacy: boolean;
}

/**
 * In one statement: every stream of the user's quantity samples, and, when asked, the user's
 * orders of sources and the streams of the record tables (what a read of several kinds of
 * record, such as the FHIR search, ranks the merged view by), beside pages of records that need
 * no ranking (readRecordPages), and whether some of the user's samples are still in the legacy
 * table (SeriesFilter).
 */
export async function readUserStreams<T extends RecordPages>(db: DbClient, userId: string, ask: { orders: boolean; tables: readonly StreamTable[]; pages: T }) {
  const tables = ask.tables.map((table) => Prisma.sql`${table}::text, (SELECT coalesce(json_agg(x), '[]'::json) FROM (${STREAMS_OF[table](userId)}) x)`);
  const [row] = await db.$queryRaw<ContextRow[]>`
    SELECT
      (SELECT coalesce(json_agg(json_build_object('type', type, 'sourceKey', source_key, 'provider', provider, 'onBody', on_body,
        'maxDurationSeconds', max_duration_seconds, 'firstStart', ${epochMs("first_start")}, 'lastStart', ${epochMs("last_start")})), '[]'::json)
        FROM quantity_sample_streams WHERE user_id = ${userId}::uuid) AS samples,
      ${ask.orders ? sourceOrdersJsonSql(userId) : Prisma.sql`NULL::json`} AS orders,
      ${tables.length > 0 ? Prisma.sql`json_build_object(${Prisma.join(tables, ", ")})` : Prisma.sql`NULL::json`} AS tables,
      ${recordPagesJson(ask.pages)} AS pages,
      EXISTS (SELECT 1 FROM quantity_samples_legacy WHERE user_id = ${userId}::uuid) AS legacy`;
  const { samples, orders, tables: streams, pages, legacy } = row!;
  return {
    samples: samples.map((s): SampleStreamRow => ({ ...s, firstStart: new Date(s.firstStart), lastStart: new Date(s.lastStart) })),
    orders,
    tables: streams ?? {},
    pages: recordPageRows(ask.pages, pages),
    legacy,
  };
}
