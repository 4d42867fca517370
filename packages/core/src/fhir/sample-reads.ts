import {
  FIRST_WINDOW_MS,
  type HourWindow,
  hoursAround,
  listSampleSeries,
  type MatchKind,
  matchKindOfType,
  mergedSamplePageSql,
  type QuantitySampleRow,
  type RecordView,
  type SamplePageQuery,
  type SamplePageRow,
  samplePageSql,
  type SampleSeries,
  type SqlStream,
  toSampleRow,
  WINDOW_GROWTH,
  windowRead,
} from "../records/index.ts";
import type { DbClient } from "../platform/index.ts";
import { readSamplePageParts } from "./observation-sample-repository.ts";

/** What the search knows of a type before reading its samples: their span and, in the merged view, its ranked streams. */
export interface SampleTypeInfo {
  first: Date;
  last: Date;
  streams: SqlStream[];
}

/**
 * One page of one type, read window by window exactly as readSamplePage (records/samples)
 * reads it, so that the windows of every type a search reads go in one statement.
 */
export interface SampleRead {
  query: SamplePageQuery;
  merged: { streams: readonly SqlStream[]; kind: MatchKind } | undefined;
  /** Where the type's samples end (in the query's window). */
  stop: Date;
  next: SamplePageQuery;
  hours: HourWindow;
  width: number;
  /** The page so far: one row more than `limit` when there is more. */
  rows: QuantitySampleRow[];
  /** While not done: every sample of the page starting before this time is among `rows`. */
  readUpTo: Date;
  done: boolean;
}

export function startSampleRead(query: SamplePageQuery, view: RecordView, info: SampleTypeInfo | undefined): SampleRead {
  const first = info?.first ?? new Date(0);
  const last = info?.last ?? first;
  const startAt = [query.start, query.after?.t, first].reduce<Date>((a, b) => (b && b > a ? b : a), first);
  const hours = hoursAround(startAt, new Date(startAt.getTime() + FIRST_WINDOW_MS));
  return {
    query,
    merged: view === "merged" ? { streams: info?.streams ?? [], kind: matchKindOfType(query.type).kind } : undefined,
    stop: hoursAround(first, query.end && query.end < last ? query.end : last).to,
    next: query,
    hours,
    width: FIRST_WINDOW_MS,
    rows: [],
    readUpTo: hours.from,
    done: info === undefined,
  };
}

type SeriesById = Map<bigint, SampleSeries>;

/** The series of the reads' types (the search reads them beside the first windows). */
export async function readSeries(db: DbClient, userId: string, reads: readonly SampleRead[]): Promise<SeriesById> {
  const types = [...new Set(reads.map((read) => read.query.type))];
  if (types.length === 0) return new Map();
  return new Map((await listSampleSeries(db, { userId, types })).map((s) => [s.id, s]));
}

/**
 * Reads the next window of every read not done, all in one statement, and appends what each
 * kept with its series' fields (a series stored since `series` was read is read then; one
 * deleted since took its samples with it).
 */
export async function readNextWindows(db: DbClient, userId: string, reads: readonly SampleRead[], series: Promise<SeriesById>): Promise<void> {
  const pending = reads.filter((read) => !read.done);
  for (const read of pending) if (read.hours.to > read.stop) read.hours = { from: read.hours.from, to: read.stop };
  const parts = await readSamplePageParts(
    db,
    pending.map((read) => (read.merged ? mergedSamplePageSql(read.next, read.hours, read.merged.streams, read.merged.kind) : samplePageSql(read.next, read.hours))),
  );
  const known = await series;
  const rowsOf = parts.map((rows) => rows.filter((row) => row.id !== null));
  if (rowsOf.some((rows) => rows.some((row) => row.series_id !== null && !known.has(row.series_id)))) {
    for (const [id, s] of await readSeries(db, userId, reads)) known.set(id, s);
  }
  pending.forEach((read, index) => {
    const rows = rowsOf[index]!;
    const window = windowRead(rows, read.hours, parts[index]![0]?.cut_end_ms ?? null);
    appendWithSeries(read.rows, rows, known);
    if (read.rows.length > read.query.limit || window.readUpTo >= read.stop) {
      read.done = true;
      return;
    }
    // Later windows start past everything read: no cursor, only what is still missing.
    read.readUpTo = window.readUpTo;
    read.next = { ...read.query, after: undefined, start: window.readUpTo, limit: read.query.limit - read.rows.length };
    read.hours = { from: window.readUpTo, to: new Date(window.readUpTo.getTime() + read.width * WINDOW_GROWTH) };
    read.width *= WINDOW_GROWTH;
  });
}

function appendWithSeries(samples: QuantitySampleRow[], rows: readonly SamplePageRow[], series: SeriesById) {
  for (const row of rows) {
    // A sample not moved yet from the legacy table brings its series' fields along.
    const of = row.series_id === null ? row.legacy_series : series.get(row.series_id);
    if (of) samples.push(toSampleRow(row, of));
  }
}
