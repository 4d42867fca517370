import { type Database, streamRows } from "@svc/db";
import type { AfterTimeBigint } from "../record-cursors.ts";
import { hoursAround, type QuantitySampleRow } from "./quantity-sample-repository.ts";
import { listSampleSeries, type SampleSeries } from "./sample-series-repository.ts";
import { readAsAll, type SampleTypeSpan } from "./sample-types-walk.ts";
import { EXPORT_COLUMNS, type MergedSampleType, sampleTypesPageSql } from "./sample-types-page-repository.ts";
import { toSampleRow } from "./sample-walks.ts";
import { matchKindOfType } from "./samples.ts";

/**
 * Samples in (start, id) order as columns: what an export writes of each, and its series'
 * fields. Held in typed arrays rather than an object a sample, so that a page alive across the
 * collections its writing causes is a few objects, not thousands promoted to the old generation.
 */
export interface SampleColumns {
  length: number;
  ids: BigInt64Array;
  values: Float64Array;
  startMs: Float64Array;
  endMs: Float64Array;
  ingestedMs: Float64Array;
  series: Array<Omit<SampleSeries, "id">>;
  externalIds: Array<string | null>;
}

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
}

/**
 * Every sample of the types in the merged view, in (start, id) order, as pages of columns: the
 * samples the FHIR search lists alone, read with the same statement as its page of several
 * types (sampleTypesPageSql), one window of hours after another. A type of one ranked stream
 * is read as in the view `all` until a window meets a sample of another stream; from then on
 * every type is read merged (as the search's walk does for that page). Each window's hours are
 * sized to the time the last full page spanned, so a statement plans few partitions.
 */
export async function* sampleColumnPages(db: Database, q: SampleColumnWalkQuery): AsyncGenerator<SampleColumns> {
  if (q.types.length === 0) return;
  const mergeable: MergedSampleType[] = q.types.map(({ type, streams }) => ({ type, streams, kind: matchKindOfType(type).kind }));
  let merged = mergeable.filter((m) => m.streams.length > 1);
  const first = Math.min(...q.types.map((t) => t.first.getTime()));
  const stop = hoursAround(new Date(first), new Date(Math.max(...q.types.map((t) => t.last.getTime())))).to.getTime();
  const series = new SeriesLookup(db, q.userId, q.types.map((t) => t.type));
  let after = q.after;
  let start = after ? undefined : new Date(first);
  let width = WEEK_MS;
  for (;;) {
    const from = after?.t ?? start!;
    const hours = hoursAround(from, new Date(Math.min(from.getTime() + width, stop)));
    if (hours.to.getTime() > stop) hours.to = new Date(stop);
    const query = { userId: q.userId, types: q.types.map((t) => t.type), merged, legacy: q.legacy, after, start, limit: q.pageSize };
    const read = await readColumns(db, sampleTypesPageSql(query, hours, EXPORT_COLUMNS), q.pageSize + 1, series);
    if (!readAsAll(mergeable, merged, read.columns.series)) {
      merged = mergeable;
      continue;
    }
    const { columns } = read;
    if (columns.length > 0) yield columns;
    if (columns.length > q.pageSize) {
      // A full page: the window holds more after its last sample.
      const last = columns.length - 1;
      after = { t: new Date(columns.startMs[last]!), id: columns.ids[last]! };
      width = Math.min(WEEK_MS, Math.max(HOUR_MS, Math.ceil((columns.startMs[last]! - columns.startMs[0]!) * 1.25)));
      continue;
    }
    const readUpTo = read.cutEndMs !== null && read.cutEndMs < hours.to.getTime() ? read.cutEndMs : hours.to.getTime();
    if (readUpTo >= stop) return;
    after = undefined;
    start = new Date(readUpTo);
    width = Math.min(width * 8, WEEK_MS * 8);
  }
}

/** The series of the user's types by id (as text), read again when a sample of one stored since turns up. */
class SeriesLookup {
  private byId: Map<string, SampleSeries> | undefined;
  private readonly db: Database;
  private readonly userId: string;
  private readonly types: readonly string[];
  constructor(db: Database, userId: string, types: readonly string[]) {
    this.db = db;
    this.userId = userId;
    this.types = types;
  }

  async load(): Promise<Map<string, SampleSeries>> {
    this.byId = new Map((await listSampleSeries(this.db, { userId: this.userId, types: this.types })).map((s) => [s.id.toString(), s]));
    return this.byId;
  }

  async known(): Promise<Map<string, SampleSeries>> {
    return this.byId ?? this.load();
  }
}

/**
 * Reads one window's statement (EXPORT_COLUMNS, then kept and the cut) into columns, row by
 * row as pg parses them. A sample whose series is gone (deleted since) is left out.
 */
async function readColumns(db: Database, statement: { text: string; values: readonly unknown[] }, capacity: number, lookup: SeriesLookup) {
  let byId = await lookup.known();
  const columns: SampleColumns = {
    length: 0,
    ids: new BigInt64Array(capacity),
    values: new Float64Array(capacity),
    startMs: new Float64Array(capacity),
    endMs: new Float64Array(capacity),
    ingestedMs: new Float64Array(capacity),
    series: [],
    externalIds: [],
  };
  let cutEndMs: number | null | undefined;
  /** Rows whose series is not known yet: their index and series id. */
  const unknown: Array<[number, string]> = [];
  let ordered = true;
  await streamRows(db, statement, (row) => {
    // [id, value, start_ms, end_ms, external_id, ingested_ms, series_id, legacy_series, kept, cut_end_ms]
    if (cutEndMs === undefined) cutEndMs = row[9] as number | null;
    if (row[0] === null || row[8] !== true) return;
    const i = columns.length++;
    columns.ids[i] = BigInt(row[0] as string);
    columns.values[i] = row[1] as number;
    columns.startMs[i] = row[2] as number;
    columns.endMs[i] = row[3] as number;
    columns.externalIds.push(row[4] as string | null);
    columns.ingestedMs[i] = row[5] as number;
    const seriesId = row[6] as string | null;
    const of = seriesId === null ? (row[7] as Omit<SampleSeries, "id">) : byId.get(seriesId);
    columns.series.push(of!);
    if (of === undefined) unknown.push([i, seriesId!]);
    if (i > 0 && (columns.startMs[i - 1]! > columns.startMs[i]! || (columns.startMs[i - 1] === columns.startMs[i] && columns.ids[i - 1]! > columns.ids[i]!))) ordered = false;
  });
  if (unknown.length > 0) {
    byId = await lookup.load();
    for (const [i, id] of unknown) columns.series[i] = byId.get(id)!;
  }
  const kept = unknown.length > 0 || !ordered ? orderedKept(columns) : columns;
  return { columns: kept, cutEndMs: cutEndMs ?? null };
}

/** The columns in (start, id) order without the samples whose series is gone: a rare page, copied. */
function orderedKept(columns: SampleColumns): SampleColumns {
  const order = [...Array(columns.length).keys()]
    .filter((i) => columns.series[i] !== undefined)
    .sort((a, b) => columns.startMs[a]! - columns.startMs[b]! || (columns.ids[a]! < columns.ids[b]! ? -1 : columns.ids[a]! > columns.ids[b]! ? 1 : 0));
  return {
    length: order.length,
    ids: BigInt64Array.from(order, (i) => columns.ids[i]!),
    values: Float64Array.from(order, (i) => columns.values[i]!),
    startMs: Float64Array.from(order, (i) => columns.startMs[i]!),
    endMs: Float64Array.from(order, (i) => columns.endMs[i]!),
    ingestedMs: Float64Array.from(order, (i) => columns.ingestedMs[i]!),
    series: order.map((i) => columns.series[i]!),
    externalIds: order.map((i) => columns.externalIds[i]!),
  };
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
