import path from "node:path";
import { applyMigrations, createDatabase, openEmbeddedPostgres, type Database } from "@svc/db";
import type { CliEnv } from "./env.ts";

/**
 * Runs `work` against the instance's database: DATABASE_URL, or the embedded PostgreSQL
 * under SVC_DATA_DIR (the running server's, or one started for this command). Pending
 * migrations are applied first, so the CLI works before the first `npm start`.
 */
export async function withDatabase<T>(env: CliEnv, work: (db: Database) => Promise<T>): Promise<T> {
  const postgres = env.DATABASE_URL
    ? { url: env.DATABASE_URL, stop: async () => {} }
    : await openEmbeddedPostgres(path.resolve(env.SVC_DATA_DIR, "postgres"));
  try {
    await applyMigrations(postgres.url);
    const db = createDatabase(postgres.url, { max: 2 });
    try {
      return await work(db);
    } finally {
      await db.$disconnect();
    }
  } finally {
    await postgres.stop();
  }
}
