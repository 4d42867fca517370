import { randomUUID } from "node:crypto";
import type { AppRouter } from "@svc/api";
import { createAdminKey, eventBody, type CreatedTenant } from "@svc/core";
import { createTRPCClient, httpBatchLink } from "@trpc/client";
import superjson from "superjson";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, expectBadRequest, writeSamples } from "../helpers/records.ts";
import { startTestService, type TestService } from "../helpers/test-service.ts";
import { insertEndpoint, TEST_ENCRYPTION_KEY, testSealer, type TestEndpoint } from "../helpers/webhooks.ts";

// The admin routes the console needs beyond the spec's table: the tenant list and create,
// and mirrors of users, sample types, sync runs, webhooks and deliveries (with retry).
// SVC_ROLE=api: no worker picks up a retried delivery, so the test sees the rows the route wrote.

let svc: TestService;
let adminKey: string;
let adminKeyId: string;
let tenant: CreatedTenant;
let other: CreatedTenant;
let userId: string;
let runId: number;
let endpoint: TestEndpoint;
let disabledEndpoint: TestEndpoint;

const t0 = Date.parse("2026-03-01T08:00:00Z");
const sample = (i: number, source: string) => ({
  type: "heart_rate",
  value: 60 + i,
  unit: "count/min",
  start_date: new Date(t0 + i * 60_000),
  source,
  device: null,
});

/** A delivery row written straight into the database, in the state a test needs. */
async function insertDelivery(endpointId: string, status: "pending" | "running" | "done" | "parked", tenantId = tenant.tenant_id): Promise<number> {
  const eventId = randomUUID();
  const body = eventBody({ id: eventId, type: "tag.created", timestamp: new Date(), data: { user_id: randomUUID(), external_ref: null, tag_id: randomUUID() } });
  const row = await svc.db.webhookDelivery.create({
    data: {
      endpointId,
      tenantId,
      eventId,
      eventType: "tag.created",
      body,
      status,
      attempts: status === "pending" ? 0 : 8,
      attemptsMade: status === "pending" ? 0 : 8,
      lastStatusCode: status === "parked" ? 503 : null,
      lastError: status === "parked" ? "HTTP 503" : null,
      nextAttemptAt: status === "pending" ? new Date() : null,
    },
    select: { id: true },
  });
  await svc.db.webhookAttempt.create({
    data: { deliveryId: row.id, attempt: 1, startedAt: new Date(t0), durationMs: 12, statusCode: 503, error: "HTTP 503", responseBodyExcerpt: "busy" },
  });
  return Number(row.id);
}

let parkedId: number;
let pendingId: number;
let disabledParkedId: number;

beforeAll(async () => {
  svc = await startTestService({ SVC_ROLE: "api", SVC_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY });
  const created = await createAdminKey(svc.db, "console");
  adminKey = created.admin_key;
  adminKeyId = created.id;
  tenant = await svc.createTenant("acme");
  other = await svc.createTenant("globex");
  userId = await createUser(svc, tenant.api_key);
  await createUser(svc, tenant.api_key);
  await writeSamples(svc, userId, "garmin", Array.from({ length: 3 }, (_, i) => sample(i, "garmin")));
  await writeSamples(svc, userId, "oura", Array.from({ length: 2 }, (_, i) => sample(i + 10, "oura")));
  // A type outside the catalog (a custom metric a device wrote): listed with unit null.
  await svc.db.quantitySampleStream.create({
    data: { userId, type: "custom_focus_score", provider: "apple_health", sourceKey: "x", onBody: false, maxDurationSeconds: 0, firstStart: new Date(t0), lastStart: new Date(t0 + 3_600_000) },
  });
  const connection = await svc.db.connection.create({
    data: {
      userId,
      provider: "oura",
      keySource: "instance",
      applicationId: "instance",
      sealedTokens: testSealer().seal(JSON.stringify({ access_token: "a", refresh_token: "r", token_type: "bearer" })),
      nextPullAt: new Date(Date.now() + 86_400_000),
    },
  });
  const run = await svc.db.syncRun.create({
    data: { connectionId: connection.id, userId, provider: "oura", trigger: "manual", status: "failed", error: "The provider answered 500.", windowStart: new Date(t0), windowEnd: new Date(t0 + 3_600_000) },
  });
  runId = Number(run.id);
  endpoint = await insertEndpoint(svc, tenant.tenant_id, "https://hooks.example.com/svc", { sealer: testSealer() });
  disabledEndpoint = await insertEndpoint(svc, tenant.tenant_id, "https://hooks.example.com/off", { sealer: testSealer(), status: "disabled" });
  parkedId = await insertDelivery(endpoint.id, "parked");
  pendingId = await insertDelivery(endpoint.id, "pending");
  disabledParkedId = await insertDelivery(disabledEndpoint.id, "parked");
});
afterAll(() => svc?.stop());

const mirror = (tenantId: string, path: string) => `/v1/admin/tenants/${tenantId}${path}`;
const auditCount = () => svc.db.auditEntry.count();
/** Newest entry of the instance's audit log, and of the tenant's. */
const lastAdminEntry = async () => (await svc.call("/v1/admin/audit-log?limit=1", { key: adminKey })).body.data[0];
const lastTenantEntry = async (key = tenant.api_key) => (await svc.call("/v1/audit-log?limit=1", { key })).body.data[0];

/** Each new read mirror: its tenant route, and the audit entry a read writes. */
const MIRRORS = () => [
  { path: "/users", tenantPath: "/v1/users", action: "users.read", target: { user_id: null, resource_type: null, resource_id: null } },
  {
    path: `/users/${userId}/sync-runs`,
    tenantPath: `/v1/users/${userId}/sync-runs`,
    action: "sync_runs.read",
    target: { user_id: userId, resource_type: null, resource_id: null },
  },
  { path: "/webhooks", tenantPath: "/v1/webhooks", action: "webhooks.read", target: { user_id: null, resource_type: null, resource_id: null } },
  {
    path: `/webhooks/${endpoint.id}/deliveries`,
    tenantPath: `/v1/webhooks/${endpoint.id}/deliveries`,
    action: "webhook.deliveries.read",
    target: { user_id: null, resource_type: "webhook", resource_id: endpoint.id },
  },
  {
    path: `/webhooks/${endpoint.id}/deliveries/${parkedId}`,
    tenantPath: `/v1/webhooks/${endpoint.id}/deliveries/${parkedId}`,
    action: "webhook.delivery.read",
    target: { user_id: null, resource_type: "webhook_delivery", resource_id: String(parkedId) },
  },
];

describe("GET /v1/admin/tenants", () => {
  it("lists every tenant oldest first with its active users, pages, and records nothing", async () => {
    const before = await auditCount();
    const answer = await svc.call("/v1/admin/tenants", { key: adminKey });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toEqual({
      data: [
        { id: tenant.tenant_id, name: "acme", created_at: expect.any(String), users: 2, status: "active", deletion_job_id: null },
        { id: other.tenant_id, name: "globex", created_at: expect.any(String), users: 0, status: "active", deletion_job_id: null },
      ],
      next_cursor: null,
    });
    const first = await svc.call("/v1/admin/tenants?limit=1", { key: adminKey });
    expect(first.body.data.map((t: { id: string }) => t.id)).toEqual([tenant.tenant_id]);
    const second = await svc.call(`/v1/admin/tenants?limit=1&cursor=${encodeURIComponent(first.body.next_cursor)}`, { key: adminKey });
    expect(second.body.data.map((t: { id: string }) => t.id)).toEqual([other.tenant_id]);
    expect(answer.text).not.toContain(tenant.api_key);
    expectBadRequest(await svc.call("/v1/admin/tenants?limit=1001", { key: adminKey }), "limit");
    expectBadRequest(await svc.call("/v1/admin/tenants?cursor=nonsense", { key: adminKey }), "cursor");
    expect(await auditCount()).toBe(before);
  });

  it("counts only active users: a user being deleted leaves the count", async () => {
    const leaving = await createUser(svc, other.api_key);
    const count = async () => (await svc.call("/v1/admin/tenants", { key: adminKey })).body.data.find((t: { id: string }) => t.id === other.tenant_id).users;
    expect(await count()).toBe(1);
    expect((await svc.call(`/v1/users/${leaving}`, { method: "DELETE", key: other.api_key })).status).toBe(202);
    expect(await count()).toBe(0);
  });
});

describe("GET /v1/admin/tenants/{tenant_id}", () => {
  it("answers the tenant as the list shows it, records nothing; 404 unknown, 400 not a uuid, 403 tenant key", async () => {
    const before = await auditCount();
    const answer = await svc.call(`/v1/admin/tenants/${other.tenant_id}`, { key: adminKey });
    expect(answer.status, answer.text).toBe(200);
    const listed = (await svc.call("/v1/admin/tenants", { key: adminKey })).body.data.find((t: { id: string }) => t.id === other.tenant_id);
    expect(answer.body).toEqual(listed);
    expect((await svc.call("/v1/admin/tenants/00000000-0000-4000-8000-000000000000", { key: adminKey })).status).toBe(404);
    expect((await svc.call("/v1/admin/tenants/nope", { key: adminKey })).status).toBe(400);
    expect((await svc.call(`/v1/admin/tenants/${other.tenant_id}`, { key: other.api_key })).status).toBe(403);
    expect(await auditCount()).toBe(before);
  });
});

describe("POST /v1/admin/tenants", () => {
  it("creates a tenant (201) with its key shown once, Location and no-store; the key works; tenant.create in both logs", async () => {
    const answer = await svc.call("/v1/admin/tenants", { key: adminKey, body: { name: "  initech  " }, headers: { "X-Request-Id": "create-initech" } });
    expect(answer.status, answer.text).toBe(201);
    expect(answer.body).toEqual({ tenant_id: expect.stringMatching(/^[0-9a-f-]{36}$/), name: "initech", api_key: expect.stringMatching(/^svc_sk_/) });
    expect(answer.headers.get("cache-control")).toBe("no-store");
    expect(answer.headers.get("location")).toBe(`/v1/admin/tenants/${answer.body.tenant_id}`);
    const created = answer.body as CreatedTenant;

    const users = await svc.call("/v1/users", { key: created.api_key });
    expect(users.status, users.text).toBe(200);
    expect(users.body.data).toEqual([]);

    const entry = await lastAdminEntry();
    expect(entry).toMatchObject({
      actor: { kind: "admin", id: adminKeyId },
      action: "tenant.create",
      target: { tenant_id: created.tenant_id, user_id: null, provider: null, resource_type: "tenant", resource_id: created.tenant_id },
      request_id: "create-initech",
    });
    expect(await lastTenantEntry(created.api_key)).toEqual(entry);
    // The key is in no log and never read back.
    expect((await svc.call("/v1/admin/audit-log", { key: adminKey })).text).not.toContain(created.api_key);
    expect((await svc.call("/v1/admin/tenants", { key: adminKey })).text).not.toContain(created.api_key);
    expect(svc.logs.join("\n")).not.toContain(created.api_key);
  });

  it("400 for a missing, blank, too long or extra field, or a control character, creating and recording nothing", async () => {
    const tenants = await svc.db.tenant.count();
    const before = await auditCount();
    for (const body of [{}, { name: "" }, { name: "   " }, { name: "x".repeat(101) }, { name: 5 }, { name: "ok", extra: true }, { name: "a\u0000b" }, { name: "a\nb" }]) {
      const answer = await svc.call("/v1/admin/tenants", { key: adminKey, body });
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.headers.get("content-type")).toContain("application/problem+json");
    }
    expect(await svc.db.tenant.count()).toBe(tenants);
    expect(await auditCount()).toBe(before);
  });

  it("takes only an instance admin key (401 without, 403 for a tenant key), creating nothing", async () => {
    const tenants = await svc.db.tenant.count();
    expect((await svc.call("/v1/admin/tenants", { body: { name: "x" } })).status).toBe(401);
    expect((await svc.call("/v1/admin/tenants", { key: tenant.api_key, body: { name: "x" } })).status).toBe(403);
    expect((await svc.call("/v1/admin/tenants", { key: tenant.api_key })).status).toBe(403);
    expect(await svc.db.tenant.count()).toBe(tenants);
  });
});

describe("read mirrors of users, sync runs, webhooks and deliveries", () => {
  it("answer exactly what the tenant route answers, and record the read in both audit logs", async () => {
    for (const route of MIRRORS()) {
      const asTenant = await svc.call(route.tenantPath, { key: tenant.api_key });
      expect(asTenant.status, `${route.tenantPath}: ${asTenant.text}`).toBe(200);
      const asAdmin = await svc.call(mirror(tenant.tenant_id, route.path), { key: adminKey, headers: { "X-Request-Id": `read-${route.action}` } });
      expect(asAdmin.status, `${route.path}: ${asAdmin.text}`).toBe(200);
      expect(asAdmin.body, route.path).toEqual(asTenant.body);
      const entry = await lastAdminEntry();
      expect(entry, route.path).toMatchObject({
        actor: { kind: "admin", id: adminKeyId },
        action: route.action,
        target: { tenant_id: tenant.tenant_id, provider: null, ...route.target },
        request_id: `read-${route.action}`,
      });
      expect(await lastTenantEntry()).toEqual(entry);
    }
    // Query parameters pass through: status filter and paging.
    const parked = await svc.call(mirror(tenant.tenant_id, `/webhooks/${endpoint.id}/deliveries?status=parked`), { key: adminKey });
    expect(parked.body.data.map((d: { id: number }) => d.id)).toEqual([parkedId]);
    const onePage = await svc.call(mirror(tenant.tenant_id, "/users?limit=1"), { key: adminKey });
    expect(onePage.body.data).toHaveLength(1);
    expect(onePage.body.next_cursor).toEqual(expect.any(String));
    const detail = await svc.call(mirror(tenant.tenant_id, `/webhooks/${endpoint.id}/deliveries/${parkedId}`), { key: adminKey });
    expect(detail.body.attempt_history).toHaveLength(1);
    // Nothing about this tenant reached the other tenant's log.
    expect((await svc.call("/v1/audit-log", { key: other.api_key })).body.data.filter((e: { actor: { kind: string } }) => e.actor.kind === "admin")).toEqual([]);
  });

  it("never carry a webhook secret or a provider token", async () => {
    for (const route of MIRRORS()) {
      const text = (await svc.call(mirror(tenant.tenant_id, route.path), { key: adminKey })).text;
      expect(text).not.toContain(endpoint.secret);
      expect(text).not.toContain("secret");
      expect(text).not.toContain("access_token");
    }
  });

  it("404 for an unknown tenant and for a user, endpoint or delivery of another tenant; a refused read records nothing", async () => {
    const before = await auditCount();
    for (const route of MIRRORS()) {
      const unknownTenant = await svc.call(mirror(randomUUID(), route.path), { key: adminKey });
      expect(unknownTenant.status, route.path).toBe(404);
      expect(unknownTenant.headers.get("content-type")).toContain("application/problem+json");
      if (route.path !== "/users" && route.path !== "/webhooks") {
        expect((await svc.call(mirror(other.tenant_id, route.path), { key: adminKey })).status, route.path).toBe(404);
      }
    }
    expect((await svc.call(mirror(tenant.tenant_id, `/users/${randomUUID()}/sync-runs`), { key: adminKey })).status).toBe(404);
    expect((await svc.call(mirror(tenant.tenant_id, `/webhooks/${randomUUID()}/deliveries`), { key: adminKey })).status).toBe(404);
    expect((await svc.call(mirror(tenant.tenant_id, `/webhooks/${endpoint.id}/deliveries/999999999`), { key: adminKey })).status).toBe(404);
    // A delivery of another endpoint of the same tenant.
    expect((await svc.call(mirror(tenant.tenant_id, `/webhooks/${endpoint.id}/deliveries/${disabledParkedId}`), { key: adminKey })).status).toBe(404);
    expect(await auditCount()).toBe(before);
  });

  it("400 for ids that are not uuids or positive integers and for bad queries, recording nothing", async () => {
    const before = await auditCount();
    expectBadRequest(await svc.call(mirror("not-a-uuid", "/users"), { key: adminKey }), "tenant_id");
    expectBadRequest(await svc.call(mirror("not-a-uuid", "/webhooks"), { key: adminKey }), "tenant_id");
    expectBadRequest(await svc.call(mirror(tenant.tenant_id, "/users/nope/sync-runs"), { key: adminKey }), "id");
    expectBadRequest(await svc.call(mirror(tenant.tenant_id, "/webhooks/nope/deliveries"), { key: adminKey }), "webhook_id");
    expectBadRequest(await svc.call(mirror(tenant.tenant_id, `/webhooks/${endpoint.id}/deliveries/abc`), { key: adminKey }), "delivery_id");
    expectBadRequest(await svc.call(mirror(tenant.tenant_id, `/webhooks/${endpoint.id}/deliveries?status=lost`), { key: adminKey }), "status");
    expectBadRequest(await svc.call(mirror(tenant.tenant_id, "/users?limit=0"), { key: adminKey }), "limit");
    expect(await auditCount()).toBe(before);
  });
});

describe("GET /v1/admin/tenants/{tenant_id}/users/{id}/sample-types", () => {
  const path = () => mirror(tenant.tenant_id, `/users/${userId}/sample-types`);

  it("lists the user's types with storage unit, first and last start and providers, no values; sample_types.read in both logs", async () => {
    const answer = await svc.call(path(), { key: adminKey, headers: { "X-Request-Id": "types" } });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toEqual({
      data: [
        { type: "custom_focus_score", unit: null, first_start: "2026-03-01T08:00:00.000Z", last_start: "2026-03-01T09:00:00.000Z", providers: ["apple_health"] },
        { type: "heart_rate", unit: "count/min", first_start: "2026-03-01T08:00:00.000Z", last_start: "2026-03-01T08:11:00.000Z", providers: ["garmin", "oura"] },
      ],
      next_cursor: null,
    });
    expect(answer.text).not.toContain("value");
    const entry = await lastAdminEntry();
    expect(entry).toMatchObject({
      actor: { kind: "admin", id: adminKeyId },
      action: "sample_types.read",
      target: { tenant_id: tenant.tenant_id, user_id: userId, provider: null, resource_type: null, resource_id: null },
      request_id: "types",
    });
    expect(await lastTenantEntry()).toEqual(entry);
  });

  it("an empty list for a user without samples; 404 unknown tenant or user (other tenant's too), 400 bad ids; refused reads record nothing", async () => {
    const empty = await createUser(svc, tenant.api_key);
    expect((await svc.call(mirror(tenant.tenant_id, `/users/${empty}/sample-types`), { key: adminKey })).body).toEqual({ data: [], next_cursor: null });
    const before = await auditCount();
    expect((await svc.call(mirror(randomUUID(), `/users/${userId}/sample-types`), { key: adminKey })).status).toBe(404);
    expect((await svc.call(mirror(other.tenant_id, `/users/${userId}/sample-types`), { key: adminKey })).status).toBe(404);
    expect((await svc.call(mirror(tenant.tenant_id, `/users/${randomUUID()}/sample-types`), { key: adminKey })).status).toBe(404);
    expectBadRequest(await svc.call(mirror(tenant.tenant_id, "/users/nope/sample-types"), { key: adminKey }), "id");
    expectBadRequest(await svc.call(mirror("nope", `/users/${userId}/sample-types`), { key: adminKey }), "tenant_id");
    expect(await auditCount()).toBe(before);
  });

  it("lets the console chart a type with the samples mirror: merged view with outranked, or every source", async () => {
    const merged = await svc.call(mirror(tenant.tenant_id, `/users/${userId}/samples?type=heart_rate&view=merged`), { key: adminKey });
    expect(merged.status, merged.text).toBe(200);
    expect(merged.body.data[0]).toHaveProperty("outranked");
    const all = await svc.call(mirror(tenant.tenant_id, `/users/${userId}/samples?type=heart_rate&view=all`), { key: adminKey });
    expect(all.body.data).toHaveLength(5);
    const stats = await svc.call(mirror(tenant.tenant_id, `/users/${userId}/samples/stats?type=heart_rate&start=2026-03-01&end=2026-03-02&view=all`), { key: adminKey });
    expect(stats.status, stats.text).toBe(200);
    expect(new Set(stats.body.buckets.map((b: { provider: string }) => b.provider))).toEqual(new Set(["garmin", "oura"]));
  });
});

describe("POST /v1/admin/tenants/{tenant_id}/webhooks/{webhook_id}/deliveries/{delivery_id}/retry", () => {
  const retry = (tenantId: string, endpointId: string, delivery: number | string, key = adminKey) =>
    svc.call(mirror(tenantId, `/webhooks/${endpointId}/deliveries/${delivery}/retry`), { method: "POST", key });
  const queuedDeliveryIds = async () =>
    (await svc.db.$queryRaw<Array<{ data: { delivery_id: string } }>>`SELECT data FROM pgboss.job WHERE name = 'webhook-deliver'`).map((row) => row.data.delivery_id);

  it("queues a parked delivery again (202) as the tenant route does; webhook.delivery.retry in both logs", async () => {
    const delivery = await insertDelivery(endpoint.id, "parked");
    const answer = await svc.call(mirror(tenant.tenant_id, `/webhooks/${endpoint.id}/deliveries/${delivery}/retry`), {
      method: "POST",
      key: adminKey,
      headers: { "X-Request-Id": "retry-parked" },
    });
    expect(answer.status, answer.text).toBe(202);
    expect(answer.body).toMatchObject({ id: delivery, status: "pending", attempts: 0, last_status_code: null, last_error: null });
    expect(answer.body.attempt_history).toHaveLength(1);
    expect(await statusOf(delivery)).toBe("pending");
    expect(await queuedDeliveryIds()).toContain(String(delivery));
    const entry = await lastAdminEntry();
    expect(entry).toMatchObject({
      actor: { kind: "admin", id: adminKeyId },
      action: "webhook.delivery.retry",
      target: { tenant_id: tenant.tenant_id, user_id: null, provider: null, resource_type: "webhook_delivery", resource_id: String(delivery) },
      request_id: "retry-parked",
    });
    expect(await lastTenantEntry()).toEqual(entry);
  });

  it("refuses what the tenant route refuses (409 pending, 409 disabled endpoint, 404 other tenant or unknown), changing and recording nothing", async () => {
    const before = await auditCount();
    const pending = await retry(tenant.tenant_id, endpoint.id, pendingId);
    const pendingAsTenant = await svc.call(`/v1/webhooks/${endpoint.id}/deliveries/${pendingId}/retry`, { method: "POST", key: tenant.api_key });
    expect(pending.status).toBe(409);
    expect(pendingAsTenant.status).toBe(409);
    expect(pending.body.detail).toBe(pendingAsTenant.body.detail);
    expect((await retry(tenant.tenant_id, disabledEndpoint.id, disabledParkedId)).status).toBe(409);
    expect(await statusOf(disabledParkedId)).toBe("parked");
    expect((await retry(other.tenant_id, endpoint.id, parkedId)).status).toBe(404);
    expect((await retry(randomUUID(), endpoint.id, parkedId)).status).toBe(404);
    expect((await retry(tenant.tenant_id, endpoint.id, 999_999_999)).status).toBe(404);
    expect((await retry(tenant.tenant_id, endpoint.id, disabledParkedId)).status).toBe(404);
    expectBadRequest(await retry(tenant.tenant_id, endpoint.id, "0"), "delivery_id");
    expectBadRequest(await retry("nope", endpoint.id, parkedId), "tenant_id");
    expect(await statusOf(pendingId)).toBe("pending");
    expect(await statusOf(parkedId)).toBe("parked");
    expect(await queuedDeliveryIds()).not.toContain(String(parkedId));
    expect(await auditCount()).toBe(before);
  });
});

describe("access", () => {
  it("every new route takes only an instance admin key: 401 without a secret, 403 for a tenant key, recording nothing", async () => {
    const before = await auditCount();
    const reads = [
      "/v1/admin/tenants",
      ...MIRRORS().map((route) => mirror(tenant.tenant_id, route.path)),
      mirror(tenant.tenant_id, `/users/${userId}/sample-types`),
    ];
    for (const path of reads) {
      const anonymous = await svc.call(path);
      expect(anonymous.status, path).toBe(401);
      expect(anonymous.headers.get("www-authenticate")).toBe("Bearer");
      expect((await svc.call(path, { key: tenant.api_key })).status, path).toBe(403);
    }
    const retry = mirror(tenant.tenant_id, `/webhooks/${endpoint.id}/deliveries/${parkedId}/retry`);
    expect((await svc.call(retry, { method: "POST" })).status).toBe(401);
    expect((await svc.call(retry, { method: "POST", key: tenant.api_key })).status).toBe(403);
    expect(await statusOf(parkedId)).toBe("parked");
    expect(await auditCount()).toBe(before);
  });

  it("are served to the console over /trpc with the same answers", async () => {
    const consoleClient = createTRPCClient<AppRouter>({
      links: [httpBatchLink({ url: `${svc.url}/trpc`, transformer: superjson, headers: { authorization: `Bearer ${adminKey}` } })],
    });
    const tenants = await consoleClient.adminTenants.listTenants.query({});
    expect(tenants.data.map((t) => t.id)).toContain(tenant.tenant_id);
    const types = await consoleClient.adminMirrors.listTenantSampleTypes.query({ tenant_id: tenant.tenant_id, id: userId });
    expect(types.data.map((t) => t.type)).toEqual(["custom_focus_score", "heart_rate"]);
    const runs = await consoleClient.adminMirrors.listTenantSyncRuns.query({ tenant_id: tenant.tenant_id, id: userId });
    expect(runs.data.map((r) => r.id)).toEqual([runId]);
    const created = await consoleClient.adminTenants.createTenant.mutate({ name: "from the console" });
    expect(created.api_key).toMatch(/^svc_sk_/);
  });
});

async function statusOf(id: number) {
  return (await svc.db.webhookDelivery.findUniqueOrThrow({ where: { id: BigInt(id) }, select: { status: true } })).status;
}
