import { randomUUID } from "node:crypto";
import { applicationIdOf, createAdminKey, createSealer, parseEncryptionKey, PROVIDER_CONFIG_TTL_MS, ProviderConfig } from "@svc/core";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createUser, mintToken } from "../helpers/records.ts";
import { ACME, TEST_CATALOG } from "../helpers/keyed-connector.ts";
import { startTestService, type CallOptions, type TestService } from "../helpers/test-service.ts";

const ENCRYPTION_KEY = Buffer.alloc(32, 7).toString("base64");
/** zeta runs from the environment; oura's environment lacks its secret (status error). */
const ENV = {
  SVC_ENCRYPTION_KEY: ENCRYPTION_KEY,
  SVC_ZETA_CLIENT_ID: "zeta-client-000111",
  SVC_ZETA_CLIENT_SECRET: "zeta-SECRET-never-shown-1",
  SVC_ZETA_REGION: "eu",
  SVC_OURA_CLIENT_ID: "oura-client-000222",
};
/** Every secret value a test sends or configures: none may appear in an answer or a log line. */
const SECRETS = ["zeta-SECRET-never-shown-1", "acme-SECRET-instance-1", "acme-SECRET-tenant-A1", "acme-SECRET-tenant-A2", "acme-SECRET-tenant-B"];

let svc: TestService;
let adminKey: string;
let adminKeyId: string;
let tenant: { tenant_id: string; api_key: string };
const answers: string[] = [];

beforeAll(async () => {
  svc = await startTestService(ENV, { providers: TEST_CATALOG });
  const created = await createAdminKey(svc.db, "test");
  adminKey = created.admin_key;
  adminKeyId = created.id;
  tenant = await svc.createTenant();
});
afterAll(() => svc?.stop());

/** An admin call; every answer's text is kept to check that no secret value ever comes back. */
async function admin(path: string, options: CallOptions = {}) {
  const answer = await svc.call(path, { key: adminKey, ...options });
  answers.push(answer.text);
  return answer;
}

const tenantPath = (tenantId: string, provider: string) => `/v1/admin/tenants/${tenantId}/providers/${provider}`;

/** A connection row as the connect flow leaves it (the flow itself is tested elsewhere). */
async function connection(
  tenantKey: string,
  provider: string,
  made: { keySource: "instance" | "tenant" | "built_in"; keys?: Record<string, string>; status?: "active" | "needs_reauth" },
) {
  const userId = await createUser(svc, tenantKey);
  const applicationId = made.keys ? applicationIdOf(ACME, made.keys) : "built_in";
  const row = await svc.db.connection.create({
    data: {
      userId,
      provider,
      keySource: made.keySource,
      applicationId,
      status: made.status ?? "active",
      providerUserId: `pu-${userId}`,
      // Not due: the sync engine's planner leaves it alone during the test.
      nextPullAt: new Date(Date.now() + 86_400_000),
    },
  });
  return { userId, id: row.id };
}

const statusOf = async (id: bigint) => (await svc.db.connection.findFirstOrThrow({ where: { id } })).status;
const eventTypes = async (userId: string) =>
  (await svc.db.outboxEvent.findMany({ where: { userId }, orderBy: { createdAt: "asc" } })).map((event) => ({ type: event.type, data: event.data }));

describe("admin provider routes: who may call", () => {
  it("401 without a secret, 403 for a tenant key", async () => {
    expect((await svc.call("/v1/admin/providers")).status).toBe(401);
    expect((await svc.call("/v1/admin/providers", { key: tenant.api_key })).status).toBe(403);
    const patch = await svc.call(tenantPath(tenant.tenant_id, "xiaomi"), { method: "PATCH", key: tenant.api_key, body: { enabled: false } });
    expect(patch.status).toBe(403);
  });
});

describe("instance providers", () => {
  it("lists every provider of the build with its status and source", async () => {
    const answer = await admin("/v1/admin/providers");
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.next_cursor).toBeNull();
    const bySlug = new Map<string, any>(answer.body.data.map((p: { slug: string }) => [p.slug, p]));
    expect([...bySlug.keys()]).toEqual(TEST_CATALOG.all().map((p) => p.slug));

    expect(bySlug.get("xiaomi")).toEqual({
      slug: "xiaomi",
      name: "Xiaomi",
      kinds: ["device"],
      status: "active",
      enabled: true,
      source: null,
      keys: [],
      error: null,
      urls: { redirect: null, inbound: null },
      updated_at: null,
      updated_by: null,
      retirement: null,
    });
    expect(bySlug.get("demo")).toMatchObject({ status: "built_in", enabled: true, source: null, keys: [], error: null });
    expect(bySlug.get("acme")).toMatchObject({ status: "not_configured", source: null, error: null });
    expect(bySlug.get("oura")).toMatchObject({ status: "error", source: "env", error: expect.stringContaining("CLIENT_SECRET") });
  });

  it("shows environment keys by variable, values of public keys only", async () => {
    const zeta = (await admin("/v1/admin/providers/zeta")).body;
    expect(zeta).toEqual({
      slug: "zeta",
      name: "Zeta Fitness",
      kinds: ["push"],
      status: "active",
      enabled: true,
      source: "env",
      keys: [
        { name: "CLIENT_ID", env: "SVC_ZETA_CLIENT_ID", required: true, secret: false, set: true, value: "zeta-client-000111" },
        { name: "CLIENT_SECRET", env: "SVC_ZETA_CLIENT_SECRET", required: true, secret: true, set: true, value: null },
        { name: "REGION", env: "SVC_ZETA_REGION", required: false, secret: false, set: true, value: "eu" },
      ],
      error: null,
      urls: { redirect: `${svc.url}/oauth/zeta/callback`, inbound: `${svc.url}/providers/zeta/notifications` },
      updated_at: null,
      updated_by: null,
      retirement: null,
    });
    expect((await admin("/v1/admin/providers/nope")).status).toBe(404);
  });

  it("saves instance keys from the console with the key rules; the environment wins as a whole", async () => {
    const put = (provider: string, keys: Record<string, string>) => admin(`/v1/admin/providers/${provider}/keys`, { method: "PUT", body: { keys } });
    const missing = await put("acme", { CLIENT_ID: "acme-client-inst-01" });
    expect(missing.status).toBe(400);
    expect(missing.body.detail).toContain("CLIENT_SECRET");
    const unknown = await put("acme", { CLIENT_ID: "acme-client-inst-01", CLIENT_SECRET: "acme-SECRET-instance-1", COLOR: "red" });
    expect(unknown.status).toBe(400);
    expect(unknown.body.detail).toContain("COLOR");
    const refused = await put("acme", { CLIENT_ID: "acme-client-inst-01", CLIENT_SECRET: "acme-SECRET-instance-1", REGION: "mars" });
    expect(refused.status).toBe(422);
    expect(refused.body.detail).toBe("REGION must be eu or us.");
    expect((await put("zeta", { CLIENT_ID: "other-client-0001", CLIENT_SECRET: "acme-SECRET-instance-1" })).status).toBe(409);
    expect((await put("demo", {})).status).toBe(409);
    expect((await put("xiaomi", { CLIENT_ID: "x" })).status).toBe(409);
    expect((await put("nope", { CLIENT_ID: "x" })).status).toBe(404);
    expect((await admin("/v1/admin/providers/acme")).body.status).toBe("not_configured");

    const saved = await put("acme", { CLIENT_ID: "acme-client-inst-01", CLIENT_SECRET: "acme-SECRET-instance-1" });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body).toMatchObject({ slug: "acme", status: "active", source: "console", enabled: true, updated_by: adminKeyId, error: null, reauth_required: 0 });
    expect(saved.body.keys[0]).toMatchObject({ name: "CLIENT_ID", set: true, value: "acme-client-inst-01" });
    expect(saved.body.keys[1]).toMatchObject({ name: "CLIENT_SECRET", set: true, value: null });
    const row = await svc.db.instanceProvider.findUniqueOrThrow({ where: { provider: "acme" } });
    expect(row.sealedKeys).not.toContain("acme-SECRET-instance-1");
    expect(await tenantListing(tenant.api_key)).toContain("acme");
  });

  it("switches a provider off for the whole instance, cancelling its queued pulls, and forgets console settings", async () => {
    const other = await svc.createTenant();
    const made = await connection(other.api_key, "acme", { keySource: "instance", keys: { CLIENT_ID: "acme-client-inst-01" } });
    const run = await queuedRun(made);

    const off = await admin("/v1/admin/providers/acme", { method: "PATCH", body: { enabled: false } });
    expect(off.status, off.text).toBe(200);
    expect(off.body).toMatchObject({ status: "off", enabled: false, source: "console", updated_by: adminKeyId });
    expect(await tenantListing(tenant.api_key)).not.toContain("acme");
    expect((await svc.db.syncRun.findFirstOrThrow({ where: { id: run } })).status).toBe("cancelled");
    const tenantSwitch = await admin(tenantPath(tenant.tenant_id, "acme"), { method: "PATCH", body: { enabled: true } });
    expect(tenantSwitch.body).toMatchObject({ instance_status: "off", enabled: true, available: false });
    expect(await statusOf(made.id)).toBe("active");

    expect((await admin("/v1/admin/providers/xiaomi", { method: "PATCH", body: { enabled: false } })).status).toBe(409);
    expect((await admin("/v1/admin/providers/acme", { method: "PATCH", body: {} })).status).toBe(400);

    const forgotten = await admin("/v1/admin/providers/acme", { method: "DELETE" });
    expect(forgotten.status, forgotten.text).toBe(200);
    expect(forgotten.body).toMatchObject({ status: "not_configured", enabled: true, source: null, updated_at: null, updated_by: null });
    expect(forgotten.body.keys.every((key: { set: boolean }) => !key.set)).toBe(true);
    expect(await statusOf(made.id)).toBe("active");
    expect((await admin("/v1/admin/providers/acme", { method: "DELETE" })).status).toBe(404);
    expect((await admin("/v1/admin/providers/zeta", { method: "DELETE" })).status).toBe(404);
    expect((await admin("/v1/admin/providers/zeta")).body).toMatchObject({ status: "active", source: "env" });
  });

  it("moves the instance's connections to needs_reauth when console keys name another application", async () => {
    const put = (keys: Record<string, string>) => admin("/v1/admin/providers/acme/keys", { method: "PUT", body: { keys } });
    const first = { CLIENT_ID: "acme-client-inst-01", CLIENT_SECRET: "acme-SECRET-instance-1" };
    expect((await put(first)).body.reauth_required).toBe(0);
    const other = await svc.createTenant();
    const kept = await connection(other.api_key, "acme", { keySource: "instance", keys: first });
    const own = await connection(other.api_key, "acme", { keySource: "tenant", keys: { CLIENT_ID: "acme-client-own-0009" } });

    const same = await put({ ...first });
    expect(same.body.reauth_required).toBe(0);
    const madeWithInstanceKeys = await svc.db.connection.count({ where: { provider: "acme", keySource: "instance", status: "active" } });
    const moved = await put({ ...first, REGION: "us" });
    expect(moved.body.reauth_required).toBe(madeWithInstanceKeys);
    expect(await statusOf(kept.id)).toBe("needs_reauth");
    expect(await statusOf(own.id)).toBe("active");
    await admin("/v1/admin/providers/acme", { method: "DELETE" });
  });
});

describe("tenant provider switch", () => {
  it("404 for an unknown tenant or provider, 400 for a tenant id that is not a uuid", async () => {
    expect((await admin(tenantPath(randomUUID(), "xiaomi"), { method: "PATCH", body: { enabled: false } })).status).toBe(404);
    expect((await admin(tenantPath(tenant.tenant_id, "nope"), { method: "PATCH", body: { enabled: false } })).status).toBe(404);
    expect((await admin(tenantPath("not-a-uuid", "xiaomi"), { method: "PATCH", body: { enabled: false } })).status).toBe(400);
    expect((await admin(`/v1/admin/tenants/${randomUUID()}/providers`)).status).toBe(404);
  });

  it("answers the switch object; off, the provider leaves GET /v1/providers and uploads are 403", async () => {
    const someone = await svc.createTenant();
    const off = await admin(tenantPath(someone.tenant_id, "bluetooth"), { method: "PATCH", body: { enabled: false } });
    expect(off.status, off.text).toBe(200);
    expect(off.body).toEqual({
      slug: "bluetooth",
      name: expect.any(String),
      kinds: ["device"],
      instance_status: "active",
      enabled: false,
      own_keys: false,
      available: false,
      updated_at: expect.any(String),
    });
    expect(await tenantListing(someone.api_key)).not.toContain("bluetooth");
    const user = await createUser(svc, someone.api_key);
    const token = await mintToken(svc, someone.api_key, user, ["upload"]);
    const line = JSON.stringify({ characteristic: "2a37", value: "0048", received_at: "2026-03-01T10:00:00Z" });
    const upload = () =>
      svc.call("/v1/ingest/bluetooth", { method: "POST", rawBody: line, headers: { authorization: `Bearer ${token}`, "content-type": "application/x-ndjson" } });
    expect((await upload()).status).toBe(403);

    const on = await admin(tenantPath(someone.tenant_id, "bluetooth"), { method: "PATCH", body: { enabled: true } });
    expect(on.body).toMatchObject({ enabled: true, available: true });
    expect(await tenantListing(someone.api_key)).toContain("bluetooth");
    expect((await upload()).status).toBe(202);
  });

  it("off cancels the tenant's queued pulls of the provider only; connections and finished runs stay", async () => {
    const someone = await svc.createTenant();
    const other = await svc.createTenant();
    const mine = await connection(someone.api_key, "zeta", { keySource: "instance", keys: { CLIENT_ID: "zeta-client-000111", REGION: "eu" } });
    const theirs = await connection(other.api_key, "zeta", { keySource: "instance", keys: { CLIENT_ID: "zeta-client-000111", REGION: "eu" } });
    const queued = await queuedRun(mine);
    const finished = await queuedRun(mine, "succeeded");
    const otherTenants = await queuedRun(theirs);

    const off = await admin(tenantPath(someone.tenant_id, "zeta"), { method: "PATCH", body: { enabled: false } });
    expect(off.body).toMatchObject({ slug: "zeta", kinds: ["push"], instance_status: "active", enabled: false, own_keys: false, available: false });
    const runStatus = async (id: bigint) => (await svc.db.syncRun.findFirstOrThrow({ where: { id } })).status;
    expect(await runStatus(queued)).toBe("cancelled");
    expect(await runStatus(finished)).toBe("succeeded");
    expect(await runStatus(otherTenants)).toBe("queued");
    expect(await statusOf(mine.id)).toBe("active");
    expect(await tenantListing(someone.api_key)).not.toContain("zeta");
    expect(await tenantListing(other.api_key)).toContain("zeta");
  });

  it("lists the tenant's switch of every provider", async () => {
    const someone = await svc.createTenant();
    await admin(tenantPath(someone.tenant_id, "xiaomi"), { method: "PATCH", body: { enabled: false } });
    const answer = await admin(`/v1/admin/tenants/${someone.tenant_id}/providers`);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.data.map((p: { slug: string }) => p.slug)).toEqual(TEST_CATALOG.all().map((p) => p.slug));
    const bySlug = new Map<string, any>(answer.body.data.map((p: { slug: string }) => [p.slug, p]));
    expect(bySlug.get("xiaomi")).toMatchObject({ enabled: false, available: false, updated_at: expect.any(String) });
    expect(bySlug.get("apple_health")).toMatchObject({ enabled: true, available: true, updated_at: null });
    expect(bySlug.get("demo")).toMatchObject({ kinds: ["oauth"], instance_status: "built_in", available: true });
    expect(bySlug.get("oura")).toMatchObject({ instance_status: "error", enabled: true, own_keys: false, available: false });
    expect(bySlug.get("zeta")).toMatchObject({ instance_status: "active", available: true });
  });
});

describe("tenant provider keys", () => {
  const keysPath = (tenantId: string, provider = "acme") => `${tenantPath(tenantId, provider)}/keys`;
  const put = (tenantId: string, keys: Record<string, string>) => admin(keysPath(tenantId), { method: "PUT", body: { keys } });

  it("GET shows no values; 409 for a provider that takes no keys; 404 for unknown tenant or provider", async () => {
    const answer = await admin(keysPath(tenant.tenant_id));
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toEqual({
      provider: "acme",
      set: false,
      status: "not_set",
      error: null,
      client_id: null,
      keys: [
        { name: "CLIENT_ID", required: true, secret: false, set: false },
        { name: "CLIENT_SECRET", required: true, secret: true, set: false },
        { name: "REGION", required: false, secret: false, set: false },
      ],
      urls: { redirect: `${svc.url}/oauth/acme/callback`, inbound: `${svc.url}/providers/acme/notifications` },
      created_at: null,
      updated_at: null,
      updated_by: null,
    });
    expect((await admin(keysPath(tenant.tenant_id, "xiaomi"))).status).toBe(409);
    expect((await admin(keysPath(tenant.tenant_id, "demo"))).status).toBe(409);
    expect((await admin(keysPath(tenant.tenant_id, "nope"))).status).toBe(404);
    expect((await admin(keysPath(randomUUID()))).status).toBe(404);
  });

  it("PUT refuses missing (400, named), unknown (400) and rule-breaking (422) keys, and keyless providers (409)", async () => {
    const missing = await put(tenant.tenant_id, { REGION: "eu" });
    expect(missing.status).toBe(400);
    expect(missing.body.detail).toContain("CLIENT_ID, CLIENT_SECRET");
    const unknown = await put(tenant.tenant_id, { CLIENT_ID: "acme-client-tenant-A", CLIENT_SECRET: "acme-SECRET-tenant-A1", SCOPE: "all" });
    expect(unknown.status).toBe(400);
    expect(unknown.body.detail).toContain("SCOPE");
    const refused = await put(tenant.tenant_id, { CLIENT_ID: "acme-client-tenant-A", CLIENT_SECRET: "acme-SECRET-tenant-A1", REGION: "mars" });
    expect(refused.status).toBe(422);
    expect(refused.body.detail).toBe("REGION must be eu or us.");
    expect((await admin(keysPath(tenant.tenant_id, "demo"), { method: "PUT", body: { keys: {} } })).status).toBe(409);
    expect((await admin(keysPath(randomUUID()), { method: "PUT", body: { keys: { CLIENT_ID: "a" } } })).status).toBe(404);
    expect((await admin(keysPath(tenant.tenant_id))).body.set).toBe(false);
  });

  it("PUT, rotation, another application and DELETE: reauth_required counts the connections moved, with their events", async () => {
    const someone = await svc.createTenant();
    const instanceKeys = { CLIENT_ID: "acme-client-inst-01" };
    const viaInstance = await connection(someone.api_key, "acme", { keySource: "instance", keys: instanceKeys });
    const alreadyBroken = await connection(someone.api_key, "acme", { keySource: "instance", keys: instanceKeys, status: "needs_reauth" });
    const otherProvider = await connection(someone.api_key, "zeta", { keySource: "instance", keys: instanceKeys });
    const otherTenant = await connection((await svc.createTenant()).api_key, "acme", { keySource: "instance", keys: instanceKeys });

    // The tenant had no keys: its connections made with the instance's keys move.
    const keysA = { CLIENT_ID: "acme-client-tenant-A", CLIENT_SECRET: "acme-SECRET-tenant-A1" };
    const first = await put(someone.tenant_id, keysA);
    expect(first.status, first.text).toBe(200);
    expect(first.body).toMatchObject({
      provider: "acme",
      set: true,
      status: "active",
      error: null,
      client_id: "acme…nt-A",
      updated_by: adminKeyId,
      reauth_required: 1,
    });
    expect(first.body.keys.map((key: { set: boolean }) => key.set)).toEqual([true, true, false]);
    expect(await statusOf(viaInstance.id)).toBe("needs_reauth");
    expect(await statusOf(alreadyBroken.id)).toBe("needs_reauth");
    expect(await statusOf(otherProvider.id)).toBe("active");
    expect(await statusOf(otherTenant.id)).toBe("active");
    const moved = await svc.db.connection.findFirstOrThrow({ where: { id: viaInstance.id } });
    expect(moved).toMatchObject({ brokenReason: "keys_changed", brokenAction: "reconnect" });
    const aboutUser = { user_id: viaInstance.userId, external_ref: null, provider: "acme" };
    expect(await eventTypes(viaInstance.userId)).toEqual([
      { type: "connection.needs_reauth", data: aboutUser },
      { type: "connection.broken", data: { ...aboutUser, reason: "keys_changed", action: "reconnect", retry_at: null } },
    ]);
    expect(await eventTypes(alreadyBroken.userId)).toEqual([]);

    const read = await admin(keysPath(someone.tenant_id));
    expect(read.body).toMatchObject({ set: true, status: "active", client_id: "acme…nt-A", updated_by: adminKeyId, created_at: expect.any(String) });
    expect(read.body.reauth_required).toBeUndefined();
    const switches = await admin(`/v1/admin/tenants/${someone.tenant_id}/providers`);
    expect(switches.body.data.find((p: { slug: string }) => p.slug === "acme")).toMatchObject({ own_keys: true, available: true, instance_status: "not_configured" });
    expect(await tenantListing(someone.api_key)).toContain("acme");

    // A rotated secret of the same application keeps the connections made with the tenant's keys.
    const viaTenant = await connection(someone.api_key, "acme", { keySource: "tenant", keys: keysA });
    const rotated = await put(someone.tenant_id, { ...keysA, CLIENT_SECRET: "acme-SECRET-tenant-A2" });
    expect(rotated.body.reauth_required).toBe(0);
    expect(await statusOf(viaTenant.id)).toBe("active");
    expect(await eventTypes(viaTenant.userId)).toEqual([]);

    // Another REGION names another application.
    const regionB = { ...keysA, CLIENT_SECRET: "acme-SECRET-tenant-A2", REGION: "us" };
    const changed = await put(someone.tenant_id, regionB);
    expect(changed.body.reauth_required).toBe(1);
    expect(await statusOf(viaTenant.id)).toBe("needs_reauth");

    // DELETE: connections made with the tenant's keys now have no application.
    const viaTenantB = await connection(someone.api_key, "acme", { keySource: "tenant", keys: regionB });
    const viaInstanceLater = await connection(someone.api_key, "acme", { keySource: "instance", keys: instanceKeys });
    const removed = await admin(keysPath(someone.tenant_id), { method: "DELETE" });
    expect(removed.status, removed.text).toBe(200);
    expect(removed.body).toMatchObject({ set: false, status: "not_set", client_id: null, created_at: null, reauth_required: 1 });
    expect(await statusOf(viaTenantB.id)).toBe("needs_reauth");
    expect(await statusOf(viaInstanceLater.id)).toBe("active");
    expect((await admin(keysPath(someone.tenant_id), { method: "DELETE" })).body.reauth_required).toBe(0);
    expect(await tenantListing(someone.api_key)).not.toContain("acme");
  });
});

describe("changes seen by other processes", () => {
  it("another process's cached configuration follows within its TTL (under 30 s)", async () => {
    expect(PROVIDER_CONFIG_TTL_MS).toBeLessThanOrEqual(30_000);
    const someone = await svc.createTenant();
    const sealer = createSealer({ current: parseEncryptionKey(ENCRYPTION_KEY, "SVC_ENCRYPTION_KEY") });
    const elsewhere = new ProviderConfig(svc.db, sealer, TEST_CATALOG, { env: ENV, publicUrl: () => svc.url });
    const zeta = TEST_CATALOG.connector("zeta")!;
    expect((await elsewhere.availability(someone.tenant_id, zeta)).available).toBe(true);

    await admin(tenantPath(someone.tenant_id, "zeta"), { method: "PATCH", body: { enabled: false } });
    // This process saw it at once; the other one answers from its cache until the TTL ends.
    expect(await tenantListing(someone.api_key)).not.toContain("zeta");
    expect((await elsewhere.availability(someone.tenant_id, zeta)).available).toBe(true);
    const now = Date.now();
    const clock = vi.spyOn(Date, "now").mockReturnValue(now + PROVIDER_CONFIG_TTL_MS + 1);
    try {
      expect((await elsewhere.availability(someone.tenant_id, zeta)).available).toBe(false);
    } finally {
      clock.mockRestore();
    }
  });
});

describe("secrets", () => {
  it("no secret value appears in any answer or log line", () => {
    expect(answers.length).toBeGreaterThan(20);
    const logs = svc.logs.join("\n");
    for (const secret of SECRETS) {
      for (const text of answers) expect(text).not.toContain(secret);
      expect(logs).not.toContain(secret);
    }
  });
});

async function tenantListing(key: string): Promise<string[]> {
  const answer = await svc.call("/v1/providers", { key });
  expect(answer.status, answer.text).toBe(200);
  return answer.body.data.map((p: { slug: string }) => p.slug);
}

async function queuedRun(made: { userId: string; id: bigint }, status: "queued" | "succeeded" = "queued"): Promise<bigint> {
  const connectionRow = await svc.db.connection.findFirstOrThrow({ where: { id: made.id } });
  const run = await svc.db.syncRun.create({
    data: {
      connectionId: made.id,
      userId: made.userId,
      provider: connectionRow.provider,
      trigger: "scheduled",
      status,
      windowStart: new Date(Date.now() - 3_600_000),
      windowEnd: new Date(),
    },
  });
  return run.id;
}
