import { expect } from "vitest";
import { applyMigrations, readMigrations } from "@svc/db";
import { connectSql, createEmptyTestDatabase } from "@svc/testing";

/**
 * A new empty database migrated up to, not including, the migration whose name ends with
 * `name` (the upgrade a test checks), with a client on it; `migrations` and `at` place that
 * migration in the list.
 */
export async function databaseBeforeMigration(name: string) {
  const url = await createEmptyTestDatabase();
  const migrations = readMigrations();
  const at = migrations.findIndex((m) => m.name.endsWith(name));
  expect(at).toBeGreaterThan(0);
  await applyMigrations(url, migrations.slice(0, at));
  return { url, sql: await connectSql(url), migrations, at };
}
