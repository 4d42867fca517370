import pg from "pg";
import { isAppliedText, readMigrations, type Migration } from "./migrations.ts";

/**
 * How a database's schema compares with this build's committed migrations, read from
 * Prisma's `_prisma_migrations` (rows not rolled back). Checked in this order: a database
 * svc never migrated, a migration that failed half-way, an applied migration whose file
 * was edited since, migrations this build does not know (a newer build migrated it),
 * migrations still to apply.
 */
export type MigrationState =
  | { status: "up-to-date"; applied: string[] }
  /** No `_prisma_migrations` table: an empty database, or one svc never migrated. */
  | { status: "no-schema"; pending: string[] }
  /** Started and never finished (the runner rolls back, so this is a crash or Prisma's own). */
  | { status: "failed"; failed: string[] }
  | { status: "changed"; changed: string[] }
  /** `pending` can be non-empty too: histories that went apart. */
  | { status: "ahead"; unknown: string[]; pending: string[] }
  | { status: "behind"; pending: string[] };

export async function readMigrationState(
  connectionString: string,
  migrations: Migration[] = readMigrations(),
): Promise<MigrationState> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    const { rows: tables } = await client.query<{ exists: boolean }>(
      `SELECT to_regclass('"_prisma_migrations"') IS NOT NULL AS exists`,
    );
    if (!tables[0]?.exists) return { status: "no-schema", pending: migrations.map((m) => m.name) };
    const { rows } = await client.query<{ migration_name: string; checksum: string; finished_at: Date | null }>(
      `SELECT migration_name, checksum, finished_at FROM "_prisma_migrations" WHERE rolled_back_at IS NULL ORDER BY migration_name`,
    );
    return compare(rows, migrations);
  } finally {
    await client.end();
  }
}

function compare(
  rows: { migration_name: string; checksum: string; finished_at: Date | null }[],
  migrations: Migration[],
): MigrationState {
  const known = new Map(migrations.map((m) => [m.name, m]));
  const finished = rows.filter((row) => row.finished_at !== null);
  const finishedNames = new Set(finished.map((row) => row.migration_name));
  // A failed attempt that was later applied again is history, not a failure.
  const failed = rows.filter((row) => row.finished_at === null && !finishedNames.has(row.migration_name)).map((row) => row.migration_name);
  if (failed.length > 0) return { status: "failed", failed };
  const changed = finished.filter((row) => known.has(row.migration_name) && !isAppliedText(known.get(row.migration_name)!, row.checksum));
  if (changed.length > 0) return { status: "changed", changed: changed.map((row) => row.migration_name) };
  const pending = migrations.filter((m) => !finishedNames.has(m.name)).map((m) => m.name);
  const unknown = [...finishedNames].filter((name) => !known.has(name)).sort();
  if (unknown.length > 0) return { status: "ahead", unknown, pending };
  if (pending.length > 0) return { status: "behind", pending };
  return { status: "up-to-date", applied: migrations.map((m) => m.name) };
}
