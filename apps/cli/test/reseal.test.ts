import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { createSealer, createTenant } from "@svc/core";
import { createDatabase } from "@svc/db";
import { createTestDatabase } from "@svc/testing";
import { expect, it } from "vitest";

const run = promisify(execFile);
const main = path.resolve(import.meta.dirname, "../src/main.ts");

const reseal = (env: Record<string, string>) =>
  run(process.execPath, [main, "admin", "reseal"], { env: { PATH: process.env.PATH, ...env }, timeout: 60_000 }).then(
    (done) => ({ code: 0, ...done }),
    (failed: { code: number; stdout: string; stderr: string }) => failed,
  );

it("admin reseal moves every secret from a previous key to the current one; a secret under an unknown key keeps it failing", async () => {
  const databaseUrl = await createTestDatabase();
  const db = createDatabase(databaseUrl, { max: 1 });
  const [oldKey, newKey, lostKey] = [randomBytes(32), randomBytes(32), randomBytes(32)];
  const oldSealer = createSealer({ current: oldKey });
  const newSealerOnly = createSealer({ current: newKey });
  try {
    const { tenant_id: tenantId } = await createTenant(db, "acme");
    const endpoint = await db.webhookEndpoint.create({ data: { tenantId, url: "https://example.com/hook", eventTypes: [], secretSealed: oldSealer.seal("whsec_one") } });
    await db.instanceProvider.create({ data: { provider: "oura", sealedKeys: oldSealer.seal('{"CLIENT_SECRET":"instance"}') } });
    await db.tenantProviderKeys.create({ data: { tenantId, provider: "oura", applicationId: "tenant:x", sealedKeys: oldSealer.seal('{"CLIENT_SECRET":"tenant"}') } });
    const env = { DATABASE_URL: databaseUrl, SVC_ENCRYPTION_KEY: newKey.toString("base64"), SVC_PREVIOUS_ENCRYPTION_KEYS: oldKey.toString("base64") };

    // Without the current key the CLI refuses rather than sealing everything with a key of its own.
    const keyless = await reseal({ DATABASE_URL: databaseUrl, SVC_DATA_DIR: mkdtempSync(path.join(tmpdir(), "svc-reseal-")), SVC_PREVIOUS_ENCRYPTION_KEYS: oldKey.toString("base64") });
    expect(keyless.code).toBe(1);
    expect(keyless.stderr).toMatch(/Set SVC_ENCRYPTION_KEY/);
    expect(oldSealer.open((await db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } })).secretSealed)).toBe("whsec_one");

    const first = await reseal(env);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/webhook_secrets\s+resealed 1, under another key 0/);
    expect(first.stdout).toMatch(/previous keys can be dropped/);
    const stored = await db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });
    expect(newSealerOnly.open(stored.secretSealed)).toBe("whsec_one");
    expect(newSealerOnly.open((await db.instanceProvider.findUniqueOrThrow({ where: { provider: "oura" } })).sealedKeys!)).toBe('{"CLIENT_SECRET":"instance"}');
    const tenantKeys = await db.tenantProviderKeys.findUniqueOrThrow({ where: { tenantId_provider: { tenantId, provider: "oura" } } });
    expect(newSealerOnly.open(tenantKeys.sealedKeys)).toBe('{"CLIENT_SECRET":"tenant"}');

    // Running it again changes nothing.
    expect((await reseal(env)).stdout).toMatch(/webhook_secrets\s+resealed 0, under another key 0/);

    await db.webhookEndpoint.create({ data: { tenantId, url: "https://example.com/other", eventTypes: [], secretSealed: createSealer({ current: lostKey }).seal("whsec_two") } });
    const lost = await reseal(env);
    expect(lost.code).toBe(1);
    expect(lost.stdout).toMatch(/webhook_secrets\s+resealed 0, under another key 1/);
    expect(lost.stderr).toMatch(/1 stored secrets are sealed with a key other than the current one/);
    for (const output of [first.stdout, lost.stdout, lost.stderr]) {
      expect(output).not.toContain("whsec_");
      expect(output).not.toContain("CLIENT_SECRET");
    }
  } finally {
    await db.$disconnect();
  }
});
