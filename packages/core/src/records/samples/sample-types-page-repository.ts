import { Prisma } from "@svc/db";
import type { DbClient } from "../../platform/index.ts";
import { streamsCte, type SqlStream } from "../merge/merge-sql-repository.ts";
import type { MatchKind } from "../merge/match-kinds.ts";
import type { AfterTimeBigint, TimePageQuery } from "../record-cursors.ts";
import {
  CUT_END,
  CUT_END_MS,
  type CutRow,
  hoursAround,
  type HourWindow,
  mergedRows,
  mergePadMs,
  epochMs,
  PAGE_COLUMNS,
  pageCut,
  pageFilters,
  pageFrom,
  sampleRows,
} from "./quantity-sample-repository.ts";

/** A type a page of several types reads through the merged view: its ranked streams and how its samples match. */
export interface MergedSampleType {
  type: string;
  streams: readonly SqlStream[];
  kind: MatchKind;
}

/**
 * One page of the samples of several types together, in (start, id) order as a page of one
 * type sorts (the FHIR search lists every type's samples in one order). `merged`: the types
 * read through the merged view; the other types list every sample.
 */
export interface SampleTypesPageQuery extends TimePageQuery<AfterTimeBigint> {
  types: readonly string[];
  merged: readonly MergedSampleType[];
  /**
   * Every sample of each window, no count cuts it (`limit` is not reached), with those the merge
   * leaves out too, `kept` false: the blood pressure readings the FHIR search pairs, whose
   * panels' instants count every reading.
   */
  whole?: boolean | undefined;
  /** False when the user has no samples left in the legacy table: reads leave it out (SeriesFilter). */
  legacy?: boolean | undefined;
}

/**
 * The columns an export reads of each sample (sample-column-walk.ts): those of PAGE_COLUMNS but
 * the sample's metadata, which no Observation shows.
 */
export const EXPORT_COLUMNS = Prisma.sql`id, value, ${epochMs("start_date")} AS start_ms, ${epochMs("end_date")} AS end_ms, external_id,
  ${epochMs("ingested_at")} AS ingested_ms, series_id, legacy_series`;

/** A row of sampleTypesPageSql. */
export type SampleTypesPageRow = CutRow & { kept: boolean | null };

/**
 * The statement of one window of a page of several types (`types` not empty; see samplePageSql
 * and mergedSamplePageSql, which read one type): one cut for every type, so the window reads
 * about a page of samples in all; each merged type keeps its samples as mergedRows decides,
 * over the samples within its merge's reach. The kept samples (and the dropped ones for a
 * whole read), or when a merged type is read, one row of nulls but the cut when none is kept.
 */
export function sampleTypesPageSql(q: SampleTypesPageQuery, hours: HourWindow, columns: Prisma.Sql = PAGE_COLUMNS): Prisma.Sql {
  const n = q.limit + 1;
  const merged = new Set(q.merged.map((m) => m.type));
  const plain = q.types.filter((type) => !merged.has(type));
  const legacy = q.legacy === false
    ? Prisma.empty
    : Prisma.sql`legacy_samples AS NOT MATERIALIZED (
      SELECT * FROM quantity_samples_legacy WHERE user_id = ${q.userId}::uuid AND type = ANY(${q.types}::text[])
    ),`;
  const series = Prisma.sql`series AS (
      SELECT * FROM quantity_sample_series WHERE user_id = ${q.userId}::uuid AND type = ANY(${q.types}::text[])
    ),
    ${legacy}
    ${q.whole ? Prisma.sql`cut AS (SELECT 'infinity'::timestamptz AS last_hour)` : pageCut(q, n, hours)}`;
  const rowsOf = (window: HourWindow, upTo: Prisma.Sql) => sampleRows(q.userId, window, upTo, { legacy: q.legacy });
  // Every type as in the view `all`: the page as samplePageSql reads it.
  if (merged.size === 0) {
    return Prisma.sql`
      WITH ${series}
      SELECT ${columns}, true AS kept, ${CUT_END_MS}
      FROM ${rowsOf(hours, Prisma.sql`(SELECT last_hour FROM cut)`)} s
      WHERE ${pageFilters(q)}
      ORDER BY start_date, id LIMIT ${n}`;
  }

  // The samples within the widest reach of the merged types, read once (one statement plans a
  // read of samples once): the other types take theirs in the window, each merged type its reach.
  const padMs = Math.max(...q.merged.map((m) => mergePadMs(m.kind, m.streams)));
  const reachHours = { from: hoursAround(new Date(hours.from.getTime() - padMs), hours.to).from, to: new Date(hours.to.getTime() + padMs) };
  const upTo = Prisma.sql`coalesce(${CUT_END}, 'infinity') + make_interval(secs => ${padMs / 1000})`;
  const inWindow = Prisma.sql`start_date >= ${hours.from} AND start_date < coalesce(${CUT_END}, ${hours.to})`;
  const parts = plain.length > 0
    ? [Prisma.sql`(SELECT ${columns}, true AS kept FROM reach
        WHERE type = ANY(${plain}::text[]) AND ${pageFilters(q)} AND ${inWindow}
        ORDER BY start_date, id LIMIT ${n})`]
    : [];
  for (const m of q.merged) {
    parts.push(Prisma.sql`(
      WITH ${streamsCte(m.streams)},
      s AS (SELECT * FROM reach WHERE type = ${m.type} AND ${reached(q, hours, mergePadMs(m.kind, m.streams))}),
      ${mergedRows(m.streams, m.kind)}
      SELECT ${columns}, keep AS kept FROM m
      WHERE ${q.whole ? Prisma.sql`true` : Prisma.sql`keep`} AND ${pageFilters(q)} AND start_date < coalesce(${CUT_END}, ${hours.to})
      ORDER BY start_date, id LIMIT ${n})`);
  }
  return Prisma.sql`
    WITH ${series},
    reach AS (SELECT * FROM ${rowsOf(reachHours, upTo)} rows WHERE ${reached(q, hours, padMs)}),
    page AS (SELECT * FROM (${Prisma.join(parts, " UNION ALL ")}) p ORDER BY start_ms, id LIMIT ${n})
    -- One row with the cut even when the window keeps nothing.
    SELECT rows.*, ${CUT_END_MS}
    FROM (SELECT 1) one
    LEFT JOIN LATERAL (SELECT * FROM page ORDER BY start_ms, id) rows ON true`;
}

/** Samples within `padMs` of the page's samples in the window: the ones that can change what the merge keeps. */
function reached(q: SampleTypesPageQuery, hours: HourWindow, padMs: number): Prisma.Sql {
  const from = pageFrom(q);
  const pad = Prisma.sql`make_interval(secs => ${padMs / 1000})`;
  return Prisma.sql`${from ? Prisma.sql`start_date >= ${new Date(from.getTime() - padMs)} AND` : Prisma.empty}
    start_date < coalesce(${CUT_END}, ${hours.to}) + ${pad}`;
}

/**
 * Runs the statements of several pages (sampleTypesPageSql) as one statement: one round trip
 * for every page a search reads. The rows of each, in its order.
 */
export async function readSamplePageParts(db: DbClient, parts: readonly Prisma.Sql[]): Promise<SampleTypesPageRow[][]> {
  if (parts.length === 0) return [];
  const union = Prisma.join(
    parts.map((part, index) => Prisma.sql`(SELECT ${index}::int AS part, p.* FROM (${part}) p)`),
    " UNION ALL ",
  );
  // Times are whole milliseconds: (start_ms, id) is each page's own order.
  const rows = await db.$queryRaw<Array<SampleTypesPageRow & { part: number }>>`${union} ORDER BY part, start_ms, id`;
  const byPart = parts.map((): SampleTypesPageRow[] => []);
  // Each row keeps its `part` (readers pick their fields): a copy without it costs a page of objects.
  for (const row of rows) byPart[row.part]!.push(row);
  return byPart;
}
