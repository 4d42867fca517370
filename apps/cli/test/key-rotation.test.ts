import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { authenticate, createAdminKey, createTenant, createTenantApiKey, listAdminKeyInfo, revokeAdminKeyById, revokeTenantApiKeyById } from "@svc/core";
import { createDatabase, type Database } from "@svc/db";
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

const capture = (pattern: RegExp, text: string) => pattern.exec(text)?.[1] ?? "";

describe("tenant API key rotation", () => {
  it("svc admin tenant key create / list / revoke: the new key works, the revoked one is refused", { timeout: 90_000 }, async () => {
    const { tenant_id: tenantId, api_key: oldKey } = await createTenant(db, "acme");
    const created = await svc(["admin", "tenant", "key", "create", "--tenant", tenantId, "--name", "backend-2026"]);
    const newKey = capture(/api_key:\s+(\S+)/, created.stdout);
    expect(await authenticate(db, newKey)).toMatchObject({ kind: "tenant", tenantId });

    const listed = await svc(["admin", "tenant", "key", "list", "--tenant", tenantId]);
    expect(listed.stdout).toMatch(/active\s+initial/);
    expect(listed.stdout).toMatch(/active\s+backend-2026/);
    expect(listed.stdout).not.toContain("svc_sk_");
    const oldKeyId = capture(/^(\S+)\s.*initial$/m, listed.stdout);

    expect((await svc(["admin", "tenant", "key", "revoke", "--tenant", tenantId, "--key", oldKeyId])).code).toBe(0);
    await expect(authenticate(db, oldKey)).rejects.toMatchObject({ code: "unauthorized" });
    expect(await authenticate(db, newKey)).toMatchObject({ kind: "tenant" });
  });

  it("refuses to revoke the last active key, an unknown key, a revoked key, or another tenant's key", async () => {
    const { tenant_id: tenantId, api_key: onlyKey } = await createTenant(db, "solo");
    const other = await createTenant(db, "other");
    const [onlyKeyId] = (await db.tenantApiKey.findMany({ where: { tenantId }, select: { id: true } })).map((row) => row.id);
    await expect(revokeTenantApiKeyById(db, tenantId, onlyKeyId!)).rejects.toMatchObject({ code: "conflict", message: expect.stringMatching(/last active key/) });
    expect(await authenticate(db, onlyKey)).toMatchObject({ kind: "tenant" });

    const second = await createTenantApiKey(db, tenantId, "second");
    await expect(revokeTenantApiKeyById(db, other.tenant_id, second.id)).rejects.toMatchObject({ code: "not_found" });
    await expect(revokeTenantApiKeyById(db, tenantId, "00000000-0000-4000-8000-000000000000")).rejects.toMatchObject({ code: "not_found" });
    await revokeTenantApiKeyById(db, tenantId, onlyKeyId!);
    await expect(revokeTenantApiKeyById(db, tenantId, onlyKeyId!)).rejects.toMatchObject({ code: "conflict" });
    await expect(createTenantApiKey(db, "00000000-0000-4000-8000-000000000000", "x")).rejects.toMatchObject({ code: "not_found" });
  });

  it("two revocations at once leave one active key", async () => {
    const { tenant_id: tenantId } = await createTenant(db, "racing");
    const second = await createTenantApiKey(db, tenantId, "second");
    const [first] = await db.tenantApiKey.findMany({ where: { tenantId, name: "initial" }, select: { id: true } });
    const results = await Promise.allSettled([revokeTenantApiKeyById(db, tenantId, first!.id), revokeTenantApiKeyById(db, tenantId, second.id)]);
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(1);
    expect(await db.tenantApiKey.count({ where: { tenantId, revokedAt: null } })).toBe(1);
  });
});

describe("admin key rotation", () => {
  it("svc admin key list / revoke", { timeout: 90_000 }, async () => {
    const key = await createAdminKey(db, "ops");
    expect((await svc(["admin", "key", "list"])).stdout).toMatch(new RegExp(`${key.id}.*active\\s+ops`));
    expect((await svc(["admin", "key", "revoke", "--key", key.id])).code).toBe(0);
    await expect(authenticate(db, key.admin_key)).rejects.toMatchObject({ code: "unauthorized" });
    await expect(revokeAdminKeyById(db, key.id)).rejects.toMatchObject({ code: "not_found" });
    expect((await listAdminKeyInfo(db)).find((row) => row.id === key.id)?.revoked_at).toBeInstanceOf(Date);
  });
});
