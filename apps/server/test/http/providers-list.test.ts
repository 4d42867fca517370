import { createAdminKey } from "@svc/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_CATALOG } from "../helpers/keyed-connector.ts";
import { startTestService, type TestService } from "../helpers/test-service.ts";

const DEVICES = ["apple_health", "health_connect", "xiaomi", "activity_files", "bluetooth", "self_report"];

let svc: TestService;
let adminKey: string;

beforeAll(async () => {
  // zeta runs from the environment; oura's environment lacks its secret (error); acme has no keys.
  svc = await startTestService(
    { SVC_ZETA_CLIENT_ID: "zeta-client-000111", SVC_ZETA_CLIENT_SECRET: "zeta-secret", SVC_OURA_CLIENT_ID: "oura-client-000222" },
    { providers: TEST_CATALOG },
  );
  adminKey = (await createAdminKey(svc.db, "test")).admin_key;
});
afterAll(() => svc?.stop());

async function listing(key: string) {
  const answer = await svc.call("/v1/providers", { key });
  expect(answer.status, answer.text).toBe(200);
  expect(answer.body.next_cursor).toBeNull();
  return answer.body.data as Array<{ slug: string; name: string; kind: string; data_types: string[] }>;
}
const slugs = async (key: string) => (await listing(key)).map((provider) => provider.slug);
const admin = (path: string, method: string, body?: unknown) => svc.call(path, { key: adminKey, method, ...(body !== undefined && { body }) });

describe("GET /v1/providers", () => {
  it("lists device providers and the OAuth and push providers that run for the tenant, in the registry's order", async () => {
    const tenant = await svc.createTenant();
    const order = TEST_CATALOG.all().map((provider) => provider.slug);
    const expected = [...DEVICES, "demo", "zeta"].sort((a, b) => order.indexOf(a) - order.indexOf(b));
    expect(await slugs(tenant.api_key)).toEqual(expected);
    const zeta = (await listing(tenant.api_key)).find((provider) => provider.slug === "zeta");
    expect(zeta).toEqual({ slug: "zeta", name: "Zeta Fitness", kind: "push", data_types: ["activity"] });
  });

  it("a tenant's own keys make a provider the instance does not run available to that tenant only", async () => {
    const withKeys = await svc.createTenant();
    const without = await svc.createTenant();
    const put = await admin(`/v1/admin/tenants/${withKeys.tenant_id}/providers/acme/keys`, "PUT", {
      keys: { CLIENT_ID: "acme-client-own-01", CLIENT_SECRET: "acme-secret" },
    });
    expect(put.status, put.text).toBe(200);
    expect(await slugs(withKeys.api_key)).toContain("acme");
    expect(await slugs(without.api_key)).not.toContain("acme");

    // Off on the instance: gone for tenants using the instance's keys, kept for those with their own.
    await admin("/v1/admin/providers/acme", "PATCH", { enabled: false });
    await admin("/v1/admin/providers/zeta", "PATCH", { enabled: false });
    expect(await slugs(withKeys.api_key)).toContain("acme");
    expect(await slugs(without.api_key)).not.toContain("zeta");
    await admin("/v1/admin/providers/zeta", "PATCH", { enabled: true });
    await admin("/v1/admin/providers/acme", "PATCH", { enabled: true });
    expect(await slugs(without.api_key)).toContain("zeta");
  });

  it("leaves out what an admin switched off for the tenant, device, built-in and keyed alike", async () => {
    const tenant = await svc.createTenant();
    for (const provider of ["xiaomi", "demo", "zeta"]) {
      const answer = await admin(`/v1/admin/tenants/${tenant.tenant_id}/providers/${provider}`, "PATCH", { enabled: false });
      expect(answer.status, answer.text).toBe(200);
    }
    const listed = await slugs(tenant.api_key);
    expect(listed).not.toContain("xiaomi");
    expect(listed).not.toContain("demo");
    expect(listed).not.toContain("zeta");
    expect(listed).toContain("bluetooth");
    expect(await slugs((await svc.createTenant()).api_key)).toContain("demo");
  });
});
