import { execFile } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { applyMigrations, createDatabase, openEmbeddedPostgres, readMigrations, readMigrationState } from "@svc/db";
import { connectSql, createEmptyTestDatabase, createTestDatabase } from "@svc/testing";
import { afterEach, describe, expect, it } from "vitest";

const main = path.resolve(import.meta.dirname, "../src/main.ts");
const migrations = readMigrations();
const last = migrations.at(-1)!.name;

interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

function svc(args: string[], env: Record<string, string>): Promise<Result> {
  return new Promise((resolve) => {
    execFile(process.execPath, [main, ...args], { env: { PATH: process.env.PATH, ...env }, timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === "number" ? error.code : -1) : 0, stdout, stderr });
    });
  });
}

const folders: string[] = [];

/** A data folder like the server's SVC_DATA_DIR, with nothing in it yet. */
function newDataDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "svc-cli-"));
  chmodSync(dir, 0o755); // the embedded server runs as the postgres user
  folders.push(dir);
  return dir;
}

function postmasterPid(dataDir: string): number | undefined {
  try {
    const pid = Number(readFileSync(path.join(dataDir, "postgres", "postmaster.pid"), "utf8").split("\n")[0]);
    process.kill(pid, 0);
    return pid;
  } catch {
    return undefined;
  }
}

afterEach(async () => {
  for (const dir of folders.splice(0)) {
    const pid = postmasterPid(dir);
    if (pid) {
      process.kill(pid, "SIGINT");
      while (postmasterPid(dir)) await sleep(50);
    }
    rmSync(dir, { recursive: true, force: true });
  }
});

async function tenantNames(dataDir: string): Promise<string[]> {
  const postgres = await openEmbeddedPostgres(path.join(dataDir, "postgres"), { create: false });
  const db = createDatabase(postgres.url, { max: 1 });
  try {
    return (await db.tenant.findMany({ select: { name: true } })).map((t) => t.name).sort();
  } finally {
    await db.$disconnect();
    await postgres.stop();
  }
}

async function countTenants(url: string): Promise<number> {
  const sql = await connectSql(url);
  try {
    const { rows } = await sql.query<{ count: string }>('SELECT count(*) FROM "tenants"');
    return Number(rows[0]!.count);
  } finally {
    await sql.end();
  }
}

describe("svc never creates or migrates a database by accident", () => {
  it("admin commands refuse a data folder with no database, say what to set, and create nothing", async () => {
    const dataDir = newDataDir();
    const result = await svc(["admin", "tenant", "create", "--name", "acme"], { SVC_DATA_DIR: dataDir });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`svc: no database in ${path.join(dataDir, "postgres")}. Set SVC_DATA_DIR to the data folder`);
    expect(result.stderr).toContain("`svc migrate`");
    expect(result.stdout).toBe("");
    expect(readdirSync(dataDir)).toEqual([]);
  });

  it("migrate creates a new embedded database loudly and lists what it applied; run again, it is up to date", { timeout: 60_000 }, async () => {
    const dataDir = newDataDir();
    const dir = path.join(dataDir, "postgres");
    const first = await svc(["migrate"], { SVC_DATA_DIR: dataDir });
    expect(first.code).toBe(0);
    expect(first.stderr).toContain(`svc: database: embedded PostgreSQL in ${dir} (started for this command)\n`);
    expect(first.stderr).toContain(`svc: !! CREATED A NEW, EMPTY DATABASE in ${dir}\n`);
    expect(first.stdout).toBe(`Applied ${migrations.length} of ${migrations.length} migrations:\n${migrations.map((m) => `  ${m.name}\n`).join("")}`);

    const second = await svc(["migrate"], { SVC_DATA_DIR: dataDir });
    expect(second.code).toBe(0);
    expect(second.stderr).not.toContain("CREATED");
    expect(second.stdout).toBe(`The database is up to date (${migrations.length} migrations); nothing to apply.\n`);
    expect(postmasterPid(dataDir)).toBeUndefined();
  });

  it("says which database it uses, without user or password", async () => {
    const url = await createTestDatabase();
    const result = await svc(["admin", "key", "list"], { DATABASE_URL: url });
    expect(result.code).toBe(0);
    const { host, pathname, password } = new URL(url);
    expect(result.stderr).toBe(`svc: database: postgresql://${host}${pathname}\n`);
    expect(result.stderr).not.toContain(password);
  });

  it("refuses a schema behind this build, names what is pending and changes nothing; migrate applies just that", { timeout: 60_000 }, async () => {
    const url = await createEmptyTestDatabase();
    await applyMigrations(url, migrations.slice(0, -1));

    const refused = await svc(["admin", "tenant", "create", "--name", "acme"], { DATABASE_URL: url });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`svc: the database schema is behind this build: 1 migration to apply (${last}). Run \`svc migrate\``);
    expect(refused.stdout).toBe("");
    expect(await readMigrationState(url)).toEqual({ status: "behind", pending: [last] });
    expect(await countTenants(url)).toBe(0);

    const migrated = await svc(["migrate"], { DATABASE_URL: url });
    expect(migrated.code).toBe(0);
    expect(migrated.stdout).toBe(`Applied 1 of ${migrations.length} migrations:\n  ${last}\n`);
    expect((await svc(["admin", "tenant", "create", "--name", "acme"], { DATABASE_URL: url })).code).toBe(0);
  });

  it("refuses a schema migrated by a newer build, migrate included, naming what it does not know", async () => {
    const url = await createTestDatabase();
    const sql = await connectSql(url);
    await sql.query(
      `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, finished_at, applied_steps_count) VALUES ($1, $2, $3, now(), 1)`,
      ["00000000-0000-4000-8000-000000000001", "0".repeat(64), "29991231000000_from_a_newer_build"],
    );
    await sql.end();
    for (const args of [["admin", "key", "create", "--name", "ops"], ["migrate"]]) {
      const result = await svc(args, { DATABASE_URL: url });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(
        "svc: the database was migrated by a newer svc build: it has 1 migration this build does not know (29991231000000_from_a_newer_build).",
      );
      expect(result.stdout).toBe("");
    }
  });

  it("refuses a database without svc's schema and leaves it empty", async () => {
    const url = await createEmptyTestDatabase();
    const result = await svc(["admin", "tenant", "create", "--name", "acme"], { DATABASE_URL: url });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("svc: the database has no svc schema yet: run `svc migrate`");
    expect(await readMigrationState(url)).toMatchObject({ status: "no-schema" });
  });
});

describe("svc commands at the same time", () => {
  it("two migrate at once on a new folder: one creates it, each migration is applied once", { timeout: 90_000 }, async () => {
    const dataDir = newDataDir();
    const results = await Promise.all([svc(["migrate"], { SVC_DATA_DIR: dataDir }), svc(["migrate"], { SVC_DATA_DIR: dataDir })]);
    expect(results.map((r) => r.code), results.map((r) => r.stderr).join("\n")).toEqual([0, 0]);
    expect(results.filter((r) => r.stderr.includes("CREATED A NEW, EMPTY DATABASE"))).toHaveLength(1);
    const applied = results.flatMap((r) => r.stdout.split("\n").filter((line) => line.startsWith("  ")).map((line) => line.trim()));
    expect(applied.sort()).toEqual(migrations.map((m) => m.name));
    expect(postmasterPid(dataDir)).toBeUndefined();
  });

  it("two admin commands at once against a stopped instance both succeed and leave it stopped", { timeout: 90_000 }, async () => {
    const dataDir = newDataDir();
    expect((await svc(["migrate"], { SVC_DATA_DIR: dataDir })).code).toBe(0);

    const results = await Promise.all([
      svc(["admin", "tenant", "create", "--name", "one"], { SVC_DATA_DIR: dataDir }),
      svc(["admin", "tenant", "create", "--name", "two"], { SVC_DATA_DIR: dataDir }),
    ]);
    expect(results.map((r) => r.code), results.map((r) => r.stderr).join("\n")).toEqual([0, 0]);
    for (const result of results) expect(result.stderr).toMatch(/^svc: database: embedded PostgreSQL in .* \((started for this command|already running)\)$/m);
    expect(postmasterPid(dataDir)).toBeUndefined();
    expect(await tenantNames(dataDir)).toEqual(["one", "two"]);
  });

  it("commands against a running instance leave it running for the process that started it", { timeout: 90_000 }, async () => {
    const dataDir = newDataDir();
    expect((await svc(["migrate"], { SVC_DATA_DIR: dataDir })).code).toBe(0);
    const server = await openEmbeddedPostgres(path.join(dataDir, "postgres")); // as `npm start` does
    try {
      const results = await Promise.all([
        svc(["admin", "tenant", "create", "--name", "one"], { SVC_DATA_DIR: dataDir }),
        svc(["admin", "key", "create", "--name", "ops"], { SVC_DATA_DIR: dataDir }),
      ]);
      expect(results.map((r) => r.code)).toEqual([0, 0]);
      for (const result of results) expect(result.stderr).toContain("(already running)");
      const sql = await connectSql(server.url);
      expect((await sql.query('SELECT name FROM "tenants"')).rows).toEqual([{ name: "one" }]);
      await sql.end();
    } finally {
      await server.stop();
    }
    expect(postmasterPid(dataDir)).toBeUndefined();
  });
});

describe("svc errors", () => {
  it("says why when the embedded PostgreSQL does not start, instead of crashing in its error printer", async () => {
    const dataDir = newDataDir();
    // A folder PostgreSQL refuses (not its owner's, no cluster in it): the server exits at once.
    mkdirSync(path.join(dataDir, "postgres"));
    writeFileSync(path.join(dataDir, "postgres", "PG_VERSION"), "18\n");
    const result = await svc(["admin", "key", "list"], { SVC_DATA_DIR: dataDir });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(new RegExp(`^svc: the embedded PostgreSQL in ${path.join(dataDir, "postgres")} did not start: \\S.+$`, "m"));
    expect(result.stderr).not.toContain("TypeError");
  });
});
