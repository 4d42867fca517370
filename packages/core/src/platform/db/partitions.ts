import type { Database } from "@svc/db";
import { createPartition, listPartitionRanges, lockPartitionMaintenance } from "./partition-repository.ts";

/**
 * The tables partitioned by time (docs/deployment.md, Partitions), with the column they are
 * partitioned by. Their migrations create yearly partitions up to 2026 and a default one; from
 * there on a partition per month is made ahead of time, so a month's rows never land in the
 * default partition.
 */
export const PARTITIONED_TABLES = [
  { table: "quantity_sample_chunks", column: "hour" },
  { table: "quantity_sample_rollups", column: "quarter" },
  { table: "quantity_sample_merged_rollups", column: "quarter" },
] as const;

/** How many months past the current one have their partitions made ahead. */
export const MONTHS_AHEAD = 3;

/**
 * Makes sure every month from the end of the last partition through MONTHS_AHEAD months after
 * `now` has its partition. Runs at worker start and daily; safe to run from several
 * processes at once. Returns the partitions it created.
 */
export async function ensurePartitionsAhead(db: Database, now: Date = new Date()): Promise<string[]> {
  const created: string[] = [];
  const horizon = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + MONTHS_AHEAD + 1, 1);
  for (const { table, column } of PARTITIONED_TABLES) {
    await db.$transaction(async (tx) => {
      await lockPartitionMaintenance(tx);
      const ranges = await listPartitionRanges(tx, table);
      let next = ranges.at(-1)?.to ?? new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
      while (next.getTime() < horizon) {
        const to = new Date(Date.UTC(next.getUTCFullYear(), next.getUTCMonth() + 1, 1));
        const name = `${table}_${next.getUTCFullYear()}_${String(next.getUTCMonth() + 1).padStart(2, "0")}`;
        await createPartition(tx, { table, column }, name, next, to);
        created.push(name);
        next = to;
      }
    });
  }
  return created;
}
