import { applicationIdOf, createAdminKey, isConnector } from "@svc/core";
import { PROVIDER_REGISTRY } from "@svc/providers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../helpers/records.ts";
import { startTestService, type TestService } from "../helpers/test-service.ts";

// Google turns the Fitbit Web API off (support ended 2026-09-30, turned off 2026-11-02) in
// favour of the Google Health API: the instance's provider page says so, and every Fitbit
// connection carries a warning in its health, its health states unchanged.

const FITBIT_KEYS = { CLIENT_ID: "fitbit-client-000333", CLIENT_SECRET: "fitbit-secret-0001" };
const ENV = { SVC_FITBIT_CLIENT_ID: FITBIT_KEYS.CLIENT_ID, SVC_FITBIT_CLIENT_SECRET: FITBIT_KEYS.CLIENT_SECRET };

let svc: TestService;
let adminKey: string;
let tenant: { tenant_id: string; api_key: string };

beforeAll(async () => {
  svc = await startTestService(ENV);
  adminKey = (await createAdminKey(svc.db, "test")).admin_key;
  tenant = await svc.createTenant();
});
afterAll(() => svc?.stop());

/** A connection row as the connect flow leaves it (the flow itself is tested elsewhere). */
async function connectionOf(provider: string, status: "active" | "disconnected" = "active") {
  const connector = PROVIDER_REGISTRY.find(provider);
  if (!connector || !isConnector(connector)) throw new Error(`${provider} is no connector`);
  const userId = await createUser(svc, tenant.api_key);
  await svc.db.connection.create({
    data: {
      userId,
      provider,
      keySource: "instance",
      applicationId: applicationIdOf(connector, FITBIT_KEYS),
      status,
      providerUserId: `pu-${userId}`,
      // Not due: the sync engine's planner leaves it alone during the test.
      nextPullAt: new Date(Date.now() + 86_400_000),
    },
  });
  return userId;
}

describe("Fitbit Web API turn-down", () => {
  it("GET /v1/admin/providers names the retirement of Fitbit's API and no other provider's", async () => {
    const answer = await svc.call("/v1/admin/providers", { key: adminKey });
    expect(answer.status, answer.text).toBe(200);
    const bySlug = new Map<string, any>(answer.body.data.map((p: { slug: string }) => [p.slug, p]));
    expect(bySlug.get("fitbit").retirement).toEqual({
      api: "Fitbit Web API",
      support_ends_on: "2026-09-30",
      turned_off_on: "2026-11-02",
      replacement: "google_health",
      source: "https://developers.google.com/health/about",
    });
    for (const [slug, provider] of bySlug) if (slug !== "fitbit") expect(provider.retirement, slug).toBeNull();
    expect((await svc.call("/v1/admin/providers/fitbit", { key: adminKey })).body.retirement).toMatchObject({ turned_off_on: "2026-11-02" });
  });

  it("a Fitbit connection's health carries the warning; healthy, reason and action stay as they are", async () => {
    const userId = await connectionOf("fitbit");
    const answer = await svc.call(`/v1/users/${userId}/connections`, { key: tenant.api_key });
    expect(answer.status, answer.text).toBe(200);
    const [connection] = answer.body.data;
    expect(connection.health).toMatchObject({ healthy: true, reason: null, action: "none" });
    // The tests run after the turn-off day: the API is retired.
    expect(connection.health.warning).toEqual({
      code: "retired_api",
      message: expect.stringContaining("google_health"),
      turned_off_on: "2026-11-02",
      replacement: "google_health",
    });
  });

  it("no warning for a disconnected Fitbit connection nor for another provider", async () => {
    const disconnected = await connectionOf("fitbit", "disconnected");
    expect((await svc.call(`/v1/users/${disconnected}/connections`, { key: tenant.api_key })).body.data[0].health).toMatchObject({
      reason: "disconnected",
      warning: null,
    });
    const google = await connectionOf("google_health");
    expect((await svc.call(`/v1/users/${google}/connections`, { key: tenant.api_key })).body.data[0].health.warning).toBeNull();
  });
});
