import { Prisma } from "@svc/db";
import type { DbClient } from "./db-client.ts";

/** The record tables the merged view joins to themselves, where stale statistics hurt most. */
export type RecordTable = "category_samples";

/**
 * Refreshes a table's planner statistics after a write that grew it by more than a tenth
 * (and at least 1000 rows). Autovacuum would analyze it a minute later, but a read right
 * after a first bulk import (or the derived totals in the same transaction) would be
 * planned on statistics of a nearly empty table: a sort of every row instead of an
 * ordered index scan, minutes instead of milliseconds. Inside the writer's transaction
 * ANALYZE counts the transaction's own rows; other sessions see the statistics at commit.
 */
export async function analyzeAfterBulkWrite(db: DbClient, table: RecordTable, insertedRows: number): Promise<void> {
  if (insertedRows < 1000) return;
  const [stats] = await db.$queryRaw<Array<{ rows: number }>>`
    SELECT greatest(reltuples, 0)::float8 AS rows FROM pg_class WHERE oid = ${table}::regclass`;
  if (insertedRows > (stats?.rows ?? 0) / 10) await db.$executeRaw`ANALYZE ${Prisma.raw(table)}`;
}
