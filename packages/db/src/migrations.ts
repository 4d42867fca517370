import { createHash, randomUUID } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { migrationsDir } from "./repo-root.ts";

export interface Migration {
  name: string;
  sql: string;
  /** Prisma's checksum: SHA-256 hex of migration.sql. */
  checksum: string;
}

/**
 * Migrations whose text was replaced after it shipped, with the checksums of the texts it
 * replaced: a database that applied an earlier text is at the same schema, its data already
 * where the new text leaves it for a job to move (docs/decisions.md, "Online data moves").
 */
export const REPLACED_CHECKSUMS: Readonly<Record<string, readonly string[]>> = {
  "20261126181143_quantity_sample_chunks": ["0acca7ed22fc581d6199ad11bc8891cab8eb3579083dbac27f47a8c71a221ece"],
  "20261127330000_grouped_rr_and_route_points": ["4c67a11bfa5b893f9c869132ce4670336e48fa1eda97d37cb10fe6f1df5fd323"],
  "20261127340000_category_sample_series": ["498376e4930adae00647a2b97f8bfc494663ed670b81bed877d4a412e9cbb6ad"],
};

/** Whether a migration applied with `appliedChecksum` is the committed one (or a text it replaced). */
export function isAppliedText(migration: Migration, appliedChecksum: string): boolean {
  return appliedChecksum === migration.checksum || (REPLACED_CHECKSUMS[migration.name]?.includes(appliedChecksum) ?? false);
}

/** Same key Prisma's schema engine takes, so `prisma migrate deploy` and we never overlap. */
const ADVISORY_LOCK_KEY = 72707369;

// Prisma's own bookkeeping table, created exactly as its schema engine does.
const CREATE_BOOKKEEPING_TABLE = `
CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

/** The committed migrations in Prisma's folder format, oldest first. */
export function readMigrations(dir: string = migrationsDir()): Migration[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const sql = readFileSync(path.join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    });
}

/**
 * Applies every pending migration, each in its own transaction, keeping Prisma's
 * `_prisma_migrations` rows. A session advisory lock serialises concurrent starters:
 * the second waits, then finds nothing left to do.
 */
export async function applyMigrations(
  connectionString: string,
  migrations: Migration[] = readMigrations(),
): Promise<string[]> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [ADVISORY_LOCK_KEY]);
    await client.query(CREATE_BOOKKEEPING_TABLE);
    const { rows } = await client.query<{ migration_name: string; checksum: string; finished_at: Date | null }>(
      `SELECT migration_name, checksum, finished_at FROM "_prisma_migrations" WHERE rolled_back_at IS NULL`,
    );
    const applied = new Map(rows.map((row) => [row.migration_name, row]));
    const done: string[] = [];
    for (const migration of migrations) {
      const previous = applied.get(migration.name);
      if (previous?.finished_at) {
        if (!isAppliedText(migration, previous.checksum)) {
          throw new Error(`migration ${migration.name} was changed after it was applied`);
        }
        continue;
      }
      if (previous) throw new Error(`migration ${migration.name} failed earlier; resolve it before starting`);
      await applyOne(client, migration);
      done.push(migration.name);
    }
    return done;
  } finally {
    await client.query("SELECT pg_advisory_unlock($1)", [ADVISORY_LOCK_KEY]).catch(() => undefined);
    await client.end();
  }
}

async function applyOne(client: pg.Client, migration: Migration): Promise<void> {
  const id = randomUUID();
  await client.query("BEGIN");
  try {
    await client.query(
      `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at) VALUES ($1, $2, $3, now())`,
      [id, migration.checksum, migration.name],
    );
    await client.query(migration.sql);
    await client.query(
      `UPDATE "_prisma_migrations" SET finished_at = now(), applied_steps_count = 1 WHERE id = $1`,
      [id],
    );
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK");
    throw new Error(`migration ${migration.name} failed: ${(error as Error).message}`);
  }
}
