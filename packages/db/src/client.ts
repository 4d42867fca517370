import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaClient } from "./generated/prisma/client.ts";
import { statementNamer } from "./statement-names.ts";

export type Database = PrismaClient;

/** Connections of a database's pool at one moment. */
export interface PoolUse {
  /** Open connections, busy or idle. */
  total: number;
  idle: number;
  /** Queries and transactions waiting for a connection. */
  waiting: number;
  max: number;
}

/**
 * How long a transaction waits for a free pooled connection. A plain query waits in the pg
 * pool without a limit; Prisma's default of 2 s for transactions turned a busy moment (200
 * connections of bench/load.bench.ts) into 500s on uploads.
 */
const TRANSACTION_MAX_WAIT_MS = 60_000;

/** The pool under each client and how its statements are named, for poolUse and streamRows; the adapter keeps them private. */
const pools = new WeakMap<Database, { pool: pg.Pool; statementName: (query: { sql: string }) => string | undefined }>();

/** How many distinct statements a process prepares on its connections at most (statementNamer). */
const PREPARED_STATEMENTS_MAX = 500;

/**
 * One Prisma client over a pg pool; the process keeps one for its lifetime. Statements are
 * prepared on each connection unless `preparedStatements` is false (for a pooler in transaction
 * mode that does not carry them, such as PgBouncer before 1.21).
 */
export function createDatabase(connectionString: string, options: { max?: number; preparedStatements?: boolean } = {}): Database {
  const pool = new pg.Pool({ connectionString, max: options.max ?? 10 });
  // The adapter passes a name on as pg's optional `name` (none: unnamed), though its type says string.
  const statementName = options.preparedStatements === false ? () => undefined : statementNamer(PREPARED_STATEMENTS_MAX);
  const names = options.preparedStatements === false ? {} : { statementNameGenerator: statementName as (query: { sql: string }) => string };
  // The adapter ends the pool on $disconnect, as it ends a pool it made itself.
  const adapter = new PrismaPg(pool, { disposeExternalPool: true, ...names });
  const db = new PrismaClient({ adapter, transactionOptions: { maxWait: TRANSACTION_MAX_WAIT_MS } });
  pools.set(db, { pool, statementName });
  return db;
}

/**
 * Runs a read on a pooled connection of `db` straight through pg, bypassing Prisma, and hands
 * each row to `onRow` as an array of pg's values (int8 and numeric as text) as it arrives:
 * nothing of the result is gathered. For reads of millions of rows whose caller keeps what it
 * needs in a compact form (an export's pages of samples); Prisma would first build an object of
 * every row. Not within a transaction: `db` is the process's client.
 */
export async function streamRows(db: Database, query: { text: string; values: readonly unknown[] }, onRow: (row: unknown[]) => void): Promise<void> {
  const of = pools.get(db);
  if (of === undefined) throw new Error("not a client of createDatabase");
  const name = of.statementName({ sql: query.text });
  const client = await of.pool.connect();
  let failure: unknown;
  try {
    await new Promise<void>((resolve, reject) => {
      // What onRow throws is kept for the end: thrown inside pg's handler it would break the connection.
      let failed: { error: unknown } | undefined;
      const config: pg.QueryArrayConfig = { text: query.text, values: [...query.values], rowMode: "array", ...(name !== undefined && { name }) };
      const read = client.query(new pg.Query(config));
      read.on("row", (row: unknown[]) => {
        if (failed) return;
        try {
          onRow(row);
        } catch (error) {
          failed = { error };
        }
      });
      read.on("error", (error) => {
        failure = error;
        reject(error);
      });
      read.on("end", () => (failed ? reject(failed.error) : resolve()));
    });
  } finally {
    // A connection whose statement failed is closed rather than pooled: it may be broken.
    client.release(failure instanceof Error ? failure : undefined);
  }
}

/** The connections of `db`'s pool now (metrics); no query. */
export function poolUse(db: Database): PoolUse {
  const pool = pools.get(db)?.pool;
  if (pool === undefined) throw new Error("not a client of createDatabase");
  return { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: pool.options.max ?? 10 };
}
