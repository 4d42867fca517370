import { AppError, type DbClient, isoTime, type Page, parseTimeWindow, toPage } from "../../platform/index.ts";
import { findQuantityType, fromStorageUnit } from "../catalog/index.ts";
import type { MatchKind } from "../merge/match-kinds.ts";
import { decodeAfterBigint } from "../record-cursors.ts";
import type { SqlStream } from "../merge/merge-sql-repository.ts";
import {
  hoursAround,
  listMergedQuantitySamples,
  listQuantitySamples,
  type QuantitySampleRow,
  type SamplePageQuery,
  type SamplePageRow,
} from "./quantity-sample-repository.ts";
import { listSampleSeries, type SampleSeries } from "./sample-series-repository.ts";
import { findSampleTypeSpan, listSampleStreams, userHasSampleType } from "./sample-stream-repository.ts";
import { toProvenanceDto } from "../provenance-dto.ts";
import { rankStreamsForMetric } from "../merge/source-orders.ts";

export type RecordView = "merged" | "all";

export interface QuantitySampleDto {
  id: number;
  type: string;
  value: number;
  unit: string;
  start_date: string;
  end_date: string;
  source_name: string | null;
  source_bundle_id: string | null;
  device_model: string | null;
  product_type: string | null;
  external_id: string | null;
  is_primary_source: boolean;
  was_user_entered: boolean;
  metadata: Record<string, unknown>;
  provider: string;
  source: string | null;
  device: string | null;
  ingested_at: string;
  outranked?: Array<{ provider: string; source: string }>;
}

export const toSampleDto = (row: QuantitySampleRow): QuantitySampleDto => ({
  id: Number(row.id),
  type: row.type,
  value: row.value,
  unit: row.unit,
  start_date: isoTime(row.start_date),
  end_date: isoTime(row.end_date),
  source_name: row.source_name,
  source_bundle_id: row.source_bundle_id,
  device_model: row.device_model,
  product_type: row.product_type,
  external_id: row.external_id,
  is_primary_source: row.is_primary_source,
  was_user_entered: row.was_user_entered,
  metadata: sampleMetadata(row),
  ...toProvenanceDto(row),
  ...(row.outranked && { outranked: row.outranked }),
});

/** The sample's own metadata with what its series keeps: the zone, and the unit and value as sent. */
function sampleMetadata(row: QuantitySampleRow): Record<string, unknown> {
  const metadata = { ...row.metadata };
  if (row.timezone) metadata.timezone = row.timezone;
  if (row.original_unit) {
    metadata.original_unit = row.original_unit;
    const type = findQuantityType(row.type);
    metadata.original_value ??= type ? fromStorageUnit(type, row.value, row.original_unit) : undefined;
  }
  return metadata;
}

/** How samples of a type match in the merged view; types outside the catalog match when they overlap. */
export function matchKindOfType(type: string): { kind: MatchKind; group: string } {
  const known = findQuantityType(type);
  return known ? { kind: known.merge_kind, group: known.group } : { kind: "other", group: "other" };
}

/** 400 unless the type is in the catalog or the user has samples of it. */
export async function checkSampleType(db: DbClient, userId: string, type: string): Promise<void> {
  if (findQuantityType(type) || (await userHasSampleType(db, userId, type))) return;
  throw new AppError("bad_request", "type is not a quantity type of the catalog");
}

/** The user's streams of a type, ranked for the merged view (rank 0 is the best). */
export async function rankedSampleStreams(db: DbClient, userId: string, type: string): Promise<SqlStream[]> {
  return rankStreamsForMetric(db, userId, type, await listSampleStreams(db, userId, type));
}

/** The first window a page reads; each next one is WINDOW_GROWTH times longer. */
export const FIRST_WINDOW_MS = 7 * 86_400_000;
export const WINDOW_GROWTH = 8;

/**
 * One page of samples of a type in a view (one row more than `limit`, unless it is the last).
 * It reads windows of hours from where the page starts, a week first, longer ones after, until
 * the page is full or the type's samples end: each read then plans only the partitions of its
 * window.
 */
export async function readSamplePage(db: DbClient, query: SamplePageQuery, view: RecordView): Promise<QuantitySampleRow[]> {
  const [span, series, streams] = await Promise.all([
    findSampleTypeSpan(db, query.userId, query.type),
    readSeries(db, query),
    view === "merged" ? rankedSampleStreams(db, query.userId, query.type) : undefined,
  ]);
  if (!span) return [];
  const merged = streams && { streams, kind: matchKindOfType(query.type).kind };
  const startAt = [query.start, query.after?.t, span.first].reduce<Date>((a, b) => (b && b > a ? b : a), span.first);
  const stop = hoursAround(span.first, query.end && query.end < span.last ? query.end : span.last).to;
  const rows: QuantitySampleRow[] = [];
  let next: SamplePageQuery = query;
  let hours = hoursAround(startAt, new Date(startAt.getTime() + FIRST_WINDOW_MS));
  for (let width = FIRST_WINDOW_MS; ; width *= WINDOW_GROWTH) {
    if (hours.to > stop) hours = { from: hours.from, to: stop };
    const read = merged ? await listMergedQuantitySamples(db, next, hours, merged.streams, merged.kind) : await listQuantitySamples(db, next, hours);
    await appendWithSeries(rows, db, query, read.rows, series);
    if (rows.length > query.limit || read.readUpTo >= stop) return rows;
    // Later windows start past everything read: no cursor, only what is still missing.
    next = { ...query, after: undefined, start: read.readUpTo, limit: query.limit - rows.length };
    hours = { from: read.readUpTo, to: new Date(read.readUpTo.getTime() + width * WINDOW_GROWTH) };
  }
}

type SeriesById = Map<bigint, SampleSeries>;

async function readSeries(db: DbClient, query: SamplePageQuery): Promise<SeriesById> {
  return new Map((await listSampleSeries(db, { userId: query.userId, types: [query.type] })).map((s) => [s.id, s]));
}

/**
 * Appends the rows with their series' fields to `samples` (one by one: a share's read can hold
 * too many to spread into push). A series stored since `series` was read is read then; one
 * deleted since the page was read took its samples with it.
 */
async function appendWithSeries(samples: QuantitySampleRow[], db: DbClient, query: SamplePageQuery, rows: SamplePageRow[], series: SeriesById) {
  if (rows.some((row) => row.series_id !== null && !series.has(row.series_id))) for (const [id, s] of await readSeries(db, query)) series.set(id, s);
  for (const row of rows) {
    // A sample not moved yet from the legacy table brings its series' fields along.
    const of = row.series_id === null ? row.legacy_series : series.get(row.series_id);
    if (of) samples.push(toSampleRow(row, of));
  }
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

export async function listSamples(
  db: DbClient,
  userId: string,
  input: { type: string; start?: string | undefined; end?: string | undefined; view: RecordView; cursor?: string | undefined; limit: number },
): Promise<Page<QuantitySampleDto>> {
  await checkSampleType(db, userId, input.type);
  const window = parseTimeWindow(input);
  const query: SamplePageQuery = {
    userId,
    type: input.type,
    start: window.start,
    end: window.end,
    after: decodeAfterBigint(input.cursor),
    limit: input.limit,
  };
  const rows = await readSamplePage(db, query, input.view);
  return toPage(rows, input.limit, toSampleDto, (row) => ({ t: row.start_date.toISOString(), id: row.id.toString() }));
}
