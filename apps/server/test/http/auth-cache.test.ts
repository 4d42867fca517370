// A resolved secret is cached briefly (core identity/principal-cache.ts); what ends a secret
// through the API ends it at once in the process that answered.
import { createAdminKey } from "@svc/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestService, type TestService } from "../helpers/test-service.ts";

let svc: TestService;

beforeAll(async () => {
  svc = await startTestService();
});
afterAll(() => svc?.stop());

async function tenantWithUser() {
  const tenant = await svc.createTenant();
  const userId = (await svc.call("/v1/users", { key: tenant.api_key, body: {} })).body.id as string;
  const token = (await svc.call(`/v1/users/${userId}/tokens`, { key: tenant.api_key, body: { scopes: ["read"] } })).body.token as string;
  return { tenant, userId, token };
}

describe("secrets ended through the API stop at once", () => {
  it("a deleted user's token answers 401 on the next call", async () => {
    const { tenant, userId, token } = await tenantWithUser();
    expect((await svc.call(`/v1/users/${userId}/workouts`, { key: token })).status).toBe(200);
    expect((await svc.call(`/v1/users/${userId}`, { method: "DELETE", key: tenant.api_key })).status).toBe(202);
    expect((await svc.call(`/v1/users/${userId}/workouts`, { key: token })).status).toBe(401);
  });

  it("a deleted tenant's key and its users' tokens answer 401 on the next call", async () => {
    const admin = (await createAdminKey(svc.db, "auth-cache")).admin_key;
    const { tenant, userId, token } = await tenantWithUser();
    expect((await svc.call("/v1/users", { key: tenant.api_key })).status).toBe(200);
    expect((await svc.call(`/v1/users/${userId}/workouts`, { key: token })).status).toBe(200);
    expect((await svc.call(`/v1/admin/tenants/${tenant.tenant_id}`, { method: "DELETE", key: admin })).status).toBe(202);
    expect((await svc.call("/v1/users", { key: tenant.api_key })).status).toBe(401);
    expect((await svc.call(`/v1/users/${userId}/workouts`, { key: token })).status).toBe(401);
  });
});
