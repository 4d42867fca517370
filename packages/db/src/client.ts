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

/** The pool under each client, for poolUse; the adapter keeps it private. */
const pools = new WeakMap<Database, pg.Pool>();

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
  const names = options.preparedStatements === false ? {} : { statementNameGenerator: statementNamer(PREPARED_STATEMENTS_MAX) as (query: { sql: string }) => string };
  // The adapter ends the pool on $disconnect, as it ends a pool it made itself.
  const adapter = new PrismaPg(pool, { disposeExternalPool: true, ...names });
  const db = new PrismaClient({ adapter, transactionOptions: { maxWait: TRANSACTION_MAX_WAIT_MS } });
  pools.set(db, pool);
  return db;
}

/** The connections of `db`'s pool now (metrics); no query. */
export function poolUse(db: Database): PoolUse {
  const pool = pools.get(db);
  if (pool === undefined) throw new Error("not a client of createDatabase");
  return { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: pool.options.max ?? 10 };
}
