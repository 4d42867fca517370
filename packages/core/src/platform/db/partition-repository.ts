import { Prisma } from "@svc/db";
import type { DbClient } from "./db-client.ts";

/** The schema that holds every partition (Prisma does not look at it). */
const PARTITION_SCHEMA = "svc_partitions";

/** The ranges the partitions of a table cover, oldest first (the default partition left out). */
export async function listPartitionRanges(db: DbClient, table: string): Promise<Array<{ name: string; from: Date | null; to: Date | null }>> {
  const rows = await db.$queryRaw<Array<{ name: string; bound: string }>>`
    SELECT c.relname AS name, pg_get_expr(c.relpartbound, c.oid) AS bound
    FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
    WHERE i.inhparent = ${table}::regclass`;
  const instant = (text: string | undefined) => (text === undefined || text === "MINVALUE" || text === "MAXVALUE" ? null : new Date(text.replace(/^'|'$/g, "")));
  return rows
    .filter((row) => row.bound !== "DEFAULT")
    .map((row) => {
      const [, from, to] = /FROM \((.+)\) TO \((.+)\)/.exec(row.bound) ?? [];
      return { name: row.name, from: instant(from), to: instant(to) };
    })
    .sort((a, b) => (a.from?.getTime() ?? -Infinity) - (b.from?.getTime() ?? -Infinity));
}

/**
 * Creates the partition of `table` (partitioned by `column`) for [from, to), moving into it any
 * rows of the default partition in that range, in the caller's transaction. Attaching checks
 * the default partition holds no row of the range, which the move makes true.
 */
export async function createPartition(
  db: DbClient,
  { table, column }: { table: string; column: string },
  name: string,
  from: Date,
  to: Date,
): Promise<void> {
  const partition = Prisma.raw(`"${PARTITION_SCHEMA}"."${name}"`);
  const parent = Prisma.raw(`"${table}"`);
  const fallback = Prisma.raw(`"${PARTITION_SCHEMA}"."${table}_default"`);
  const key = Prisma.raw(`"${column}"`);
  await db.$executeRaw`CREATE TABLE ${partition} (LIKE ${parent} INCLUDING DEFAULTS INCLUDING CONSTRAINTS)`;
  await db.$executeRaw`
    WITH moved AS (DELETE FROM ${fallback} WHERE ${key} >= ${from} AND ${key} < ${to} RETURNING *)
    INSERT INTO ${partition} SELECT * FROM moved`;
  await db.$executeRaw`ALTER TABLE ${parent} ATTACH PARTITION ${partition} FOR VALUES FROM (${Prisma.raw(`'${from.toISOString()}'`)}) TO (${Prisma.raw(`'${to.toISOString()}'`)})`;
}

/** Serializes partition maintenance across processes for the caller's transaction. */
export async function lockPartitionMaintenance(db: DbClient): Promise<void> {
  await db.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended('svc:partition-maintenance', 0))`;
}
