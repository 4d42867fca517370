import type { Database } from "@svc/db";
import type { AfterTimeBigint } from "../record-cursors.ts";
import { hoursAround, type QuantitySampleRow } from "./quantity-sample-repository.ts";
import { readSampleColumns, type SampleColumns, type SampleColumnsPool, SeriesLookup } from "./sample-column-repository.ts";
import { readAsAll, type SampleTypeSpan } from "./sample-types-walk.ts";
import { EXPORT_COLUMNS, type MergedSampleType, sampleTypesPageSql } from "./sample-types-page-repository.ts";
import { toSampleRow } from "./sample-walks.ts";
import { matchKindOfType } from "./samples.ts";

const HOUR_MS = 3_600_000;
const WEEK_MS = 7 * 24 * HOUR_MS;

/** What a column walk reads: the user's samples of `types` (each with its span and ranked streams) from `after` on. */
export interface SampleColumnWalkQuery {
  userId: string;
  types: readonly SampleTypeSpan[];
  /** Whether some of the user's samples are still in the legacy table. */
  legacy: boolean;
  after: AfterTimeBigint | undefined;
  /** Samples read at once (a window's statement reads one more). */
  pageSize: number;
  /** Where pages' arrays come from; the caller gives a page back there once it is done with it. */
  pool: SampleColumnsPool;
}

/**
 * Every sample of the types in the merged view, in (start, id) order, as pages of columns: the
 * samples the FHIR search lists alone, read with the same statement as its page of several
 * types (sampleTypesPageSql), one window of hours after another. A type of one ranked stream
 * is read as in the view `all` until a window meets a sample of another stream; from then on
 * every type is read merged (as the search's walk does for that page). Each window's hours are
 * sized to the time the last full page spanned, so a statement plans few partitions. A page's
 * arrays come from `q.pool` and are not read again once the page is yielded.
 */
export async function* sampleColumnPages(db: Database, q: SampleColumnWalkQuery): AsyncGenerator<SampleColumns> {
  if (q.types.length === 0) return;
  const mergeable: MergedSampleType[] = q.types.map(({ type, streams }) => ({ type, streams, kind: matchKindOfType(type).kind }));
  let merged = mergeable.filter((m) => m.streams.length > 1);
  const first = Math.min(...q.types.map((t) => t.first.getTime()));
  const stop = hoursAround(new Date(first), new Date(Math.max(...q.types.map((t) => t.last.getTime())))).to.getTime();
  const types = q.types.map((t) => t.type);
  const series = new SeriesLookup(db, q.userId, types);
  let after = q.after;
  let start = after ? undefined : new Date(first);
  let width = WEEK_MS;
  for (;;) {
    const from = after?.t ?? start!;
    const hours = hoursAround(from, new Date(Math.min(from.getTime() + width, stop)));
    if (hours.to.getTime() > stop) hours.to = new Date(stop);
    const query = { userId: q.userId, types, merged, legacy: q.legacy, after, start, limit: q.pageSize };
    const read = await readSampleColumns(db, sampleTypesPageSql(query, hours, EXPORT_COLUMNS), q.pageSize + 1, series, q.pool);
    if (!readAsAll(mergeable, merged, read.columns.series, read.columns.length)) {
      q.pool.give(read.columns);
      merged = mergeable;
      continue;
    }
    const { columns } = read;
    // Read before the page is handed on: the caller may give it back to the pool.
    const full = columns.length > q.pageSize;
    if (full) {
      // The window holds more after its last sample.
      const last = columns.length - 1;
      after = { t: new Date(columns.startMs[last]!), id: columns.ids[last]! };
      width = Math.min(WEEK_MS, Math.max(HOUR_MS, Math.ceil((columns.startMs[last]! - columns.startMs[0]!) * 1.25)));
    }
    if (columns.length > 0) yield columns;
    else q.pool.give(columns);
    if (full) continue;
    const readUpTo = read.cutEndMs !== null && read.cutEndMs < hours.to.getTime() ? read.cutEndMs : hours.to.getTime();
    if (readUpTo >= stop) return;
    after = undefined;
    start = new Date(readUpTo);
    width = Math.min(width * 8, WEEK_MS * 8);
  }
}

/** The `i`-th sample of `columns` as a row (what the ordinary rendering of a sample takes). */
export function sampleRowAt(columns: SampleColumns, i: number): QuantitySampleRow {
  const row = {
    id: columns.ids[i]!,
    value: columns.values[i]!,
    start_ms: columns.startMs[i]!,
    end_ms: columns.endMs[i]!,
    external_id: columns.externalIds[i]!,
    metadata: {},
    ingested_ms: columns.ingestedMs[i]!,
    series_id: null,
    legacy_series: null,
  };
  return toSampleRow(row, columns.series[i]!);
}
