import { execFile } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { authenticate } from "@svc/core";
import { createDatabase, openEmbeddedPostgres } from "@svc/db";
import { createTestDatabase } from "@svc/testing";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);
const main = path.resolve(import.meta.dirname, "../src/main.ts");

function svc(args: string[], env: Record<string, string>) {
  return run(process.execPath, [main, ...args], { env: { PATH: process.env.PATH, ...env }, timeout: 60_000 });
}

describe("svc CLI", () => {
  it("admin tenant create prints a tenant key that authenticates; admin key create an admin key", async () => {
    const databaseUrl = await createTestDatabase();
    const db = createDatabase(databaseUrl, { max: 1 });
    try {
      const tenant = await svc(["admin", "tenant", "create", "--name", "acme"], { DATABASE_URL: databaseUrl });
      const tenantKey = /api_key:\s+(svc_sk_\S+)/.exec(tenant.stdout)?.[1];
      expect(tenantKey).toMatch(/^svc_sk_[0-9A-Za-z]{43}$/);
      expect(await authenticate(db, tenantKey)).toMatchObject({ kind: "tenant" });

      const admin = await svc(["admin", "key", "create", "--name", "ops"], { DATABASE_URL: databaseUrl });
      const adminKey = /admin_key:\s+(svc_ak_\S+)/.exec(admin.stdout)?.[1];
      expect(await authenticate(db, adminKey)).toMatchObject({ kind: "admin" });
    } finally {
      await db.$disconnect();
    }
  });

  it("works on the embedded database under SVC_DATA_DIR (created by migrate), which keeps its data between runs", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "svc-cli-"));
    chmodSync(dataDir, 0o755);
    try {
      await svc(["migrate"], { SVC_DATA_DIR: dataDir });
      await svc(["admin", "tenant", "create", "--name", "one"], { SVC_DATA_DIR: dataDir });
      const second = await svc(["admin", "tenant", "create", "--name", "two"], { SVC_DATA_DIR: dataDir });
      expect(second.stdout).toMatch(/tenant_id: [0-9a-f-]{36}/);
      const postgres = await openEmbeddedPostgres(path.join(dataDir, "postgres"));
      const db = createDatabase(postgres.url, { max: 1 });
      try {
        expect((await db.tenant.findMany({ orderBy: { createdAt: "asc" } })).map((t) => t.name)).toEqual(["one", "two"]);
      } finally {
        await db.$disconnect();
        await postgres.stop();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it("exits non-zero with the reason when a required option is missing", async () => {
    await expect(svc(["admin", "tenant", "create"], {})).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining("--name"),
    });
  });
});
