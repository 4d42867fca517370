import { type DbClient, type Page, parseTimeWindow, toPage } from "../../platform/index.ts";
import { decodeAfterBigint } from "../record-cursors.ts";
import {
  selectCategorySamples,
  selectCategoryStreams,
  selectMergedCategorySamples,
  type CategoryPageQuery,
  type CategorySampleRow,
} from "./category-sample-repository.ts";
import type { SqlStream } from "../merge/merge-sql-repository.ts";
import { toProvenanceDto } from "../provenance-dto.ts";
import type { RecordView } from "../samples/samples.ts";
import { loadUserSourceOrders, rankStreamsByOrders } from "../merge/source-orders.ts";

export interface CategorySampleDto {
  id: number;
  type: string;
  value: string;
  start_date: string;
  end_date: string;
  source_name: string | null;
  source_bundle_id: string | null;
  device_model: string | null;
  external_id: string | null;
  was_user_entered: boolean;
  metadata: Record<string, unknown>;
  provider: string;
  source: string | null;
  device: string | null;
  ingested_at: string;
  outranked?: Array<{ provider: string; source: string }>;
}

const toCategoryDto = (row: CategorySampleRow): CategorySampleDto => ({
  id: Number(row.id),
  type: row.type,
  value: row.value,
  start_date: row.start_date.toISOString(),
  end_date: row.end_date.toISOString(),
  source_name: row.source_name,
  source_bundle_id: row.source_bundle_id,
  device_model: row.device_model,
  external_id: row.external_id,
  was_user_entered: row.was_user_entered,
  metadata: row.metadata,
  ...toProvenanceDto(row),
  ...(row.outranked && { outranked: row.outranked }),
});

/** The user's streams of category samples ranked per type (the metric is the type). */
async function rankedCategoryStreams(db: DbClient, userId: string, type: string | undefined): Promise<Map<string, SqlStream[]>> {
  const streams = await selectCategoryStreams(db, userId, type);
  const byType = new Map<string, typeof streams>();
  for (const stream of streams) byType.set(stream.type, [...(byType.get(stream.type) ?? []), stream]);
  if (byType.size === 0) return new Map();
  const orders = await loadUserSourceOrders(db, userId);
  return new Map([...byType].map(([t, list]) => [t, rankStreamsByOrders(t, list, orders)]));
}

/**
 * GET /v1/users/{id}/category-samples: samples of one type or of every type, ordered by
 * start_date then id. In the merged view samples of one type match when their intervals
 * overlap; the better ranked source for that type is kept.
 */
export async function listCategorySamples(
  db: DbClient,
  userId: string,
  input: { type?: string | undefined; start?: string | undefined; end?: string | undefined; view: RecordView; cursor?: string | undefined; limit: number },
): Promise<Page<CategorySampleDto>> {
  const window = parseTimeWindow(input);
  const after = decodeAfterBigint(input.cursor);
  const query: CategoryPageQuery = { userId, type: input.type, start: window.start, end: window.end, after, limit: input.limit };
  const rows =
    input.view === "all"
      ? await selectCategorySamples(db, query)
      : await selectMergedCategorySamples(db, query, await rankedCategoryStreams(db, userId, input.type));
  return toPage(rows, input.limit, toCategoryDto, (row) => ({ t: row.start_date.toISOString(), id: row.id.toString() }));
}
