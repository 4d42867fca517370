import { applyMigrations, readMigrations } from "@svc/db";
import { connectSql, createEmptyTestDatabase, createTestDatabase } from "@svc/testing";
import { describe, expect, it } from "vitest";
import { diffDatabaseToSchema } from "../schema-diff.ts";

describe("migrations", () => {
  it("agree with prisma/schema.prisma (fails when the two drift apart)", async () => {
    // The template database of the test run has every committed migration applied.
    const url = await createTestDatabase();
    const missing = await diffDatabaseToSchema(url);
    expect(missing, "run `npm run migrate:create -- <name>` and commit the migration").toBe("");
  });

  it("see drift when the database lacks part of the schema", async () => {
    const url = await createTestDatabase();
    const sql = await connectSql(url);
    await sql.query('ALTER TABLE "users" DROP COLUMN "external_ref" CASCADE');
    await sql.end();
    expect(await diffDatabaseToSchema(url)).toContain("external_ref");
  });

  it("apply once under concurrent starters and keep Prisma's bookkeeping", async () => {
    const url = await createEmptyTestDatabase();
    const results = await Promise.all([applyMigrations(url), applyMigrations(url), applyMigrations(url)]);
    const migrations = readMigrations();
    expect(results.flat().sort()).toEqual(migrations.map((m) => m.name).sort());
    const sql = await connectSql(url);
    const { rows } = await sql.query(
      'SELECT migration_name, checksum, finished_at, applied_steps_count FROM "_prisma_migrations" ORDER BY migration_name',
    );
    await sql.end();
    expect(rows.map((row) => row.migration_name)).toEqual(migrations.map((m) => m.name));
    for (const [index, row] of rows.entries()) {
      expect(row.checksum).toBe(migrations[index]!.checksum);
      expect(row.finished_at).not.toBeNull();
      expect(row.applied_steps_count).toBe(1);
    }
    expect(await applyMigrations(url)).toEqual([]);
  });

  it("refuse a migration edited after it was applied", async () => {
    const url = await createTestDatabase();
    const [first] = readMigrations();
    const edited = { ...first!, checksum: "0".repeat(64) };
    await expect(applyMigrations(url, [edited])).rejects.toThrow("changed after it was applied");
  });
});
