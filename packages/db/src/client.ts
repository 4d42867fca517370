import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "./generated/prisma/client.ts";

export type Database = PrismaClient;

/** One Prisma client over a pg pool; the process keeps one for its lifetime. */
export function createDatabase(connectionString: string, options: { max?: number } = {}): Database {
  const adapter = new PrismaPg({ connectionString, max: options.max ?? 10 });
  return new PrismaClient({ adapter });
}
