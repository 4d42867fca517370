import { createAdminKey, recordAudit, type AuditAction, type AuditTarget, type CreatedTenant } from "@svc/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, expectBadRequest } from "../helpers/records.ts";
import { startTestService, type TestService } from "../helpers/test-service.ts";

// The audit logs' filters: actor, actor kind, action, writes only and user, on the instance's
// log, a tenant's log read by an admin, and the tenant's own log. The entries are written by
// the audit service itself (the same call every audited route makes), each with its own
// request id, so a filter's answer reads as a list of request ids.

let svc: TestService;
let adminA: { key: string; id: string };
let adminB: { key: string; id: string };
let tenant: CreatedTenant;
let other: CreatedTenant;
let tenantKeyId: string;
let u1: string;
let u2: string;

const UNKNOWN = "00000000-0000-4000-8000-000000000000";

/** Request ids of an answer's entries, newest first. */
const ids = (answer: { status: number; text: string; body: { data: Array<{ request_id: string | null }> } }) => {
  expect(answer.status, answer.text).toBe(200);
  return answer.body.data.map((entry) => entry.request_id);
};
const instanceLog = (query: string) => svc.call(`/v1/admin/audit-log?${query}`, { key: adminA.key });
const tenantLog = (query: string) => svc.call(`/v1/audit-log?${query}`, { key: tenant.api_key });
const adminTenantLog = (query: string, tenantId = tenant.tenant_id) => svc.call(`/v1/admin/tenants/${tenantId}/audit-log?${query}`, { key: adminB.key });

beforeAll(async () => {
  svc = await startTestService({ SVC_ROLE: "api" });
  const a = await createAdminKey(svc.db, "support A");
  const b = await createAdminKey(svc.db, "support B");
  adminA = { key: a.admin_key, id: a.id };
  adminB = { key: b.admin_key, id: b.id };
  tenant = await svc.createTenant("acme");
  other = await svc.createTenant("globex");
  tenantKeyId = (await svc.db.tenantApiKey.findFirstOrThrow({ where: { tenantId: tenant.tenant_id }, select: { id: true } })).id;
  u1 = await createUser(svc, tenant.api_key);
  u2 = await createUser(svc, tenant.api_key);
  const entries: Array<[string, { kind: "admin" | "tenant"; id: string }, AuditAction, AuditTarget]> = [
    ["e1", { kind: "admin", id: adminA.id }, "users.read", { tenantId: tenant.tenant_id }],
    ["e2", { kind: "admin", id: adminA.id }, "user.read", { tenantId: tenant.tenant_id, userId: u1 }],
    ["e3", { kind: "admin", id: adminB.id }, "tenant.provider", { tenantId: tenant.tenant_id, provider: "garmin" }],
    ["e4", { kind: "tenant", id: tenantKeyId }, "webhook.create", { tenantId: tenant.tenant_id, resource: { type: "webhook", id: UNKNOWN } }],
    ["e5", { kind: "admin", id: adminA.id }, "samples.stats.read", { tenantId: tenant.tenant_id, userId: u1, resource: { type: "quantity_type", id: "heart_rate" } }],
    ["e6", { kind: "admin", id: adminB.id }, "user.read", { tenantId: tenant.tenant_id, userId: u2 }],
    ["e7", { kind: "admin", id: adminA.id }, "tenant.provider", { tenantId: other.tenant_id, provider: "garmin" }],
    ["e8", { kind: "admin", id: adminA.id }, "instance.provider", { tenantId: null, provider: "garmin" }],
  ];
  for (const [requestId, actor, action, target] of entries) {
    await recordAudit(svc.db, { actor, requestId }, action, target);
    // Distinct times: the logs are ordered by time, then id.
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
});
afterAll(() => svc?.stop());

describe("GET /v1/admin/audit-log filters", () => {
  it("narrow the instance's log by actor, action, writes only and user, each alone and together", async () => {
    expect(ids(await instanceLog(""))).toEqual(["e8", "e7", "e6", "e5", "e3", "e2", "e1"]);
    expect(ids(await instanceLog(`actor_id=${adminB.id}`))).toEqual(["e6", "e3"]);
    expect(ids(await instanceLog("action=user.read"))).toEqual(["e6", "e2"]);
    expect(ids(await instanceLog("writes_only=true"))).toEqual(["e8", "e7", "e3"]);
    expect(ids(await instanceLog("writes_only=false"))).toEqual(["e8", "e7", "e6", "e5", "e3", "e2", "e1"]);
    expect(ids(await instanceLog(`user_id=${u1}`))).toEqual(["e5", "e2"]);
    expect(ids(await instanceLog(`actor_id=${adminA.id}&writes_only=true`))).toEqual(["e8", "e7"]);
    expect(ids(await instanceLog(`actor_id=${adminA.id}&action=user.read&user_id=${u1}`))).toEqual(["e2"]);
    expect(ids(await instanceLog("actor_kind=admin"))).toHaveLength(7);
    // The instance's log holds admin entries only: a tenant key's never shows, filtered or not.
    expect(ids(await instanceLog("actor_kind=tenant"))).toEqual([]);
    expect(ids(await instanceLog(`actor_id=${tenantKeyId}`))).toEqual([]);
    expect(ids(await instanceLog("action=nothing.like.this"))).toEqual([]);
  });

  it("page a filtered log with its cursor", async () => {
    const first = await instanceLog("writes_only=true&limit=2");
    expect(ids(first)).toEqual(["e8", "e7"]);
    expect(ids(await instanceLog(`writes_only=true&limit=2&cursor=${encodeURIComponent(first.body.next_cursor)}`))).toEqual(["e3"]);
  });
});

describe("GET /v1/audit-log and GET /v1/admin/tenants/{tenant_id}/audit-log filters", () => {
  it("narrow the tenant's log, its own key's entries included", async () => {
    expect(ids(await tenantLog(""))).toEqual(["e6", "e5", "e4", "e3", "e2", "e1"]);
    expect(ids(await tenantLog("actor_kind=tenant"))).toEqual(["e4"]);
    expect(ids(await tenantLog(`actor_id=${tenantKeyId}`))).toEqual(["e4"]);
    expect(ids(await tenantLog("writes_only=true"))).toEqual(["e4", "e3"]);
    expect(ids(await tenantLog(`user_id=${u2}`))).toEqual(["e6"]);
    expect(ids(await tenantLog("actor_kind=admin&action=user.read"))).toEqual(["e6", "e2"]);
  });

  it("apply to an admin's read of the tenant's log, which is still recorded (audit_log.read, left out by writes only)", async () => {
    expect(ids(await adminTenantLog("writes_only=true"))).toEqual(["e4", "e3"]);
    expect(ids(await adminTenantLog(`actor_id=${adminA.id}&user_id=${u1}`))).toEqual(["e5", "e2"]);
    const reads = await adminTenantLog("action=audit_log.read");
    expect(reads.body.data).toHaveLength(2);
    expect(reads.body.data.every((entry: { actor: { id: string } }) => entry.actor.id === adminB.id)).toBe(true);
    expect(ids(await adminTenantLog("writes_only=true"))).toEqual(["e4", "e3"]);
  });

  it("answer 404 for an unknown tenant, 403 for a tenant key on the admin route", async () => {
    expect((await adminTenantLog("writes_only=true", UNKNOWN)).status).toBe(404);
    expect((await svc.call(`/v1/admin/tenants/${tenant.tenant_id}/audit-log?writes_only=true`, { key: tenant.api_key })).status).toBe(403);
    expect((await svc.call("/v1/admin/audit-log?writes_only=true", { key: tenant.api_key })).status).toBe(403);
  });
});

describe("invalid filters", () => {
  it("answer 400 naming the filter on every audit log route, and record nothing", async () => {
    const before = await svc.db.auditEntry.count();
    const cases: Array<[string, string]> = [
      ["actor_id=nope", "actor_id"],
      ["user_id=12", "user_id"],
      ["actor_kind=robot", "actor_kind"],
      ["writes_only=yes", "writes_only"],
      ["writes_only=1", "writes_only"],
      [`action=${"x".repeat(65)}`, "action"],
    ];
    for (const [query, field] of cases) {
      expectBadRequest(await instanceLog(query), field);
      expectBadRequest(await tenantLog(query), field);
      expectBadRequest(await adminTenantLog(query), field);
    }
    // NUL is refused anywhere in the input (never quoted back).
    for (const call of [instanceLog, tenantLog, adminTenantLog]) expect((await call("action=a%00b")).status).toBe(400);
    expect(await svc.db.auditEntry.count()).toBe(before);
  });
});
