import { execFile } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { authenticate, createTenant, createUser, DEFAULT_SYNC_SETTINGS, fileRawStore, runTenantDeletion, type CoreDeps } from "@svc/core";
import { createDatabase, type Database } from "@svc/db";
import { JobQueue } from "@svc/jobs";
import { createTestDatabase } from "@svc/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const main = path.resolve(import.meta.dirname, "../src/main.ts");

let databaseUrl: string;
let db: Database;

beforeAll(async () => {
  databaseUrl = await createTestDatabase();
  db = createDatabase(databaseUrl, { max: 2 });
});
afterAll(() => db?.$disconnect());

function svc(args: string[]) {
  return run(process.execPath, [main, ...args], { env: { PATH: process.env.PATH, DATABASE_URL: databaseUrl }, timeout: 60_000 }).then(
    (done) => ({ code: 0, ...done }),
    (failed: { code: number; stdout: string; stderr: string }) => failed,
  );
}

const jobIdOf = (stdout: string) => /job_id:\s+(\S+)/.exec(stdout)?.[1] ?? "";

describe("svc admin tenant delete", () => {
  it("refuses a --confirm that is not the tenant's name, and an unknown tenant; nothing changes", { timeout: 90_000 }, async () => {
    const tenant = await createTenant(db, "Acme Health");
    const wrong = await svc(["admin", "tenant", "delete", "--tenant", tenant.tenant_id, "--confirm", "acme"]);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('is named "Acme Health". Nothing was deleted.');
    expect(wrong.stderr).toMatch(/svc: database: /);
    expect(await authenticate(db, tenant.api_key)).toMatchObject({ kind: "tenant" });
    expect(await db.tenantDeletionJob.count({ where: { tenantId: tenant.tenant_id } })).toBe(0);

    const unknown = await svc(["admin", "tenant", "delete", "--tenant", "3f0d0a7e-4c57-4b9f-8f67-4c2a8b8e7a10", "--confirm", "x"]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("No such tenant");
    expect((await svc(["admin", "tenant", "delete", "--tenant", "nope", "--confirm", "x"])).code).toBe(1);
    expect((await svc(["admin", "tenant", "delete", "--tenant", tenant.tenant_id])).code).toBe(1);
  });

  it("starts the deletion: prints the job, the tenant's key is refused at once, asked again it is the same job", { timeout: 90_000 }, async () => {
    const tenant = await createTenant(db, "globex");
    await createUser(db, tenant.tenant_id, "g-1");
    const started = await svc(["admin", "tenant", "delete", "--tenant", tenant.tenant_id, "--confirm", "globex"]);
    expect(started.code, started.stderr).toBe(0);
    const jobId = jobIdOf(started.stdout);
    expect(jobId).toMatch(/^[0-9a-f-]{36}$/);
    expect(started.stdout).toContain("status: pending");
    await expect(authenticate(db, tenant.api_key)).rejects.toMatchObject({ code: "unauthorized" });
    expect(await db.tenant.findUnique({ where: { id: tenant.tenant_id }, select: { status: true } })).toEqual({ status: "deleting" });
    // No audit entry: the command line has no admin key; the job records who asked (null: the command line).
    expect(await db.tenantDeletionJob.findUnique({ where: { id: jobId }, select: { requestedBy: true, usersTotal: true } })).toEqual({ requestedBy: null, usersTotal: 1 });

    const again = await svc(["admin", "tenant", "delete", "--tenant", tenant.tenant_id, "--confirm", "globex"]);
    expect(again.code, again.stderr).toBe(0);
    expect(jobIdOf(again.stdout)).toBe(jobId);
  });

  it("--wait follows the deletion to its end while the instance's worker deletes it", { timeout: 90_000 }, async () => {
    const tenant = await createTenant(db, "initech");
    const user = await createUser(db, tenant.tenant_id, "i-1");
    // The instance's worker: the tenant-delete job on this database.
    const jobs = await JobQueue.start(databaseUrl, () => undefined);
    const deps = { db, jobs, sync: DEFAULT_SYNC_SETTINGS, rawStore: fileRawStore(mkdtempSync(path.join(tmpdir(), "svc-raw-"))) } as unknown as CoreDeps;
    await jobs.work("tenant-delete", ({ tenant_deletion_job_id }) => runTenantDeletion(deps, tenant_deletion_job_id));
    try {
      const waited = await svc(["admin", "tenant", "delete", "--tenant", tenant.tenant_id, "--confirm", "initech", "--wait"]);
      expect(waited.code, waited.stderr).toBe(0);
      expect(waited.stdout).toMatch(/status: done\s*$/);
      expect(waited.stderr).toContain("done: 1 of 1 users deleted");
    } finally {
      await jobs.stop();
    }
    expect(await db.tenant.count({ where: { id: tenant.tenant_id } })).toBe(0);
    expect(await db.user.count({ where: { id: user.id } })).toBe(0);
    const gone = await svc(["admin", "tenant", "delete", "--tenant", tenant.tenant_id, "--confirm", "initech"]);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toContain("No such tenant");
  });
});
