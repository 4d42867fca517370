import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { applyMigrations, openEmbeddedPostgres } from "@svc/db";

/** A throwaway embedded PostgreSQL with every committed migration applied. */
export async function withMigratedScratchDatabase<T>(work: (url: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(path.join(tmpdir(), "svc-scratch-pg-"));
  chmodSync(dir, 0o755); // the embedded server runs as the postgres user
  const postgres = await openEmbeddedPostgres(path.join(dir, "pg"));
  try {
    await applyMigrations(postgres.url);
    return await work(postgres.url);
  } finally {
    await postgres.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
