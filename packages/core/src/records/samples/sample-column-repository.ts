import { type Database, streamRows } from "@svc/db";
import { listSampleSeries, type SampleSeries } from "./sample-series-repository.ts";

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
 * Reads one window's statement (EXPORT_COLUMNS, then kept and the cut) into columns, row by
 * row as pg parses them. A sample whose series is gone (deleted since) is left out.
 */
export async function readSampleColumns(db: Database, statement: { text: string; values: readonly unknown[] }, capacity: number, lookup: SeriesLookup) {
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
