import { applyMigrations, readMigrations, readMigrationState } from "@svc/db";
import { connectSql, createEmptyTestDatabase, createTestDatabase } from "@svc/testing";
import { describe, expect, it } from "vitest";

const migrations = readMigrations();
const names = migrations.map((m) => m.name);
const last = names.at(-1)!;

async function sql(url: string, text: string, values: unknown[] = []): Promise<void> {
  const client = await connectSql(url);
  try {
    await client.query(text, values);
  } finally {
    await client.end();
  }
}

describe("readMigrationState", () => {
  it("no schema: a database svc never migrated", async () => {
    expect(await readMigrationState(await createEmptyTestDatabase())).toEqual({ status: "no-schema", pending: names });
  });

  it("up to date: every committed migration applied", async () => {
    expect(await readMigrationState(await createTestDatabase())).toEqual({ status: "up-to-date", applied: names });
  });

  it("behind: names the migrations still to apply", async () => {
    const url = await createEmptyTestDatabase();
    await applyMigrations(url, migrations.slice(0, -1));
    expect(await readMigrationState(url)).toEqual({ status: "behind", pending: [last] });
  });

  it("ahead: names the migrations a newer build applied", async () => {
    const url = await createTestDatabase();
    await sql(url, `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, finished_at, applied_steps_count) VALUES ($1, $2, $3, now(), 1)`, [
      "00000000-0000-4000-8000-000000000001",
      "0".repeat(64),
      "29991231000000_from_the_future",
    ]);
    expect(await readMigrationState(url)).toEqual({ status: "ahead", unknown: ["29991231000000_from_the_future"], pending: [] });
  });

  it("changed: an applied migration whose file differs", async () => {
    const url = await createTestDatabase();
    await sql(url, `UPDATE "_prisma_migrations" SET checksum = $1 WHERE migration_name = $2`, ["0".repeat(64), names[0]]);
    expect(await readMigrationState(url)).toEqual({ status: "changed", changed: [names[0]] });
  });

  it("failed: a migration started and never finished", async () => {
    const url = await createEmptyTestDatabase();
    await applyMigrations(url, migrations.slice(0, -1));
    await sql(url, `INSERT INTO "_prisma_migrations" (id, checksum, migration_name) VALUES ($1, $2, $3)`, [
      "00000000-0000-4000-8000-000000000002",
      migrations.at(-1)!.checksum,
      last,
    ]);
    expect(await readMigrationState(url)).toEqual({ status: "failed", failed: [last] });
  });

  it("ignores rolled-back attempts", async () => {
    const url = await createTestDatabase();
    await sql(url, `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, rolled_back_at) VALUES ($1, $2, $3, now())`, [
      "00000000-0000-4000-8000-000000000003",
      "0".repeat(64),
      "29991231000000_rolled_back",
    ]);
    expect((await readMigrationState(url)).status).toBe("up-to-date");
  });
});
