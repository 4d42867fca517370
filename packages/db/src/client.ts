import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "./generated/prisma/client.ts";

export type Database = PrismaClient;

/**
 * How long a transaction waits for a free pooled connection. A plain query waits in the pg
 * pool without a limit; Prisma's default of 2 s for transactions turned a busy moment (200
 * connections of bench/load.bench.ts) into 500s on uploads.
 */
const TRANSACTION_MAX_WAIT_MS = 60_000;

/** One Prisma client over a pg pool; the process keeps one for its lifetime. */
export function createDatabase(connectionString: string, options: { max?: number } = {}): Database {
  const adapter = new PrismaPg({ connectionString, max: options.max ?? 10 });
  return new PrismaClient({ adapter, transactionOptions: { maxWait: TRANSACTION_MAX_WAIT_MS } });
}
