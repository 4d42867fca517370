import type { Database } from "@svc/db";
import type { RecordView } from "../samples/samples.ts";
import { AppError, type DbClient } from "../../platform/index.ts";
import { findCategoryType, findQuantityType } from "../catalog/index.ts";
import { BUILTIN_SOURCE_ORDERS } from "./builtin-orders.ts";
import { RECORD_METRICS } from "./record-metrics.ts";
import { rankStreams, resolveSourceOrder, type RankedStream, type UserSourceOrders } from "./source-ranking.ts";
import { listStreamsOf, type MergeTable, type SqlStream } from "./merge-sql-repository.ts";
import { readUserStreams, type SampleStreamRow, type StreamTable } from "./merge-context-repository.ts";
import type { RecordPageRows, RecordPages } from "../record-pages-repository.ts";
import { deleteSourceOrder as deleteOrderRow, listSourceOrders, upsertSourceOrder } from "./source-order-repository.ts";
import { listSampleTypeSpans } from "../samples/sample-stream-repository.ts";
import { markTypesStale } from "../samples/merged-stale-repository.ts";

export interface SourceOrderDto {
  scope: string;
  sources: string[];
  updated_at: string;
}

const toDto = (row: { scope: string; sources: string[]; updatedAt: Date }): SourceOrderDto => ({
  scope: row.scope,
  sources: row.sources,
  updated_at: row.updatedAt.toISOString(),
});

/** The group a metric belongs to, for the second level of the ranking; `other` when unknown. */
export function groupOfMetric(metric: string): string {
  return findQuantityType(metric)?.group ?? findCategoryType(metric)?.group ?? RECORD_METRICS[metric]?.group ?? "other";
}

/** A scope is `*`, a group, or a metric svc knows (a catalog type, sleep_session, workout, daily_summary). */
export function checkScope(scope: string): void {
  const known = scope === "*" || scope in BUILTIN_SOURCE_ORDERS || groupOfMetric(scope) !== "other";
  if (!known) {
    throw new AppError("bad_request", "scope must be `*`, a group (activity, heart, recovery, body, sleep, workouts, ...) or a metric of the catalog");
  }
}

export async function getSourceOrders(db: DbClient, userId: string): Promise<{ data: SourceOrderDto[] }> {
  return { data: (await listSourceOrders(db, userId)).map(toDto) };
}

export async function setSourceOrder(db: Database, userId: string, scope: string, sources: string[]): Promise<SourceOrderDto> {
  checkScope(scope);
  if (new Set(sources).size !== sources.length) throw new AppError("bad_request", "sources must not repeat a source");
  return db.$transaction(async (tx) => {
    const row = await upsertSourceOrder(tx, userId, scope, sources);
    await markSampleTypesOfScopeStale(tx, userId, scope);
    return toDto(row);
  });
}

export async function removeSourceOrder(db: Database, userId: string, scope: string): Promise<void> {
  checkScope(scope);
  await db.$transaction(async (tx) => {
    if (!(await deleteOrderRow(tx, userId, scope))) throw new AppError("not_found", "The user has no order of sources for this scope.");
    await markSampleTypesOfScopeStale(tx, userId, scope);
  });
}

/** The merged view of the user's sample types this scope orders changes at any time: their merged rollups are stale. */
async function markSampleTypesOfScopeStale(db: DbClient, userId: string, scope: string): Promise<void> {
  const types = (await listSampleTypeSpans(db, userId)).map((t) => t.type);
  await markTypesStale(db, userId, types.filter((type) => scope === "*" || type === scope || groupOfMetric(type) === scope));
}

export async function loadUserSourceOrders(db: DbClient, userId: string): Promise<UserSourceOrders> {
  return toUserSourceOrders(await listSourceOrders(db, userId));
}

/** The user's orders of sources by scope, from their rows (read alone or beside something else). */
export const toUserSourceOrders = (rows: ReadonlyArray<{ scope: string; sources: string[] }>): UserSourceOrders =>
  new Map(rows.map((row) => [row.scope, row.sources]));

/** The order of sources the merged view uses for a metric, most preferred first. */
export async function getResolvedSourceOrder(db: DbClient, userId: string, metric: string) {
  checkScope(metric);
  const group = groupOfMetric(metric);
  return { metric, group, sources: resolveSourceOrder(metric, group, await loadUserSourceOrders(db, userId)) };
}

/** Ranks a user's streams of one metric for the merged view (rank 0 is the best). */
export async function rankStreamsForMetric<T extends RankedStream>(db: DbClient, userId: string, metric: string, streams: readonly T[]) {
  return rankStreamsByOrders(metric, streams, await loadUserSourceOrders(db, userId));
}

/** Ranks streams of one metric by the user's orders of sources already read (rank 0 is the best). */
export function rankStreamsByOrders<T extends RankedStream>(metric: string, streams: readonly T[], orders: UserSourceOrders) {
  return rankStreams(streams, resolveSourceOrder(metric, groupOfMetric(metric), orders));
}

/** Ranks a user's streams of a small table holding one metric (sleep sessions, workouts) for the merged view. */
export async function rankedStreamsOf(db: DbClient, userId: string, table: MergeTable, metric: string): Promise<SqlStream[]> {
  return rankStreamsForMetric(db, userId, metric, await listStreamsOf(db, table, userId));
}

/** The streams a read of several kinds of record ranks the merged view by (loadUserStreams). */
export interface UserStreams<T extends RecordPages = RecordPages> {
  /** Every stream of the user's quantity samples (they span the types too). */
  samples: SampleStreamRow[];
  /** In the merged view: the user's orders of sources. */
  orders: UserSourceOrders | undefined;
  /** In the merged view: the ranked streams of each asked table (its metric is the table's name). */
  ranked: Partial<Record<StreamTable, SqlStream[]>>;
  /** The rows of the asked pages of records. */
  pages: RecordPageRows<T>;
  /** Whether some of the user's samples are still in the legacy table (reads of samples leave it out when not). */
  legacy: boolean;
}

export type { SampleStreamRow, StreamTable };

/**
 * The streams of the user's samples and, in the merged view, the orders and the asked tables'
 * streams ranked, with the asked pages of records that need no ranking, in one read.
 */
export async function loadUserStreams<T extends RecordPages>(
  db: DbClient,
  userId: string,
  ask: { view: RecordView; tables: readonly StreamTable[]; pages: T },
): Promise<UserStreams<T>> {
  const merged = ask.view === "merged";
  const read = await readUserStreams(db, userId, { orders: merged, tables: merged ? ask.tables : [], pages: ask.pages });
  if (!read.orders) return { samples: read.samples, orders: undefined, ranked: {}, pages: read.pages, legacy: read.legacy };
  const orders = toUserSourceOrders(read.orders);
  const ranked: Partial<Record<StreamTable, SqlStream[]>> = {};
  for (const table of ask.tables) ranked[table] = rankStreamsByOrders(table, read.tables[table] ?? [], orders);
  return { samples: read.samples, orders, ranked, pages: read.pages, legacy: read.legacy };
}
