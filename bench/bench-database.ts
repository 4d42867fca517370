import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { applyMigrations, createDatabase } from "@svc/db";
import { openBenchPostgres, resetStatements } from "./pg-stats.ts";

/**
 * A migrated embedded PostgreSQL in a new temporary folder, with the service's client (`db`,
 * a pool of 4) and a plain client (`sql`) for the hand-written reference queries; `close`
 * stops it and removes the folder.
 */
export async function openBenchDatabase() {
  const dataDir = mkdtempSync(path.join(tmpdir(), "svc-bench-"));
  chmodSync(dataDir, 0o755);
  const postgres = await openBenchPostgres(path.join(dataDir, "postgres"));
  await applyMigrations(postgres.url);
  const db = createDatabase(postgres.url, { max: 4 });
  const sql = new pg.Client({ connectionString: postgres.url });
  await sql.connect();
  await resetStatements(sql);
  const close = async () => {
    await sql.end();
    await db.$disconnect();
    await postgres.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  return { dataDir, postgres, db, sql, close };
}
