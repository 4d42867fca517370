import type { DbClient } from "../../platform/index.ts";
import type { AfterTimeBigint, TimePageQuery } from "../record-cursors.ts";
import { hoursAround, type HourWindow, type QuantitySampleRow, type SamplePageRow } from "./quantity-sample-repository.ts";
import { listSampleSeries, type SampleSeries } from "./sample-series-repository.ts";

/** The first window a page reads; each next one is WINDOW_GROWTH times longer. */
const FIRST_WINDOW_MS = 7 * 86_400_000;
const WINDOW_GROWTH = 8;

/**
 * A page of samples read a window of hours at a time from where it starts, a week first,
 * longer ones after, until the page is full or the samples end: each read then plans only the
 * partitions of its window. readSamplePage walks a page of one type; the FHIR search walks a
 * page of every type (and one of blood pressure readings), all its walks' windows in one
 * statement.
 */
export interface SampleWalk<Q extends TimePageQuery<AfterTimeBigint>> {
  /** The page: `limit` samples, and one more when there is more. */
  query: Q;
  /** What the next window reads: past everything read, only what is still missing. */
  next: Q;
  /** The next window (up to `stop`). */
  hours: HourWindow;
  /** Where the samples end (in the query's window). */
  stop: Date;
  width: number;
  /** The page so far, with the series' fields. */
  rows: QuantitySampleRow[];
  /** While not done: every sample of the page starting before this time is among `rows`. */
  readUpTo: Date;
  done: boolean;
}

const upTo = (hours: HourWindow, stop: Date): HourWindow => (hours.to > stop ? { from: hours.from, to: stop } : hours);

/** A walk of the page `query` over samples spanning first to last (none: done at once, empty). */
export function startSampleWalk<Q extends TimePageQuery<AfterTimeBigint>>(
  query: Q,
  span: { first: Date; last: Date } | undefined,
  firstWindowMs = FIRST_WINDOW_MS,
): SampleWalk<Q> {
  const first = span?.first ?? new Date(0);
  const last = span?.last ?? first;
  const startAt = [query.start, query.after?.t, first].reduce<Date>((a, b) => (b && b > a ? b : a), first);
  const stop = hoursAround(first, query.end && query.end < last ? query.end : last).to;
  const hours = hoursAround(startAt, new Date(startAt.getTime() + firstWindowMs));
  return { query, next: query, hours: upTo(hours, stop), stop, width: firstWindowMs, rows: [], readUpTo: hours.from, done: span === undefined };
}

/** Takes in what a window read (its samples with their series' fields): the page is done, or the next window is set. */
export function advanceSampleWalk<Q extends TimePageQuery<AfterTimeBigint>>(walk: SampleWalk<Q>, samples: readonly QuantitySampleRow[], readUpTo: Date): void {
  // One by one: a share's read can hold too many to spread into push.
  for (const sample of samples) walk.rows.push(sample);
  if (walk.rows.length > walk.query.limit || readUpTo >= walk.stop) {
    walk.done = true;
    return;
  }
  walk.readUpTo = readUpTo;
  // Later windows start past everything read: no cursor, only what is still missing.
  walk.next = { ...walk.query, after: undefined, start: readUpTo, limit: walk.query.limit - walk.rows.length };
  walk.width *= WINDOW_GROWTH;
  // Past `stop` is never read (and a window grown past year 275760 would be no Date).
  walk.hours = { from: readUpTo, to: new Date(Math.min(readUpTo.getTime() + walk.width, walk.stop.getTime())) };
}

/** The series of a page's types by id: read beside its first window, and again when a read meets one stored since. */
export interface PageSeries {
  userId: string;
  types: readonly string[];
  byId: Promise<Map<bigint, SampleSeries>>;
}

const readSeriesById = async (db: DbClient, userId: string, types: readonly string[]) =>
  new Map((await listSampleSeries(db, { userId, types })).map((s) => [s.id, s]));

/** Starts reading the series of the types (awaited with the first window read). */
export function readPageSeries(db: DbClient, userId: string, types: readonly string[]): PageSeries {
  const byId = types.length === 0 ? Promise.resolve(new Map<bigint, SampleSeries>()) : readSeriesById(db, userId, types);
  // Its failure is thrown where it is awaited; a window failing first leaves it unawaited, not unhandled.
  byId.catch(() => undefined);
  return { userId, types, byId };
}

/** The series of a page's types already read (findSampleTypeSpan). */
export function knownPageSeries(userId: string, types: readonly string[], series: readonly SampleSeries[]): PageSeries {
  return { userId, types, byId: Promise.resolve(new Map(series.map((s) => [s.id, s]))) };
}

/** The series' fields of each row: its series' (legacy_series for a sample not moved yet from the legacy table), or none for one deleted since. */
export async function seriesOfRows(db: DbClient, series: PageSeries, rows: readonly SamplePageRow[]) {
  const known = await series.byId;
  if (rows.some((row) => row.series_id !== null && !known.has(row.series_id))) {
    for (const [id, s] of await readSeriesById(db, series.userId, series.types)) known.set(id, s);
  }
  return rows.map((row) => (row.series_id === null ? row.legacy_series : known.get(row.series_id)) ?? undefined);
}

/** The rows with their series' fields (a series deleted since the page was read took its samples with it). */
export async function withSeries(db: DbClient, series: PageSeries, rows: readonly SamplePageRow[]): Promise<QuantitySampleRow[]> {
  return toSampleRows(rows, await seriesOfRows(db, series, rows));
}

/** The rows with the series' fields of each (seriesOfRows). */
export function toSampleRows(rows: readonly SamplePageRow[], series: ReadonlyArray<Omit<SampleSeries, "id"> | undefined>): QuantitySampleRow[] {
  const samples: QuantitySampleRow[] = [];
  rows.forEach((row, index) => {
    const of = series[index];
    if (of) samples.push(toSampleRow(row, of));
  });
  return samples;
}

export function toSampleRow(row: SamplePageRow, series: Omit<SampleSeries, "id">): QuantitySampleRow {
  const sample: QuantitySampleRow = {
    id: row.id,
    type: series.type,
    value: row.value,
    unit: series.unit,
    start_date: new Date(row.start_ms),
    end_date: new Date(row.end_ms),
    source_name: series.sourceName,
    source_bundle_id: series.sourceBundleId,
    device_model: series.deviceModel,
    product_type: series.productType,
    external_id: row.external_id,
    is_primary_source: series.isPrimarySource,
    was_user_entered: series.wasUserEntered,
    metadata: row.metadata,
    timezone: series.timezone,
    original_unit: series.originalUnit,
    provider: series.provider,
    source: series.source,
    device: series.device,
    ingested_at: new Date(row.ingested_ms),
  };
  if (row.outranked) sample.outranked = row.outranked;
  return sample;
}
