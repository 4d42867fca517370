import { randomUUID } from "node:crypto";
import { createAdminKey, type CreatedTenant } from "@svc/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readAllPages } from "../helpers/records.ts";
import { TEST_CATALOG } from "../helpers/keyed-connector.ts";
import { startTestService, type TestService } from "../helpers/test-service.ts";
import { TEST_ENCRYPTION_KEY } from "../helpers/webhooks.ts";

const TENANT_SECRET = "acme-SECRET-tenant-audit-1";
const INSTANCE_SECRET = "acme-SECRET-instance-audit-1";

let svc: TestService;
let adminKey: string;
let adminKeyId: string;
let tenant: CreatedTenant;
let other: CreatedTenant;

beforeAll(async () => {
  svc = await startTestService({ SVC_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY }, { providers: TEST_CATALOG });
  const created = await createAdminKey(svc.db, "audit");
  adminKey = created.admin_key;
  adminKeyId = created.id;
  tenant = await svc.createTenant();
  other = await svc.createTenant();
});
afterAll(() => svc?.stop());

const admin = (path: string, options: { method?: string; body?: unknown; requestId?: string } = {}) =>
  svc.call(path, { key: adminKey, ...options, ...(options.requestId && { headers: { "X-Request-Id": options.requestId } }) });
const tenantProviderPath = (tenantId: string, provider: string) => `/v1/admin/tenants/${tenantId}/providers/${provider}`;
const newestAdminEntry = async () => (await admin("/v1/admin/audit-log?limit=1")).body.data[0];
const tenantLog = async (key: string) => (await svc.call("/v1/audit-log?limit=1000", { key })).body.data as any[];
const auditCount = () => svc.db.auditEntry.count();

describe("admin actions on a tenant", () => {
  it("record each action with actor admin in the instance's log and in the tenant's, never in another tenant's", async () => {
    const steps: Array<[string, () => Promise<{ status: number; text: string }>, string | null]> = [
      ["tenant.provider", () => admin(tenantProviderPath(tenant.tenant_id, "xiaomi"), { method: "PATCH", body: { enabled: false }, requestId: "req-switch" }), "xiaomi"],
      [
        "tenant.provider_keys",
        () => admin(`${tenantProviderPath(tenant.tenant_id, "acme")}/keys`, { method: "PUT", body: { keys: { CLIENT_ID: "acme-client-audit-01", CLIENT_SECRET: TENANT_SECRET } } }),
        "acme",
      ],
      ["config.read", () => admin(`${tenantProviderPath(tenant.tenant_id, "acme")}/keys`), "acme"],
      ["config.read", () => admin(`/v1/admin/tenants/${tenant.tenant_id}/providers`), null],
      ["tenant.provider_keys.delete", () => admin(`${tenantProviderPath(tenant.tenant_id, "acme")}/keys`, { method: "DELETE" }), "acme"],
    ];
    for (const [action, call, provider] of steps) {
      const answer = await call();
      expect(answer.status, answer.text).toBe(200);
      const entry = await newestAdminEntry();
      expect(entry).toEqual({
        id: expect.any(String),
        at: expect.any(String),
        actor: { kind: "admin", id: adminKeyId },
        action,
        target: { tenant_id: tenant.tenant_id, user_id: null, provider, resource_type: null, resource_id: null },
        request_id: expect.any(String),
      });
      expect((await tenantLog(tenant.api_key))[0]).toEqual(entry);
    }
    expect((await tenantLog(tenant.api_key)).find((entry) => entry.action === "tenant.provider").request_id).toBe("req-switch");
    expect(await tenantLog(other.api_key)).toEqual([]);
  });

  it("a refused action records nothing", async () => {
    const before = await auditCount();
    const keysPath = `${tenantProviderPath(tenant.tenant_id, "acme")}/keys`;
    expect((await admin(keysPath, { method: "PUT", body: { keys: { CLIENT_ID: "acme-client-audit-01" } } })).status).toBe(400);
    expect((await admin(keysPath, { method: "PUT", body: { keys: { CLIENT_ID: "a-1234-b", CLIENT_SECRET: "x", REGION: "mars" } } })).status).toBe(422);
    expect((await admin(`${tenantProviderPath(tenant.tenant_id, "demo")}/keys`)).status).toBe(409);
    expect((await admin(tenantProviderPath(randomUUID(), "xiaomi"), { method: "PATCH", body: { enabled: false } })).status).toBe(404);
    expect((await admin(tenantProviderPath(tenant.tenant_id, "nope"), { method: "PATCH", body: { enabled: false } })).status).toBe(404);
    expect(await auditCount()).toBe(before);
  });
});

describe("a tenant key's changes of its webhook endpoints", () => {
  it("are recorded in the tenant's own log with actor tenant, not in the instance's", async () => {
    const adminEntries = (await admin("/v1/admin/audit-log?limit=1000")).body.data.length;
    const created = await svc.call("/v1/webhooks", { key: other.api_key, body: { url: "https://hooks.example.com/audit" } });
    expect(created.status, created.text).toBe(201);
    const id = created.body.id as string;
    expect((await svc.call(`/v1/webhooks/${id}`, { method: "PATCH", key: other.api_key, body: { description: "ops" } })).status).toBe(200);
    const rotated = await svc.call(`/v1/webhooks/${id}/rotate-secret`, { method: "POST", key: other.api_key });
    expect(rotated.status).toBe(200);
    expect((await svc.call(`/v1/webhooks/${id}`, { method: "DELETE", key: other.api_key })).status).toBe(204);
    expect((await svc.call(`/v1/webhooks/${id}`, { method: "DELETE", key: other.api_key })).status).toBe(404);

    const log = await tenantLog(other.api_key);
    expect(log.map((entry) => entry.action)).toEqual(["webhook.delete", "webhook.rotate_secret", "webhook.update", "webhook.create"]);
    for (const entry of log) {
      expect(entry).toMatchObject({ actor: { kind: "tenant", id: expect.any(String) }, target: { tenant_id: other.tenant_id, resource_type: "webhook", resource_id: id } });
    }
    const text = JSON.stringify(log);
    expect(text).not.toContain(created.body.secret);
    expect(text).not.toContain(rotated.body.secret);
    expect((await admin("/v1/admin/audit-log?limit=1000")).body.data).toHaveLength(adminEntries);
  });
});

describe("admin actions on the instance's providers", () => {
  it("record instance.provider, instance.provider_keys and instance.provider.delete in the instance's log only", async () => {
    const tenantEntries = (await tenantLog(tenant.api_key)).length;
    const steps: Array<[string, () => Promise<{ status: number; text: string }>]> = [
      ["instance.provider", () => admin("/v1/admin/providers/acme", { method: "PATCH", body: { enabled: false } })],
      ["instance.provider_keys", () => admin("/v1/admin/providers/acme/keys", { method: "PUT", body: { keys: { CLIENT_ID: "acme-client-inst-01", CLIENT_SECRET: INSTANCE_SECRET } } })],
      ["instance.provider.delete", () => admin("/v1/admin/providers/acme", { method: "DELETE" })],
    ];
    for (const [action, call] of steps) {
      const answer = await call();
      expect(answer.status, answer.text).toBe(200);
      expect(await newestAdminEntry()).toMatchObject({
        actor: { kind: "admin", id: adminKeyId },
        action,
        target: { tenant_id: null, user_id: null, provider: "acme", resource_type: null, resource_id: null },
      });
    }
    expect((await admin("/v1/admin/providers/acme", { method: "DELETE" })).status).toBe(404);
    expect((await newestAdminEntry()).action).toBe("instance.provider.delete");
    expect(await tenantLog(tenant.api_key)).toHaveLength(tenantEntries);
  });

  it("never holds a secret value", async () => {
    const texts = [(await admin("/v1/admin/audit-log?limit=1000")).text, (await svc.call("/v1/audit-log?limit=1000", { key: tenant.api_key })).text];
    for (const text of texts) {
      expect(text).not.toContain(TENANT_SECRET);
      expect(text).not.toContain(INSTANCE_SECRET);
      expect(text).not.toContain("acme-client-audit-01");
    }
  });
});

describe("reading the logs", () => {
  it("pages newest first with cursor and limit, without gaps or repeats", async () => {
    const all = (await admin("/v1/admin/audit-log?limit=1000")).body.data as Array<{ id: string; at: string }>;
    expect(all.length).toBeGreaterThanOrEqual(8);
    const paged = await readAllPages(svc, "/v1/admin/audit-log", adminKey, 2);
    expect(paged).toEqual(all);
    const times = all.map((entry) => entry.at);
    expect(times).toEqual([...times].sort().reverse());
    const tenantPaged = await readAllPages(svc, "/v1/audit-log", tenant.api_key, 3);
    expect(tenantPaged).toEqual(await tenantLog(tenant.api_key));
  });

  it("an admin reads a tenant's log; the read is recorded afterwards as audit_log.read", async () => {
    const before = await tenantLog(tenant.api_key);
    const answer = await admin(`/v1/admin/tenants/${tenant.tenant_id}/audit-log?limit=1000`);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toEqual({ data: before, next_cursor: null });
    const after = await tenantLog(tenant.api_key);
    expect(after).toHaveLength(before.length + 1);
    expect(after[0]).toMatchObject({ actor: { kind: "admin", id: adminKeyId }, action: "audit_log.read", target: { tenant_id: tenant.tenant_id } });
    expect((await admin(`/v1/admin/tenants/${randomUUID()}/audit-log`)).status).toBe(404);
    expect((await admin("/v1/admin/tenants/nope/audit-log")).status).toBe(400);
  });

  it("reading the instance's log or one's own log records nothing", async () => {
    const before = await auditCount();
    await admin("/v1/admin/audit-log");
    await svc.call("/v1/audit-log", { key: tenant.api_key });
    expect(await auditCount()).toBe(before);
  });

  it("refuses a bad limit or cursor with 400", async () => {
    expect((await admin("/v1/admin/audit-log?limit=1001")).status).toBe(400);
    expect((await admin("/v1/admin/audit-log?cursor=not-a-cursor")).status).toBe(400);
    expect((await svc.call("/v1/audit-log?limit=0", { key: tenant.api_key })).status).toBe(400);
  });

  it("each log takes its own kind of key: 401 without one, 403 for the other kind", async () => {
    expect((await svc.call("/v1/admin/audit-log")).status).toBe(401);
    expect((await svc.call("/v1/audit-log")).status).toBe(401);
    expect((await svc.call("/v1/admin/audit-log", { key: tenant.api_key })).status).toBe(403);
    expect((await svc.call(`/v1/admin/tenants/${tenant.tenant_id}/audit-log`, { key: tenant.api_key })).status).toBe(403);
    expect((await svc.call("/v1/audit-log", { key: adminKey })).status).toBe(403);
  });
});
