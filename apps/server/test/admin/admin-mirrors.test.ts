import { randomUUID } from "node:crypto";
import type { AppRouter } from "@svc/api";
import { createAdminKey, type CreatedTenant } from "@svc/core";
import { createTRPCClient, httpBatchLink } from "@trpc/client";
import superjson from "superjson";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, writeSamples } from "../helpers/records.ts";
import { startTestService, type TestService } from "../helpers/test-service.ts";
import { waitForDeletionJob } from "../helpers/uploads.ts";
import { insertEndpoint, TEST_ENCRYPTION_KEY, testSealer, type TestEndpoint } from "../helpers/webhooks.ts";

let svc: TestService;
let adminKey: string;
let adminKeyId: string;
let tenant: CreatedTenant;
let other: CreatedTenant;
let userId: string;
let runId: number;
let jobId: string;
let endpoint: TestEndpoint;

const t0 = Date.parse("2026-03-01T08:00:00Z");
const ACCESS_TOKEN = "oura-access-token-never-shown";
const heartRate = (i: number) => ({
  type: "heart_rate",
  value: 60 + i,
  unit: "count/min",
  start_date: new Date(t0 + i * 60_000),
  source: "garmin",
  device: "Forerunner 965",
});

beforeAll(async () => {
  svc = await startTestService({ SVC_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY });
  const created = await createAdminKey(svc.db, "mirrors");
  adminKey = created.admin_key;
  adminKeyId = created.id;
  tenant = await svc.createTenant();
  other = await svc.createTenant();
  userId = await createUser(svc, tenant.api_key);
  await writeSamples(svc, userId, "garmin", Array.from({ length: 5 }, (_, i) => heartRate(i)));
  const connection = await svc.db.connection.create({
    data: {
      userId,
      provider: "oura",
      keySource: "instance",
      applicationId: "instance",
      sealedTokens: testSealer().seal(JSON.stringify({ access_token: ACCESS_TOKEN, refresh_token: ACCESS_TOKEN, token_type: "bearer" })),
      nextPullAt: new Date(Date.now() + 86_400_000),
    },
  });
  const run = await svc.db.syncRun.create({
    data: { connectionId: connection.id, userId, provider: "oura", trigger: "manual", status: "failed", error: "The provider answered 500.", windowStart: new Date(t0), windowEnd: new Date(t0 + 3_600_000) },
  });
  runId = Number(run.id);
  const leaving = await createUser(svc, tenant.api_key);
  jobId = (await svc.call(`/v1/users/${leaving}`, { method: "DELETE", key: tenant.api_key })).body.job_id;
  // Finished first: a job still running could finish between the tenant's read and the admin's.
  await waitForDeletionJob(svc, tenant.api_key, jobId);
  endpoint = await insertEndpoint(svc, tenant.tenant_id, "https://hooks.example.com/svc", { sealer: testSealer() });
});
afterAll(() => svc?.stop());

const mirror = (tenantId: string, path: string) => `/v1/admin/tenants/${tenantId}${path}`;
/** Newest entry of the instance's audit log. */
const lastAdminEntry = async () => (await svc.call("/v1/admin/audit-log?limit=1", { key: adminKey })).body.data[0];
const auditCount = () => svc.db.auditEntry.count();

/** Each mirror: its tenant route, and the audit entry a read writes. */
const MIRRORS = () => [
  {
    path: `/webhooks/${endpoint.id}`,
    tenantPath: `/v1/webhooks/${endpoint.id}`,
    action: "webhook.read",
    target: { user_id: null, provider: null, resource_type: "webhook", resource_id: endpoint.id },
  },
  {
    path: `/users/${userId}/samples?type=heart_rate&limit=3`,
    tenantPath: `/v1/users/${userId}/samples?type=heart_rate&limit=3`,
    action: "samples.read",
    target: { user_id: userId, provider: null, resource_type: "quantity_type", resource_id: "heart_rate" },
  },
  {
    path: `/users/${userId}/samples/stats?type=heart_rate&start=2026-03-01&end=2026-03-02`,
    tenantPath: `/v1/users/${userId}/samples/stats?type=heart_rate&start=2026-03-01&end=2026-03-02`,
    action: "samples.stats.read",
    target: { user_id: userId, provider: null, resource_type: "quantity_type", resource_id: "heart_rate" },
  },
  {
    path: `/users/${userId}/connections`,
    tenantPath: `/v1/users/${userId}/connections`,
    action: "connections.read",
    target: { user_id: userId, provider: null, resource_type: null, resource_id: null },
  },
  {
    path: `/users/${userId}/sync-runs/${runId}`,
    tenantPath: `/v1/users/${userId}/sync-runs/${runId}`,
    action: "sync_run.read",
    target: { user_id: userId, provider: "oura", resource_type: "sync_run", resource_id: String(runId) },
  },
  {
    path: `/deletions/${jobId}`,
    tenantPath: `/v1/deletions/${jobId}`,
    action: "deletion.read",
    target: { provider: null, resource_type: "deletion_job", resource_id: jobId },
  },
];

describe("admin mirror routes", () => {
  it("answer exactly what the tenant route answers, and record the read in both audit logs", async () => {
    for (const route of MIRRORS()) {
      const asTenant = await svc.call(route.tenantPath, { key: tenant.api_key });
      expect(asTenant.status, `${route.tenantPath}: ${asTenant.text}`).toBe(200);
      const asAdmin = await svc.call(mirror(tenant.tenant_id, route.path), { key: adminKey, headers: { "X-Request-Id": `read-${route.action}` } });
      expect(asAdmin.status, `${route.path}: ${asAdmin.text}`).toBe(200);
      expect(asAdmin.body, route.path).toEqual(asTenant.body);

      const entry = await lastAdminEntry();
      expect(entry).toMatchObject({
        actor: { kind: "admin", id: adminKeyId },
        action: route.action,
        target: { tenant_id: tenant.tenant_id, ...route.target },
        request_id: `read-${route.action}`,
      });
      const tenantLog = (await svc.call("/v1/audit-log?limit=1", { key: tenant.api_key })).body.data;
      expect(tenantLog[0]).toEqual(entry);
    }
    // The samples were read: the mirror pages like the tenant route.
    const page = await svc.call(mirror(tenant.tenant_id, `/users/${userId}/samples?type=heart_rate&limit=3`), { key: adminKey });
    expect(page.body.data).toHaveLength(3);
    expect(page.body.next_cursor).toEqual(expect.any(String));
    // Nothing about this tenant reached the other tenant's log.
    expect((await svc.call("/v1/audit-log", { key: other.api_key })).body.data).toEqual([]);
  });

  it("404 for an unknown tenant, and for a user, run, job or endpoint of another tenant; a refused read records nothing", async () => {
    const before = await auditCount();
    for (const route of MIRRORS()) {
      const unknownTenant = await svc.call(mirror(randomUUID(), route.path), { key: adminKey });
      expect(unknownTenant.status, route.path).toBe(404);
      expect(unknownTenant.headers.get("content-type")).toContain("application/problem+json");
      expect((await svc.call(mirror(other.tenant_id, route.path), { key: adminKey })).status, route.path).toBe(404);
    }
    expect((await svc.call(mirror(tenant.tenant_id, `/users/${randomUUID()}/connections`), { key: adminKey })).status).toBe(404);
    expect((await svc.call(mirror(tenant.tenant_id, `/users/${userId}/sync-runs/999999`), { key: adminKey })).status).toBe(404);
    expect(await auditCount()).toBe(before);
  });

  it("400 for a tenant_id that is not a uuid and for a bad query, recording nothing", async () => {
    const before = await auditCount();
    expect((await svc.call(mirror("not-a-uuid", `/users/${userId}/connections`), { key: adminKey })).status).toBe(400);
    expect((await svc.call(mirror(tenant.tenant_id, `/users/${userId}/samples?type=heart_rate&limit=1001`), { key: adminKey })).status).toBe(400);
    expect((await svc.call(mirror(tenant.tenant_id, `/users/${userId}/samples/stats?type=heart_rate&start=x&end=y`), { key: adminKey })).status).toBe(400);
    expect(await auditCount()).toBe(before);
  });

  it("never carry a provider token or a webhook secret", async () => {
    for (const route of MIRRORS()) {
      const text = (await svc.call(mirror(tenant.tenant_id, route.path), { key: adminKey })).text;
      expect(text).not.toContain(ACCESS_TOKEN);
      expect(text).not.toContain(endpoint.secret);
      expect(text).not.toContain("secret");
    }
  });

  it("are served to the console over /trpc with the same answers", async () => {
    const consoleClient = createTRPCClient<AppRouter>({
      links: [httpBatchLink({ url: `${svc.url}/trpc`, transformer: superjson, headers: { authorization: `Bearer ${adminKey}` } })],
    });
    const connections = await consoleClient.adminMirrors.listTenantConnections.query({ tenant_id: tenant.tenant_id, id: userId });
    expect(connections).toEqual((await svc.call(`/v1/users/${userId}/connections`, { key: tenant.api_key })).body);
    const pipeline = await consoleClient.adminMirrors.getTenantPipeline.query({ tenant_id: tenant.tenant_id });
    expect(pipeline.users.active).toBe(1);
    const log = await consoleClient.auditLog.listTenantAuditLog.query({ tenant_id: tenant.tenant_id, limit: 2 });
    expect(log.data).toHaveLength(2);
  });

  it("take only an instance admin key: 401 without a secret, 403 for a tenant key", async () => {
    for (const route of MIRRORS()) {
      expect((await svc.call(mirror(tenant.tenant_id, route.path))).status).toBe(401);
      expect((await svc.call(mirror(tenant.tenant_id, route.path), { key: tenant.api_key })).status).toBe(403);
    }
    const rotate = mirror(tenant.tenant_id, `/webhooks/${endpoint.id}/rotate-secret`);
    expect((await svc.call(rotate, { method: "POST", key: tenant.api_key })).status).toBe(403);
  });
});

describe("POST /v1/admin/tenants/{tenant_id}/webhooks/{webhook_id}/rotate-secret", () => {
  it("answers the new secret once, with Location at the admin route; the audit entry never holds it", async () => {
    const sealer = testSealer();
    const answer = await svc.call(mirror(tenant.tenant_id, `/webhooks/${endpoint.id}/rotate-secret`), { method: "POST", key: adminKey });
    expect(answer.status, answer.text).toBe(200);
    expect(Object.keys(answer.body)).toEqual(["secret"]);
    expect(answer.body.secret).toMatch(/^whsec_/);
    expect(answer.body.secret).not.toBe(endpoint.secret);
    expect(answer.headers.get("location")).toBe(`/v1/admin/tenants/${tenant.tenant_id}/webhooks/${endpoint.id}`);
    expect(answer.headers.get("cache-control")).toBe("no-store");
    const row = await svc.db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });
    expect(sealer.open(row.secretSealed)).toBe(answer.body.secret);

    const entry = await lastAdminEntry();
    expect(entry).toMatchObject({ action: "webhook.rotate_secret", target: { tenant_id: tenant.tenant_id, resource_type: "webhook", resource_id: endpoint.id } });
    const logs = [
      (await svc.call("/v1/admin/audit-log", { key: adminKey })).text,
      (await svc.call("/v1/audit-log", { key: tenant.api_key })).text,
      (await svc.call(mirror(tenant.tenant_id, `/webhooks/${endpoint.id}`), { key: adminKey })).text,
    ];
    for (const text of logs) expect(text).not.toContain(answer.body.secret);
    expect(svc.logs.join("\n")).not.toContain(answer.body.secret);
  });

  it("404 for an endpoint of another tenant or an unknown tenant: the secret stays", async () => {
    const before = (await svc.db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } })).secretSealed;
    expect((await svc.call(mirror(other.tenant_id, `/webhooks/${endpoint.id}/rotate-secret`), { method: "POST", key: adminKey })).status).toBe(404);
    expect((await svc.call(mirror(randomUUID(), `/webhooks/${endpoint.id}/rotate-secret`), { method: "POST", key: adminKey })).status).toBe(404);
    expect((await svc.db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } })).secretSealed).toBe(before);
  });
});
