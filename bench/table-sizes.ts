// Disk sizes of the benchmarks: what tables take on disk with their indexes and TOAST
// (pg_total_relation_size), a partitioned table counted as the sum of its partitions.
import type pg from "pg";

// pg_partition_tree lists a partitioned table's partitions (and the table, whose own size
// is 0) but nothing for a plain table: the table itself is added to it.
const TREE_BYTES = (table: string) =>
  `(SELECT sum(pg_total_relation_size(r)) FROM (SELECT relid FROM pg_partition_tree(${table}) UNION SELECT ${table}) AS tree(r))::bigint`;

/** Bytes of each named table: itself and every partition of it, with indexes and TOAST. */
export async function tableBytes(sql: pg.Client, tables: readonly string[]): Promise<Map<string, number>> {
  const { rows } = await sql.query<{ name: string; bytes: string }>(
    `SELECT name, ${TREE_BYTES("name::regclass")} AS bytes FROM unnest($1::text[]) AS name`,
    [tables],
  );
  return new Map(tables.map((name) => [name, Number(rows.find((r) => r.name === name)?.bytes ?? 0)]));
}

/** Bytes of every table of the database that is not a partition (schema-qualified names), partitions included. */
export async function allTableBytes(sql: pg.Client): Promise<Map<string, number>> {
  const { rows } = await sql.query<{ name: string; bytes: string }>(
    `SELECT n.nspname || '.' || c.relname AS name, ${TREE_BYTES("c.oid::regclass")} AS bytes
     FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE c.relkind IN ('r', 'p') AND NOT c.relispartition
       AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg_toast%'`,
  );
  return new Map(rows.map((r) => [r.name, Number(r.bytes)]));
}

/** Bytes of the whole current database after a checkpoint. */
export async function databaseBytes(sql: pg.Client): Promise<number> {
  await sql.query("CHECKPOINT");
  const { rows } = await sql.query<{ bytes: string }>("SELECT pg_database_size(current_database())::bigint AS bytes");
  return Number(rows[0]!.bytes);
}

/** The minimal narrow table of the physical reference: one row per sample, keyed by stream and start. */
export async function createNarrowTable(sql: pg.Client, name: string): Promise<void> {
  await sql.query(`CREATE TABLE ${name} (stream int, start timestamptz, duration int, value float8, PRIMARY KEY (stream, start))`);
}
