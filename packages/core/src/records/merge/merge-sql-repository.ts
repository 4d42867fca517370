import { Prisma } from "@svc/db";
import type { DbClient } from "../../platform/index.ts";
import { MATCH_WINDOW_SECONDS, type MatchKind } from "./match-kinds.ts";

/** A ranked stream as the SQL of the merged view sees it (rank 0 is the best). */
export interface SqlStream {
  sourceKey: string;
  provider: string;
  onBody: boolean;
  rank: number;
  /** The longest record of the stream, which bounds the search for overlapping ones. */
  maxDurationSeconds: number;
}

/** A table of records the merged view reads; names are constants of this file's callers, never input. */
export interface MergeTable {
  table: string;
  start: string;
  end: string;
  /** Columns two records must share to be of one metric (e.g. `type`); none when the table holds one metric. */
  sameMetric: string[];
  /**
   * The table of series whose rows hold the stream's columns (source_key, provider, on_body) and
   * `sameMetric` for records that keep only `series_id`; the record's own series is then aliased
   * as the `rs` of mergeConditions.
   */
  series?: string;
}

/** Every record of a stream missing from `streams` ranks last (never expected: streams are written with records). */
export const UNRANKED = 2_000_000_000;

/**
 * `streams(source_key, provider, on_body, rank, max_duration_seconds, position)` from the
 * ranked streams; position is 1 for the first of `streams`.
 */
export function streamsCte(streams: readonly SqlStream[]): Prisma.Sql {
  return Prisma.sql`streams AS (
    SELECT * FROM unnest(
      ${streams.map((s) => s.sourceKey)}::text[], ${streams.map((s) => s.provider)}::text[],
      ${streams.map((s) => s.onBody)}::boolean[], ${streams.map((s) => s.rank)}::int[],
      ${streams.map((s) => s.maxDurationSeconds)}::int[]
    ) WITH ORDINALITY AS t(source_key, provider, on_body, rank, max_duration_seconds, position)
  )`;
}

/** Joins `me.rank`: the rank in `streams` of the stream of the record aliased `r` (default `s`). */
export function rankOfRecord(r = "s"): Prisma.Sql {
  const col = (name: string) => Prisma.raw(`${r}.${name}`);
  return Prisma.sql`CROSS JOIN LATERAL (
    SELECT coalesce((SELECT rank FROM streams x
      WHERE x.source_key = ${col("source_key")} AND x.provider = ${col("provider")} AND x.on_body = ${col("on_body")}), ${UNRANKED}) AS rank
  ) me`;
}

/**
 * SQL true when a record `o` of stream `w` matches the record aliased `r` (same user and metric,
 * close in time by kind). Probing one stream at a time keeps each check on the
 * (user, metric, source_key, provider, on_body, start) index, or, for records in series, on
 * the series of the stream and then the (user, series, start) key of their records.
 */
function matchInStream(t: MergeTable, kind: MatchKind, r: string, rs: string): Prisma.Sql {
  const col = (alias: string, name: string) => Prisma.raw(`${alias}.${name}`);
  // The alias holding the stream's and metric's columns of `o`: its series, or itself.
  const os = t.series ? "os" : "o";
  const sameMetric = t.sameMetric.map((c) => Prisma.sql` AND ${col(os, c)} = ${col(rs, c)}`);
  const [oStart, oEnd, rStart, rEnd] = [col("o", t.start), col("o", t.end), col(r, t.start), col(r, t.end)];
  const window = MATCH_WINDOW_SECONDS[kind];
  const close =
    window !== undefined
      ? Prisma.sql`${oStart} BETWEEN ${rStart} - make_interval(secs => ${window}) AND ${rStart} + make_interval(secs => ${window})`
      : kind === "sessions"
        ? // Share at least half of the shorter session.
          Prisma.sql`${oStart} >= ${rStart} - make_interval(secs => w.max_duration_seconds) AND ${oStart} < ${rEnd}
            AND least(${oEnd}, ${rEnd}) - greatest(${oStart}, ${rStart}) >= least(${oEnd} - ${oStart}, ${rEnd} - ${rStart}) / 2`
        : // Overlap of [start, end); a record of no length counts as one millisecond long.
          Prisma.sql`${oStart} >= ${rStart} - make_interval(secs => w.max_duration_seconds) - interval '1 millisecond'
            AND ${oStart} < greatest(${rEnd}, ${rStart} + interval '1 millisecond')
            AND greatest(${oEnd}, ${oStart} + interval '1 millisecond') > ${rStart}`;
  const from = t.series
    ? Prisma.sql`${Prisma.raw(t.series)} os JOIN ${Prisma.raw(t.table)} o ON o.user_id = os.user_id AND o.series_id = os.id`
    : Prisma.sql`${Prisma.raw(t.table)} o`;
  return Prisma.sql`EXISTS (
    SELECT 1 FROM ${from}
    WHERE ${col(os, "user_id")} = ${col(r, "user_id")}${sameMetric.length > 0 ? Prisma.join(sameMetric, "") : Prisma.empty}
      AND ${col(os, "source_key")} = w.source_key AND ${col(os, "provider")} = w.provider AND ${col(os, "on_body")} = w.on_body
      AND ${close}
  )`;
}

/**
 * The merged view of the record aliased `r` (default `s`; its series `rs` for a table of
 * records in series) whose rank is `me.rank`: `keep` is true unless a better ranked stream
 * has a matching record; `outranked` lists the worse ranked streams that have one, as JSON
 * `[{provider, source}]`.
 */
export function mergeConditions(t: MergeTable, kind: MatchKind, r = "s", rs = r): { keep: Prisma.Sql; outranked: Prisma.Sql } {
  const match = matchInStream(t, kind, r, rs);
  return {
    keep: Prisma.sql`NOT EXISTS (SELECT 1 FROM streams w WHERE w.rank < me.rank AND ${match})`,
    outranked: Prisma.sql`(
      SELECT coalesce(jsonb_agg(DISTINCT jsonb_build_object('provider', w.provider, 'source', w.source_key)), '[]'::jsonb)
      FROM streams w WHERE w.rank > me.rank AND ${match}
    )`,
  };
}

/**
 * The streams of a user's records in a small table (sessions, category samples), with
 * each stream's longest record; `where` narrows to one metric (e.g. a type).
 */
export function listStreamsOf(db: DbClient, t: MergeTable, userId: string, where: Prisma.Sql = Prisma.empty) {
  return db.$queryRaw<UnrankedStream[]>(streamsOfSql(t, userId, where));
}

/** A stream as listStreamsOf lists it, before ranking. */
export type UnrankedStream = Omit<SqlStream, "rank">;

/** The statement of listStreamsOf (merge-context-repository.ts reads several in one). */
export function streamsOfSql(t: MergeTable, userId: string, where: Prisma.Sql = Prisma.empty): Prisma.Sql {
  return Prisma.sql`
    SELECT source_key AS "sourceKey", provider, on_body AS "onBody",
      ceil(extract(epoch FROM max(${Prisma.raw(t.end)} - ${Prisma.raw(t.start)})))::int AS "maxDurationSeconds"
    FROM ${Prisma.raw(t.table)}
    WHERE user_id = ${userId}::uuid ${where}
    GROUP BY 1, 2, 3`;
}

