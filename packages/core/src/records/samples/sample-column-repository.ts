import { type Database, streamRows } from "@svc/db";
import { listSampleSeries, type SampleSeries } from "./sample-series-repository.ts";

/**
 * Samples in (start, id) order as columns: what an export writes of each, and its series'
 * fields; the first `length` of each array. Held in typed arrays rather than an object a
 * sample, so that a page alive across the collections its writing causes is a few objects, not
 * thousands promoted to the old generation.
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

/** The series of the user's types by id (as text), read again when a sample of one stored since turns up. */
export class SeriesLookup {
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
 * The typed arrays of pages their reader is done with, filled again by a later window: a page's
 * arrays allocated anew live while the page is written, are promoted, and are freed only by a
 * full collection, which V8 starts after some 64 MB of such memory.
 */
export class SampleColumnsPool {
  private readonly free: SampleColumns[] = [];

  /** Empty columns for `capacity` samples. */
  take(capacity: number): SampleColumns {
    const reused = this.free.pop();
    if (reused && reused.ids.length === capacity) {
      reused.length = 0;
      return reused;
    }
    return {
      length: 0,
      ids: new BigInt64Array(capacity),
      values: new Float64Array(capacity),
      startMs: new Float64Array(capacity),
      endMs: new Float64Array(capacity),
      ingestedMs: new Float64Array(capacity),
      series: [],
      externalIds: [],
    };
  }

  /** Columns nobody reads any more. */
  give(columns: SampleColumns): void {
    this.free.push(columns);
  }
}

/**
 * Reads one window's statement (EXPORT_COLUMNS, then kept and the cut) into columns from
 * `pool`, row by row as pg parses them. A sample whose series is gone (deleted since) is left out.
 */
export async function readSampleColumns(db: Database, statement: { text: string; values: readonly unknown[] }, capacity: number, lookup: SeriesLookup, pool: SampleColumnsPool) {
  let byId = await lookup.known();
  const columns = pool.take(capacity);
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
    columns.externalIds[i] = row[4] as string | null;
    columns.ingestedMs[i] = row[5] as number;
    const seriesId = row[6] as string | null;
    const of = seriesId === null ? (row[7] as Omit<SampleSeries, "id">) : byId.get(seriesId);
    columns.series[i] = of!;
    if (of === undefined) unknown.push([i, seriesId!]);
    if (i > 0 && (columns.startMs[i - 1]! > columns.startMs[i]! || (columns.startMs[i - 1] === columns.startMs[i] && columns.ids[i - 1]! > columns.ids[i]!))) ordered = false;
  });
  if (unknown.length > 0) {
    byId = await lookup.load();
    for (const [i, id] of unknown) columns.series[i] = byId.get(id)!;
  }
  if (unknown.length === 0 && ordered) return { columns, cutEndMs: cutEndMs ?? null };
  const kept = orderedKept(columns, pool.take(capacity));
  pool.give(columns);
  return { columns: kept, cutEndMs: cutEndMs ?? null };
}

/** Copies `columns` into `into` in (start, id) order without the samples whose series is gone: a rare page. */
function orderedKept(columns: SampleColumns, into: SampleColumns): SampleColumns {
  const order = [...Array(columns.length).keys()]
    .filter((i) => columns.series[i] !== undefined)
    .sort((a, b) => columns.startMs[a]! - columns.startMs[b]! || (columns.ids[a]! < columns.ids[b]! ? -1 : columns.ids[a]! > columns.ids[b]! ? 1 : 0));
  into.length = order.length;
  order.forEach((from, to) => {
    into.ids[to] = columns.ids[from]!;
    into.values[to] = columns.values[from]!;
    into.startMs[to] = columns.startMs[from]!;
    into.endMs[to] = columns.endMs[from]!;
    into.ingestedMs[to] = columns.ingestedMs[from]!;
    into.series[to] = columns.series[from]!;
    into.externalIds[to] = columns.externalIds[from]!;
  });
  return into;
}
