import { randomBytes } from "node:crypto";
import pg from "pg";
import { inject } from "vitest";
import "./provided-context.ts";

/**
 * A new database copied from the run's migrated template: each test file gets its own,
 * so files run in parallel without seeing each other's rows.
 */
export function createTestDatabase(): Promise<string> {
  return createDatabaseOnTestServer({ fromTemplate: true });
}

/** A new database with nothing in it (no migrations), on the test run's server. */
export function createEmptyTestDatabase(): Promise<string> {
  return createDatabaseOnTestServer({ fromTemplate: false });
}

async function createDatabaseOnTestServer({ fromTemplate }: { fromTemplate: boolean }): Promise<string> {
  const templateUrl = new URL(inject("templateDatabaseUrl"));
  const template = templateUrl.pathname.slice(1);
  const name = `test_${randomBytes(6).toString("hex")}`;
  const adminUrl = new URL(templateUrl);
  adminUrl.pathname = "/postgres";
  const client = new pg.Client({ connectionString: adminUrl.toString() });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}${fromTemplate ? ` TEMPLATE ${template}` : ""}`);
  } finally {
    await client.end();
  }
  const url = new URL(templateUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** A plain SQL client on a test database, for assertions on stored rows. */
export async function connectSql(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return client;
}
