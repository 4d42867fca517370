import type { DbClient } from "../../platform/index.ts";
import type { SqlStream } from "../merge/merge-sql-repository.ts";
import type { AfterTimeBigint, TimePageQuery } from "../record-cursors.ts";
import { windowRead } from "./quantity-sample-repository.ts";
import type { SampleSeries } from "./sample-series-repository.ts";
import {
  type MergedSampleType,
  readSamplePageParts,
  type SampleTypesPageQuery,
  type SampleTypesPageRow,
  sampleTypesPageSql,
} from "./sample-types-page-repository.ts";
import { advanceSampleWalk, type PageSeries, type SampleWalk, seriesOfRows, startSampleWalk, toSampleRows } from "./sample-walks.ts";
import { matchKindOfType, type RecordView } from "./samples.ts";

/** A type a page of several types reads: the span of its samples and, in the merged view, its streams ranked. */
export interface SampleTypeSpan {
  type: string;
  first: Date;
  last: Date;
  streams: readonly SqlStream[];
}

/**
 * A walk of one page of the samples of several types, in (start, id) order. In the merged view
 * a type of one stream keeps every sample of that stream: it is read as in the view `all`
 * unless a window meets a sample of a stream not ranked (then that window is read again with
 * every type merged).
 */
export interface SampleTypesWalk extends SampleWalk<SampleTypesPageQuery> {
  /** In the merged view: every type's merge, should a window need all of them. */
  mergeable: readonly MergedSampleType[];
  /** Of a whole read: the start times of the samples read that the merge leaves out. */
  dropped: Date[];
}

export function startSampleTypesWalk(
  page: TimePageQuery<AfterTimeBigint> & Pick<SampleTypesPageQuery, "legacy">,
  types: readonly SampleTypeSpan[],
  view: RecordView,
  options: { whole?: boolean; firstWindowMs?: number | undefined } = {},
): SampleTypesWalk {
  const mergeable = view === "merged" ? types.map(({ type, streams }) => ({ type, streams, kind: matchKindOfType(type).kind })) : [];
  const query = { ...page, types: types.map((t) => t.type), merged: mergeable.filter((m) => m.streams.length > 1), whole: options.whole };
  const span = types.length === 0 ? undefined : {
    first: new Date(Math.min(...types.map((t) => t.first.getTime()))),
    last: new Date(Math.max(...types.map((t) => t.last.getTime()))),
  };
  return { ...startSampleWalk(query, span, options.firstWindowMs), mergeable, dropped: [] };
}

/**
 * Reads the next window of every walk not done, all in one statement, and takes each in
 * (`series`: of every walk's types).
 */
export async function readNextSampleWindows(db: DbClient, walks: readonly SampleTypesWalk[], series: PageSeries): Promise<void> {
  const pending = walks.filter((walk) => !walk.done);
  const parts = await readSamplePageParts(db, pending.map((walk) => sampleTypesPageSql(walk.next, walk.hours)));
  for (const [index, walk] of pending.entries()) await takeWindow(db, walk, parts[index]!, series);
}

/** Takes in a window's rows (sampleTypesPageSql): the walk moves on, or reads the window again merged. */
async function takeWindow(db: DbClient, walk: SampleTypesWalk, window: readonly SampleTypesPageRow[], series: PageSeries): Promise<void> {
  const rows = window.filter((row) => row.id !== null);
  const read = windowRead(rows.filter((row) => row.kept), walk.hours, window[0]?.cut_end_ms ?? null);
  const of = await seriesOfRows(db, series, read.rows);
  if (readAsAll(walk.mergeable, walk.query.merged, of)) {
    for (const row of rows) if (!row.kept) walk.dropped.push(new Date(row.start_ms));
    advanceSampleWalk(walk, toSampleRows(read.rows, of), read.readUpTo);
    return;
  }
  // A sample of a stream not ranked, of a type read as in the view `all`: the merge decides after all.
  walk.query = { ...walk.query, merged: walk.mergeable };
  walk.next = { ...walk.next, merged: walk.mergeable };
}

/**
 * Whether every sample read (the first `count` of `of`: each one's series; none for one deleted
 * since) of a type read as in the view `all` in the merged view is of the type's one ranked
 * stream. `merged`: the types read merged, of `mergeable`, every type's merge.
 */
export function readAsAll(
  mergeable: readonly MergedSampleType[],
  merged: readonly MergedSampleType[],
  of: ReadonlyArray<Omit<SampleSeries, "id"> | undefined>,
  count = of.length,
): boolean {
  if (mergeable.length === merged.length) return true;
  const mergedTypes = new Set(merged.map((m) => m.type));
  const streams = new Map(mergeable.map((m) => [m.type, m.streams]));
  for (let i = 0; i < count; i++) {
    const s = of[i];
    if (!s || mergedTypes.has(s.type)) continue;
    if (!(streams.get(s.type) ?? []).some((x) => x.sourceKey === s.sourceKey && x.provider === s.provider && x.onBody === s.onBody)) return false;
  }
  return true;
}
