import { AppError, type DbClient, isoTime, type Page, parseTimeWindow, toPage } from "../../platform/index.ts";
import { findQuantityType, fromStorageUnit } from "../catalog/index.ts";
import type { MatchKind } from "../merge/match-kinds.ts";
import { decodeAfterBigint } from "../record-cursors.ts";
import type { SqlStream } from "../merge/merge-sql-repository.ts";
import { listMergedQuantitySamples, listQuantitySamples, type QuantitySampleRow, type SamplePageQuery } from "./quantity-sample-repository.ts";
import { advanceSampleWalk, knownPageSeries, startSampleWalk, withSeries } from "./sample-walks.ts";
import { findSampleTypeSpan, listSampleStreams, userHasSampleType } from "./sample-stream-repository.ts";
import { toProvenanceDto } from "../provenance-dto.ts";
import { rankStreamsByOrders, rankStreamsForMetric, toUserSourceOrders } from "../merge/source-orders.ts";

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

/**
 * One page of samples of a type in a view (one row more than `limit`, unless it is the last),
 * read window by window (startSampleWalk).
 */
export async function readSamplePage(db: DbClient, query: SamplePageQuery, view: RecordView): Promise<QuantitySampleRow[]> {
  // One read brings the streams, the series and, in the merged view, the orders the streams are ranked by (as rankedSampleStreams).
  const start = await findSampleTypeSpan(db, query.userId, query.type, { orders: view === "merged" });
  const { span } = start;
  const orders = start.orders && toUserSourceOrders(start.orders);
  const series = knownPageSeries(query.userId, [query.type], start.series);
  // With one stream nothing can be outranked: its merged view is the all view, each sample outranking none.
  const oneStream = orders !== undefined && (span?.streams.length ?? 0) <= 1 && !span?.legacy;
  const merged = orders && !oneStream && {
    streams: rankStreamsByOrders(query.type, span?.streams ?? [], orders),
    kind: matchKindOfType(query.type).kind,
  };
  // A type with no sample left in the legacy table is read without it.
  const walk = startSampleWalk({ ...query, legacy: span?.legacy }, span);
  while (!walk.done) {
    const read = merged
      ? await listMergedQuantitySamples(db, walk.next, walk.hours, merged.streams, merged.kind)
      : await listQuantitySamples(db, walk.next, walk.hours);
    if (oneStream) for (const row of read.rows) row.outranked = [];
    advanceSampleWalk(walk, await withSeries(db, series, read.rows), read.readUpTo);
  }
  return walk.rows;
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
