import { createAdminKey, type CreatedTenant } from "@svc/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectBadRequest, writeSamples } from "../helpers/records.ts";
import { startTestService, type TestService } from "../helpers/test-service.ts";

// What a support engineer needs to find a user and see where it stands: the users list
// narrowed by external_ref (exact or prefix), one user by id (also while it is deleted), and
// mirrors of the user's shares and consents. SVC_ROLE=api: deletions stay `deleting`.

let svc: TestService;
let adminKey: string;
let adminKeyId: string;
let tenant: CreatedTenant;
let other: CreatedTenant;
const users: Record<string, string> = {};
const UNKNOWN = "00000000-0000-4000-8000-000000000000";

const mirror = (tenantId: string, path: string) => `/v1/admin/tenants/${tenantId}${path}`;
const lastAdminEntry = async () => (await svc.call("/v1/admin/audit-log?limit=1", { key: adminKey })).body.data[0];
const lastTenantEntry = async () => (await svc.call("/v1/audit-log?limit=1", { key: tenant.api_key })).body.data[0];
const auditCount = () => svc.db.auditEntry.count();

async function createUser(key: string, externalRef?: string): Promise<string> {
  const answer = await svc.call("/v1/users", { key, body: externalRef === undefined ? {} : { external_ref: externalRef } });
  expect(answer.status, answer.text).toBe(201);
  return answer.body.id as string;
}

/** The external_refs of a users answer, in order. */
const refsOf = (answer: { body: { data: Array<{ external_ref: string | null }> } }) => answer.body.data.map((user) => user.external_ref);

beforeAll(async () => {
  svc = await startTestService({ SVC_ROLE: "api" });
  const created = await createAdminKey(svc.db, "support");
  adminKey = created.admin_key;
  adminKeyId = created.id;
  tenant = await svc.createTenant("acme");
  other = await svc.createTenant("globex");
  // Created in this order: the list is oldest first.
  for (const ref of ["crm-100", "crm-101", "crm-2", "CRM-300", "crm_%x", "crmAx", "zz"]) users[ref] = await createUser(tenant.api_key, ref);
  users.none = await createUser(tenant.api_key);
  users.other = await createUser(other.api_key, "crm-100");
});
afterAll(() => svc?.stop());

describe("GET /v1/admin/tenants/{tenant_id}/users with external_ref filters", () => {
  it("finds a user by exact external_ref, and users by its prefix (case-sensitive), oldest first; records users.read", async () => {
    const exact = await svc.call(mirror(tenant.tenant_id, "/users?external_ref=crm-100"), { key: adminKey, headers: { "X-Request-Id": "find-exact" } });
    expect(exact.status, exact.text).toBe(200);
    expect(exact.body).toEqual({
      data: [{ id: users["crm-100"], external_ref: "crm-100", status: "active", created_at: expect.any(String) }],
      next_cursor: null,
    });
    expect(await lastAdminEntry()).toMatchObject({ actor: { kind: "admin", id: adminKeyId }, action: "users.read", target: { tenant_id: tenant.tenant_id }, request_id: "find-exact" });

    expect(refsOf(await svc.call(mirror(tenant.tenant_id, "/users?external_ref_prefix=crm-1"), { key: adminKey }))).toEqual(["crm-100", "crm-101"]);
    expect(refsOf(await svc.call(mirror(tenant.tenant_id, "/users?external_ref_prefix=crm"), { key: adminKey }))).toEqual(["crm-100", "crm-101", "crm-2", "crm_%x", "crmAx"]);
    expect(refsOf(await svc.call(mirror(tenant.tenant_id, "/users?external_ref_prefix=CRM"), { key: adminKey }))).toEqual(["CRM-300"]);
    // Both: the exact one, when it also has the prefix.
    expect(refsOf(await svc.call(mirror(tenant.tenant_id, "/users?external_ref=crm-2&external_ref_prefix=crm"), { key: adminKey }))).toEqual(["crm-2"]);
    expect(refsOf(await svc.call(mirror(tenant.tenant_id, "/users?external_ref=crm-2&external_ref_prefix=zz"), { key: adminKey }))).toEqual([]);
    // Nothing matches: an empty page, not a 404.
    expect(await svc.call(mirror(tenant.tenant_id, "/users?external_ref=crm-999"), { key: adminKey })).toMatchObject({ status: 200, body: { data: [], next_cursor: null } });
    // Another tenant's user with the same external_ref is its own.
    expect((await svc.call(mirror(other.tenant_id, "/users?external_ref=crm-100"), { key: adminKey })).body.data.map((u: { id: string }) => u.id)).toEqual([users.other]);
  });

  it("takes the prefix literally: % and _ are no wildcards", async () => {
    expect(refsOf(await svc.call(mirror(tenant.tenant_id, `/users?external_ref_prefix=${encodeURIComponent("crm_")}`), { key: adminKey }))).toEqual(["crm_%x"]);
    expect(refsOf(await svc.call(mirror(tenant.tenant_id, `/users?external_ref_prefix=${encodeURIComponent("crm_%")}`), { key: adminKey }))).toEqual(["crm_%x"]);
    expect(refsOf(await svc.call(mirror(tenant.tenant_id, `/users?external_ref_prefix=${encodeURIComponent("%")}`), { key: adminKey }))).toEqual([]);
    expect(refsOf(await svc.call(mirror(tenant.tenant_id, `/users?external_ref=${encodeURIComponent("crm_%_")}`), { key: adminKey }))).toEqual([]);
  });

  it("pages a filtered list with its cursor", async () => {
    const first = await svc.call(mirror(tenant.tenant_id, "/users?external_ref_prefix=crm&limit=2"), { key: adminKey });
    expect(refsOf(first)).toEqual(["crm-100", "crm-101"]);
    const second = await svc.call(mirror(tenant.tenant_id, `/users?external_ref_prefix=crm&limit=2&cursor=${encodeURIComponent(first.body.next_cursor)}`), { key: adminKey });
    expect(refsOf(second)).toEqual(["crm-2", "crm_%x"]);
  });

  it("answers 400 for a too long filter or one with NUL and records nothing; without filters (or empty ones) the list is as before", async () => {
    const before = await auditCount();
    expectBadRequest(await svc.call(mirror(tenant.tenant_id, `/users?external_ref=${"x".repeat(256)}`), { key: adminKey }), "external_ref");
    expectBadRequest(await svc.call(mirror(tenant.tenant_id, `/users?external_ref_prefix=${"x".repeat(256)}`), { key: adminKey }), "external_ref_prefix");
    expect((await svc.call(mirror(tenant.tenant_id, "/users?external_ref=%00"), { key: adminKey })).status).toBe(400);
    expect(await auditCount()).toBe(before);
    const all = await svc.call(mirror(tenant.tenant_id, "/users"), { key: adminKey });
    expect(all.body).toEqual((await svc.call("/v1/users", { key: tenant.api_key })).body);
    expect(all.body.data).toHaveLength(8);
    // An empty value is no filter, as for every query parameter.
    expect((await svc.call(mirror(tenant.tenant_id, "/users?external_ref=&external_ref_prefix="), { key: adminKey })).body).toEqual(all.body);
  });

  it("answers 404 for an unknown tenant, 403 for a tenant key", async () => {
    expect((await svc.call(mirror(UNKNOWN, "/users?external_ref=crm-100"), { key: adminKey })).status).toBe(404);
    expect((await svc.call(mirror(tenant.tenant_id, "/users?external_ref=crm-100"), { key: tenant.api_key })).status).toBe(403);
  });
});

describe("GET /v1/admin/tenants/{tenant_id}/users/{id}", () => {
  it("answers the user as GET /v1/users/{id} does and records user.read in both logs", async () => {
    const answer = await svc.call(mirror(tenant.tenant_id, `/users/${users["crm-2"]}`), { key: adminKey, headers: { "X-Request-Id": "read-user" } });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toEqual((await svc.call(`/v1/users/${users["crm-2"]}`, { key: tenant.api_key })).body);
    expect(answer.body).toEqual({ id: users["crm-2"], external_ref: "crm-2", status: "active", created_at: expect.any(String) });
    const entry = await lastAdminEntry();
    expect(entry).toMatchObject({
      actor: { kind: "admin", id: adminKeyId },
      action: "user.read",
      target: { tenant_id: tenant.tenant_id, user_id: users["crm-2"], provider: null, resource_type: null, resource_id: null },
      request_id: "read-user",
    });
    expect(await lastTenantEntry()).toEqual(entry);
  });

  it("also answers a user being deleted (status deleting), which the tenant route and the search no longer find", async () => {
    const leaving = await createUser(tenant.api_key, "leaving-1");
    expect((await svc.call(`/v1/users/${leaving}`, { method: "DELETE", key: tenant.api_key })).status).toBe(202);
    expect((await svc.call(`/v1/users/${leaving}`, { key: tenant.api_key })).status).toBe(404);
    const answer = await svc.call(mirror(tenant.tenant_id, `/users/${leaving}`), { key: adminKey });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toEqual({ id: leaving, external_ref: null, status: "deleting", created_at: expect.any(String) });
    expect(refsOf(await svc.call(mirror(tenant.tenant_id, "/users?external_ref_prefix=leaving"), { key: adminKey }))).toEqual([]);
  });

  it("answers 404 for another tenant's user or an unknown one or tenant, 400 for a bad id, 403 for a tenant key; records nothing", async () => {
    const before = await auditCount();
    expect((await svc.call(mirror(tenant.tenant_id, `/users/${users.other}`), { key: adminKey })).status).toBe(404);
    expect((await svc.call(mirror(tenant.tenant_id, `/users/${UNKNOWN}`), { key: adminKey })).status).toBe(404);
    expect((await svc.call(mirror(UNKNOWN, `/users/${users["crm-2"]}`), { key: adminKey })).status).toBe(404);
    expect((await svc.call(mirror(tenant.tenant_id, "/users/nope"), { key: adminKey })).status).toBe(400);
    expect((await svc.call(mirror(tenant.tenant_id, `/users/${users["crm-2"]}`), { key: tenant.api_key })).status).toBe(403);
    expect((await svc.call(mirror(tenant.tenant_id, `/users/${users["crm-2"]}`), {})).status).toBe(401);
    expect(await auditCount()).toBe(before);
  });
});

describe("GET .../users/{id}/shares and .../users/{id}/consents", () => {
  let userId: string;

  beforeAll(async () => {
    userId = users["crm-101"]!;
    const share = (label: string, revokedAt: Date | null) =>
      svc.db.share.create({
        data: {
          tenantId: tenant.tenant_id,
          userId,
          label,
          categories: ["heart"],
          providers: ["garmin"],
          windowStart: new Date("2026-01-01T00:00:00Z"),
          windowEnd: new Date("2026-02-01T00:00:00Z"),
          expiresAt: new Date(Date.now() + 86_400_000),
          passcodeHash: "not-a-real-hash",
          file: revokedAt ? null : Buffer.from("sealed"),
          revokedAt,
          revokedReason: revokedAt ? "owner" : null,
        },
        select: { id: true },
      });
    await share("doctor", null);
    await share("coach", new Date());
    await writeSamples(svc, userId, "garmin", [{ type: "heart_rate", value: 61, start_date: new Date("2026-01-02T00:00:00Z"), source: "garmin" }]);
    const revoked = await svc.call(`/v1/users/${userId}/consents/oura/revoke`, { key: tenant.api_key, body: { categories: ["sleep"] } });
    expect(revoked.status, revoked.text).toBe(202);
  });

  it("answer exactly what the tenant routes answer and record shares.read and consents.read naming the user", async () => {
    for (const [path, action] of [
      [`/users/${userId}/shares`, "shares.read"],
      [`/users/${userId}/consents`, "consents.read"],
    ] as const) {
      const asTenant = await svc.call(`/v1${path}`, { key: tenant.api_key });
      expect(asTenant.status, asTenant.text).toBe(200);
      const asAdmin = await svc.call(mirror(tenant.tenant_id, path), { key: adminKey, headers: { "X-Request-Id": `read-${action}` } });
      expect(asAdmin.status, asAdmin.text).toBe(200);
      expect(asAdmin.body).toEqual(asTenant.body);
      const entry = await lastAdminEntry();
      expect(entry).toMatchObject({
        actor: { kind: "admin", id: adminKeyId },
        action,
        target: { tenant_id: tenant.tenant_id, user_id: userId, provider: null, resource_type: null, resource_id: null },
        request_id: `read-${action}`,
      });
      expect(await lastTenantEntry()).toEqual(entry);
    }
    const shares = (await svc.call(mirror(tenant.tenant_id, `/users/${userId}/shares`), { key: adminKey })).body;
    expect(shares.data.map((s: { label: string }) => s.label)).toEqual(["doctor", "coach"]);
    expect(JSON.stringify(shares)).not.toContain("not-a-real-hash");
    const consents = (await svc.call(mirror(tenant.tenant_id, `/users/${userId}/consents`), { key: adminKey })).body;
    expect(consents.data.map((c: { provider: string }) => c.provider)).toEqual(["garmin", "oura"]);
    const oura = consents.data.find((c: { provider: string }) => c.provider === "oura");
    expect(oura.categories.find((c: { category: string }) => c.category === "sleep").granted).toBe(false);
  });

  it("page the shares with limit and cursor", async () => {
    const first = await svc.call(mirror(tenant.tenant_id, `/users/${userId}/shares?limit=1`), { key: adminKey });
    expect(first.body.data.map((s: { label: string }) => s.label)).toEqual(["doctor"]);
    const second = await svc.call(mirror(tenant.tenant_id, `/users/${userId}/shares?limit=1&cursor=${encodeURIComponent(first.body.next_cursor)}`), { key: adminKey });
    expect(second.body.data.map((s: { label: string }) => s.label)).toEqual(["coach"]);
  });

  it("answer 404 for an unknown tenant, another tenant's user or a deleted one, 400 for bad ids or paging, 403 for a tenant key; record nothing", async () => {
    const leaving = await createUser(tenant.api_key);
    expect((await svc.call(`/v1/users/${leaving}`, { method: "DELETE", key: tenant.api_key })).status).toBe(202);
    const before = await auditCount();
    for (const path of ["shares", "consents"]) {
      expect((await svc.call(mirror(UNKNOWN, `/users/${userId}/${path}`), { key: adminKey })).status).toBe(404);
      expect((await svc.call(mirror(tenant.tenant_id, `/users/${users.other}/${path}`), { key: adminKey })).status).toBe(404);
      expect((await svc.call(mirror(tenant.tenant_id, `/users/${leaving}/${path}`), { key: adminKey })).status).toBe(404);
      expect((await svc.call(mirror("nope", `/users/${userId}/${path}`), { key: adminKey })).status).toBe(400);
      expect((await svc.call(mirror(tenant.tenant_id, `/users/nope/${path}`), { key: adminKey })).status).toBe(400);
      expect((await svc.call(mirror(tenant.tenant_id, `/users/${userId}/${path}`), { key: tenant.api_key })).status).toBe(403);
    }
    expectBadRequest(await svc.call(mirror(tenant.tenant_id, `/users/${userId}/shares?limit=0`), { key: adminKey }), "limit");
    expectBadRequest(await svc.call(mirror(tenant.tenant_id, `/users/${userId}/shares?cursor=nonsense`), { key: adminKey }), "cursor");
    expect(await auditCount()).toBe(before);
  });
});
