import { randomUUID } from "node:crypto";
import { createAdminKey, type CreatedTenant } from "@svc/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../helpers/records.ts";
import { startTestService, type TestService } from "../helpers/test-service.ts";
import { insertEndpoint, TEST_ENCRYPTION_KEY } from "../helpers/webhooks.ts";

let svc: TestService;
let adminKey: string;
let tenant: CreatedTenant;
let other: CreatedTenant;

const now = Date.now();
const ago = (ms: number) => new Date(now - ms);
const HOUR = 3_600_000;
const pausedUntil = new Date(now + HOUR);

async function connection(userId: string, provider: string, status: "active" | "needs_reauth" | "disconnected", applicationId = "instance") {
  return svc.db.connection.create({
    data: {
      userId,
      provider,
      status,
      keySource: "instance",
      applicationId,
      ...(status === "needs_reauth" && { brokenReason: "needs_reauth", brokenAction: "reconnect", brokenSince: ago(HOUR) }),
      nextPullAt: new Date(now + 86_400_000),
    },
  });
}

async function syncRun(connectionId: bigint, userId: string, status: "queued" | "running" | "retrying" | "rate_limited" | "failed" | "succeeded", finishedAt?: Date) {
  await svc.db.syncRun.create({
    data: { connectionId, userId, provider: "oura", trigger: "scheduled", status, windowStart: ago(2 * HOUR), windowEnd: ago(HOUR), ...(finishedAt && { finishedAt }) },
  });
}

async function rawObject(userId: string, status: "receiving" | "pending" | "processed" | "failed", byteSize: number, receivedAt: Date) {
  const id = randomUUID();
  await svc.db.rawObject.create({
    // An upload's heartbeat beats while its bytes arrive: here the last one was when it began.
    data: { id, userId, provider: "apple_health", format: "apple-health-ndjson", contentType: "application/x-ndjson", storageKey: id, status, byteSize, receivedAt, heartbeatAt: receivedAt },
  });
}

async function delivery(tenantId: string, endpointId: string, status: "pending" | "running" | "done" | "parked") {
  await svc.db.webhookDelivery.create({ data: { tenantId, endpointId, eventId: randomUUID(), eventType: "webhook.test", body: "{}", status } });
}

/** Everything the pipeline counts, for the tenant; the other tenant gets one of each to stay out of the counts. */
async function seedTenant() {
  const [first, second, third] = [await createUser(svc, tenant.api_key), await createUser(svc, tenant.api_key), await createUser(svc, tenant.api_key)];
  // A user being deleted (as DELETE /v1/users/{id} leaves it until its job ends).
  const leaving = await createUser(svc, tenant.api_key);
  await svc.db.user.update({ where: { id: leaving }, data: { status: "deleting" } });

  const oura = await connection(first, "oura", "active", "instance");
  await connection(second, "oura", "needs_reauth", "instance");
  await connection(third, "oura", "disconnected", "instance");
  await connection(first, "whoop", "active", "whoop-app");
  await svc.db.providerQuota.create({ data: { provider: "oura", bucket: "app:instance", windowStart: ago(HOUR), pausedUntil } });
  // A pause of an application the tenant does not use, and one that is over.
  await svc.db.providerQuota.create({ data: { provider: "whoop", bucket: "app:someone-else", windowStart: ago(HOUR), pausedUntil } });
  await svc.db.providerQuota.create({ data: { provider: "whoop", bucket: "app:whoop-app", windowStart: ago(HOUR), pausedUntil: ago(1000) } });

  for (const status of ["queued", "running", "retrying", "rate_limited"] as const) await syncRun(oura.id, first, status);
  await syncRun(oura.id, first, "failed", ago(HOUR));
  await syncRun(oura.id, first, "failed", ago(48 * HOUR));
  await syncRun(oura.id, first, "succeeded", ago(HOUR));
  await syncRun(oura.id, first, "succeeded", ago(2 * HOUR));

  await rawObject(first, "pending", 100, ago(HOUR));
  await rawObject(first, "receiving", 0, ago(5_000));
  await rawObject(first, "receiving", 0, ago(60_000)); // its heartbeat lapsed (its process died): not running
  await rawObject(first, "failed", 10, ago(HOUR));
  await rawObject(first, "processed", 1000, ago(HOUR));
  await rawObject(first, "processed", 5000, ago(48 * HOUR));
  for (const reason of ["no unit", "no time"]) {
    await svc.db.rejectedRecord.create({ data: { userId: first, provider: "apple_health", recordKind: "quantity_sample", reason } });
  }

  const ok = await insertEndpoint(svc, tenant.tenant_id, "https://hooks.example.com/ok");
  const failing = await insertEndpoint(svc, tenant.tenant_id, "https://hooks.example.com/failing");
  await svc.db.webhookEndpoint.update({ where: { id: failing.id }, data: { failingSince: ago(HOUR) } });
  await insertEndpoint(svc, tenant.tenant_id, "https://hooks.example.com/off", { status: "disabled" });
  for (const status of ["pending", "running", "done", "parked"] as const) await delivery(tenant.tenant_id, ok.id, status);
  await delivery(tenant.tenant_id, failing.id, "parked");
}

async function seedOtherTenant() {
  const user = await createUser(svc, other.api_key);
  const row = await connection(user, "oura", "needs_reauth", "other-app");
  await syncRun(row.id, user, "queued");
  await rawObject(user, "pending", 7, ago(HOUR));
  const endpoint = await insertEndpoint(svc, other.tenant_id, "https://hooks.example.com/other");
  await delivery(other.tenant_id, endpoint.id, "pending");
}

beforeAll(async () => {
  svc = await startTestService({ SVC_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY });
  adminKey = (await createAdminKey(svc.db, "pipeline")).admin_key;
  tenant = await svc.createTenant();
  other = await svc.createTenant();
  await seedTenant();
  await seedOtherTenant();
});
afterAll(() => svc?.stop());

const source = (body: any, slug: string) => body.sources.find((entry: { slug: string }) => entry.slug === slug);

describe("GET /v1/pipeline", () => {
  it("counts the tenant's users, sources, pulls, processing, storage and deliveries, and nothing of another tenant", async () => {
    const answer = await svc.call("/v1/pipeline", { key: tenant.api_key });
    expect(answer.status, answer.text).toBe(200);
    const body = answer.body;
    expect(Date.parse(body.generated_at)).toBeGreaterThanOrEqual(now - 60_000);
    expect(body.users).toEqual({ active: 3, deleting: 1 });
    expect(source(body, "oura")).toEqual({
      slug: "oura",
      name: "Oura",
      kinds: ["push"],
      enabled: false, // no instance keys in this test
      connections: { active: 1, needs_reauth: 1, disconnected: 1 },
      broken: 1,
      paused_until: pausedUntil.toISOString(),
    });
    expect(source(body, "whoop")).toMatchObject({ connections: { active: 1, needs_reauth: 0, disconnected: 0 }, broken: 0, paused_until: null });
    expect(source(body, "xiaomi")).toMatchObject({ kinds: ["device"], enabled: true, connections: { active: 0, needs_reauth: 0, disconnected: 0 } });
    expect(body.sync).toEqual({ queued: 1, running: 1, retrying: 1, rate_limited: 1, failed_24h: 1, succeeded_24h: 2 });
    expect(body.processing).toEqual({ pending: 1, running: 1, parked: 1, rejected_records: 2 });
    expect(body.storage).toEqual({ raw_objects_24h: 3, raw_bytes_24h: 1110 });
    expect(body.delivery).toEqual({ endpoints: 3, endpoints_failing: 1, endpoints_disabled: 1, pending: 2, parked: 2 });
  });

  it("lists every source of the build, and a source switched off for the tenant as not enabled", async () => {
    const providers = (await svc.call("/v1/admin/providers", { key: adminKey })).body.data.map((entry: { slug: string }) => entry.slug);
    expect(((await svc.call("/v1/pipeline", { key: tenant.api_key })).body.sources as Array<{ slug: string }>).map((entry) => entry.slug)).toEqual(providers);
    const off = await svc.call(`/v1/admin/tenants/${tenant.tenant_id}/providers/xiaomi`, { method: "PATCH", key: adminKey, body: { enabled: false } });
    expect(off.status, off.text).toBe(200);
    expect(source((await svc.call("/v1/pipeline", { key: tenant.api_key })).body, "xiaomi").enabled).toBe(false);
    expect(source((await svc.call("/v1/pipeline", { key: other.api_key })).body, "xiaomi").enabled).toBe(true);
  });

  it("holds counts only: every value is an integer, a name, a flag or a time", async () => {
    const body = (await svc.call("/v1/pipeline", { key: other.api_key })).body;
    expect(body.users).toEqual({ active: 1, deleting: 0 });
    expect(body.sync).toEqual({ queued: 1, running: 0, retrying: 0, rate_limited: 0, failed_24h: 0, succeeded_24h: 0 });
    expect(source(body, "oura")).toMatchObject({ connections: { active: 0, needs_reauth: 1, disconnected: 0 }, broken: 1, paused_until: null });
    const walk = (value: unknown, path: string): void => {
      if (typeof value === "number") expect(Number.isInteger(value), path).toBe(true);
      else if (Array.isArray(value)) value.forEach((item, i) => walk(item, `${path}[${i}]`));
      else if (value !== null && typeof value === "object") for (const [key, item] of Object.entries(value)) walk(item, `${path}.${key}`);
      else expect(["string", "boolean"].includes(typeof value) || value === null, path).toBe(true);
    };
    walk(body, "pipeline");
  });

  it("takes a tenant key: 401 without one, 403 for an admin key", async () => {
    expect((await svc.call("/v1/pipeline")).status).toBe(401);
    expect((await svc.call("/v1/pipeline", { key: adminKey })).status).toBe(403);
  });
});

describe("GET /v1/admin/tenants/{tenant_id}/pipeline", () => {
  it("answers the tenant's pipeline and records pipeline.read in both logs", async () => {
    const asTenant = (await svc.call("/v1/pipeline", { key: tenant.api_key })).body;
    const asAdmin = await svc.call(`/v1/admin/tenants/${tenant.tenant_id}/pipeline`, { key: adminKey });
    expect(asAdmin.status, asAdmin.text).toBe(200);
    expect({ ...asAdmin.body, generated_at: null }).toEqual({ ...asTenant, generated_at: null });
    const entry = (await svc.call("/v1/audit-log?limit=1", { key: tenant.api_key })).body.data[0];
    expect(entry).toMatchObject({ actor: { kind: "admin" }, action: "pipeline.read", target: { tenant_id: tenant.tenant_id } });
  });

  it("records a dashboard's repeated reads once per 10 minutes and admin key, not once per poll", async () => {
    const pipelineReads = async () => svc.db.auditEntry.count({ where: { tenantId: tenant.tenant_id, action: "pipeline.read" } });
    const before = await pipelineReads();
    for (let poll = 0; poll < 3; poll++) {
      expect((await svc.call(`/v1/admin/tenants/${tenant.tenant_id}/pipeline`, { key: adminKey })).status).toBe(200);
    }
    expect(await pipelineReads()).toBe(Math.max(before, 1));
    // Another admin key's reads are its own entry; an entry older than the window lets the next read write again.
    const second = (await createAdminKey(svc.db, "second admin")).admin_key;
    await svc.call(`/v1/admin/tenants/${tenant.tenant_id}/pipeline`, { key: second });
    expect(await pipelineReads()).toBe(Math.max(before, 1) + 1);
    await svc.db.auditEntry.updateMany({ where: { tenantId: tenant.tenant_id, action: "pipeline.read" }, data: { createdAt: new Date(Date.now() - 11 * 60_000) } });
    await svc.call(`/v1/admin/tenants/${tenant.tenant_id}/pipeline`, { key: adminKey });
    expect(await pipelineReads()).toBe(Math.max(before, 1) + 2);
  });

  it("404 for an unknown tenant, 400 for a tenant_id that is not a uuid, 403 for a tenant key", async () => {
    expect((await svc.call(`/v1/admin/tenants/${randomUUID()}/pipeline`, { key: adminKey })).status).toBe(404);
    expect((await svc.call("/v1/admin/tenants/nope/pipeline", { key: adminKey })).status).toBe(400);
    expect((await svc.call(`/v1/admin/tenants/${tenant.tenant_id}/pipeline`, { key: tenant.api_key })).status).toBe(403);
  });
});
