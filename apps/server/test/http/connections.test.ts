import { createAdminKey, setTenantProviderSwitch } from "@svc/core";
import { waitUntil } from "@svc/testing";
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONSENT_CATALOG, FakeTestfit, TESTFIT_ENV } from "../helpers/consent-provider.ts";
import { createUser } from "../helpers/records.ts";
import { startTestService, type TestService } from "../helpers/test-service.ts";

// Connecting a user to an OAuth provider end to end: POST connections -> authorize URL ->
// (the fake provider's consent) -> GET /oauth/{provider}/callback -> connection, backfill,
// subscription; list with health; disconnect with and without erasure.

const provider = new FakeTestfit();
const msw = setupServer(...provider.handlers());

let svc: TestService;
let key: string;
let tenantId: string;

beforeAll(async () => {
  msw.listen({ onUnhandledRequest: "bypass" });
  svc = await startTestService(TESTFIT_ENV, { providers: CONSENT_CATALOG });
  const tenant = await svc.createTenant();
  key = tenant.api_key;
  tenantId = tenant.tenant_id;
});
afterAll(async () => {
  await svc?.stop();
  msw.close();
});

async function start(userId: string, body: Record<string, unknown> = {}, slug = "testfit", apiKey = key) {
  return svc.call(`/v1/users/${userId}/connections/${slug}`, { key: apiKey, body });
}

/** The browser's arrival at the callback (redirects not followed). */
async function callback(query: Record<string, string>, slug = "testfit") {
  const response = await fetch(`${svc.url}/oauth/${slug}/callback?${new URLSearchParams(query)}`, { redirect: "manual" });
  return { status: response.status, location: response.headers.get("location"), headers: response.headers, text: await response.text() };
}

/** Starts and completes a consent; answers the callback's answer. */
async function connect(userId: string, options: { redirectUri?: string; providerUserId?: string } = {}) {
  const started = await start(userId, options.redirectUri ? { redirect_uri: options.redirectUri } : {});
  expect(started.status, started.text).toBe(200);
  const { code, state } = provider.consent(started.body.authorize_url, options.providerUserId);
  return { ...(await callback({ code, state })), state, code };
}

const connectionOf = (userId: string, slug = "testfit") => svc.db.connection.findUnique({ where: { userId_provider: { userId, provider: slug } } });

describe("POST /v1/users/{id}/connections/{provider}", () => {
  it("answers the authorize URL with client_id, the instance's callback, scopes, state and PKCE S256", async () => {
    const user = await createUser(svc, key);
    const answer = await start(user);
    expect(answer.status, answer.text).toBe(200);
    const url = new URL(answer.body.authorize_url);
    expect(`${url.origin}${url.pathname}`).toBe("https://testfit.test/oauth/authorize");
    const params = Object.fromEntries(url.searchParams);
    expect(params).toMatchObject({
      client_id: "testfit-client-id",
      redirect_uri: `${svc.url}/oauth/testfit/callback`,
      response_type: "code",
      scope: "activity sleep",
      code_challenge_method: "S256",
      prompt: "consent",
    });
    expect(params.state).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(params.code_challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Only the state's hash is kept; it expires in 10 minutes.
    const [row] = await svc.db.consentState.findMany({ where: { userId: user } });
    expect(row!.stateHash).not.toContain(params.state);
    expect(row!.sealedVerifier).not.toContain(params.code_challenge);
    const lifetime = row!.expiresAt.getTime() - row!.createdAt.getTime();
    expect(Math.abs(lifetime - 10 * 60 * 1000)).toBeLessThan(5000);
    expect(row!.keySource).toBe("instance");
  });

  it("takes an https redirect_uri, http only to localhost, 127.0.0.1 or [::1]", async () => {
    const user = await createUser(svc, key);
    for (const uri of ["https://app.example.com/done?x=1", "http://localhost:3000/cb", "http://127.0.0.1/cb", "http://[::1]:8080/cb"]) {
      const answer = await start(user, { redirect_uri: uri });
      expect(answer.status, `${uri}: ${answer.text}`).toBe(200);
    }
    for (const uri of ["http://app.example.com/cb", "/relative", "app.example.com/cb", "ftp://app.example.com/", "https://app.example.com/#frag", "https://u:p@app.example.com/", "javascript:alert(1)"]) {
      const answer = await start(user, { redirect_uri: uri });
      expect(answer.status, uri).toBe(400);
      expect(answer.body.detail).toContain("redirect_uri");
    }
    expect((await start(user, { redirect_uri: "https://app.example.com", other: 1 })).status).toBe(400);
  });

  it("is 404 for an unknown provider or user (also another tenant's), 400 for a device provider, 403 when switched off, 409 without keys", async () => {
    const user = await createUser(svc, key);
    expect((await start(user, {}, "nosuch")).status).toBe(404);
    expect((await start("00000000-0000-4000-8000-000000000000")).status).toBe(404);
    const otherKey = (await svc.createTenant()).api_key;
    expect((await start(user, {}, "testfit", otherKey)).status).toBe(404);
    const device = await start(user, {}, "apple_health");
    expect(device.status).toBe(400);
    expect(device.body.detail).toContain("device provider");
    expect((await start(user, {}, "keyless")).status).toBe(409);

    const tenant = await svc.createTenant();
    const offUser = await createUser(svc, tenant.api_key);
    await setTenantProviderSwitch(svc.db, tenant.tenant_id, "testfit", false);
    const off = await start(offUser, {}, "testfit", tenant.api_key);
    expect(off.status).toBe(403);
  });

  it("is 409 while an erasure of the user's data of the provider runs", async () => {
    const user = await createUser(svc, key);
    // A pending erasure job (no worker job sent: it stays pending).
    const job = await svc.db.deletionJob.create({ data: { tenantId, userId: user, provider: "testfit" } });
    const answer = await start(user);
    expect(answer.status).toBe(409);
    expect(answer.body.detail).toContain("erased");
    await svc.db.deletionJob.update({ where: { id: job.id }, data: { status: "done" } });
    expect((await start(user)).status).toBe(200);
  });
});

describe("GET /oauth/{provider}/callback", () => {
  it("connects the user (sealed tokens, scopes, subscription, backfill queued) and redirects with status=connected", async () => {
    const user = await createUser(svc, key);
    const result = await connect(user, { redirectUri: "https://app.example.com/done?keep=1" });
    expect(result.status).toBe(303);
    const location = new URL(result.location!);
    expect(`${location.origin}${location.pathname}`).toBe("https://app.example.com/done");
    expect(Object.fromEntries(location.searchParams)).toEqual({ keep: "1", status: "connected", provider: "testfit" });

    // The code went to the token endpoint with the PKCE verifier, the callback URL and basic client auth.
    const form = provider.tokenRequests.at(-1)!;
    expect(form.get("grant_type")).toBe("authorization_code");
    expect(form.get("redirect_uri")).toBe(`${svc.url}/oauth/testfit/callback`);
    expect(form.get("code_verifier")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(form.get("client_secret")).toBeNull();
    expect(provider.tokenAuthorizations.at(-1)).toBe(`Basic ${Buffer.from("testfit-client-id:testfit-client-secret").toString("base64")}`);

    const connection = await connectionOf(user);
    expect(connection).toMatchObject({ status: "active", scopes: ["activity", "sleep"], keySource: "instance" });
    expect(connection!.providerUserId).toMatch(/^testfit-user-/);
    expect(connection!.sealedTokens).toMatch(/^v1\./);
    expect(connection!.sealedTokens).not.toContain("at-");
    expect(connection!.accessExpiresAt!.getTime()).toBeGreaterThan(Date.now() + 3500_000);
    await waitUntil(async () => (await svc.db.pushSubscription.count({ where: { connectionId: connection!.id } })) === 1, 5000, "the subscription");
    const runs = await svc.db.syncRun.findMany({ where: { connectionId: connection!.id } });
    expect(runs.length).toBeGreaterThan(0);
    expect(runs.every((run) => run.trigger === "backfill")).toBe(true);
    const earliest = Math.min(...runs.map((run) => run.windowStart.getTime()));
    expect(Date.now() - earliest).toBeGreaterThanOrEqual(30 * 86_400_000 - 60_000);
    expect(svc.logs.join("\n")).not.toMatch(/at-[0-9a-f]{16}|rt-[0-9a-f]{16}|testfit-client-secret/);
  });

  it("shows a result page without redirect_uri, with strict security headers", async () => {
    const user = await createUser(svc, key);
    const result = await connect(user);
    expect(result.status).toBe(200);
    expect(result.headers.get("content-type")).toContain("text/html");
    expect(result.text).toContain("Connected to Testfit");
    expect(result.text).toContain("You can close this window.");
    expect(result.text).not.toContain("<script");
    const csp = result.headers.get("content-security-policy")!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toMatch(/style-src 'sha256-[A-Za-z0-9+/=]+'/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(result.headers.get("cache-control")).toBe("no-store");
    expect(result.headers.get("referrer-policy")).toBe("no-referrer");
  });

  it("uses a state once: the second callback is status=error&error=invalid_state", async () => {
    const user = await createUser(svc, key);
    const first = await connect(user, { redirectUri: "https://app.example.com/cb" });
    expect(new URL(first.location!).searchParams.get("status")).toBe("connected");
    const again = await callback({ code: first.code, state: first.state });
    expect(again.status).toBe(303);
    expect(Object.fromEntries(new URL(again.location!).searchParams)).toEqual({ status: "error", provider: "testfit", error: "invalid_state" });
  });

  it("refuses a state older than 10 minutes (expired_state), and an unknown state with the error page", async () => {
    const user = await createUser(svc, key);
    const started = await start(user, { redirect_uri: "https://app.example.com/cb" });
    const { code, state } = provider.consent(started.body.authorize_url);
    await svc.db.consentState.updateMany({ where: { userId: user }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const expired = await callback({ code, state });
    expect(new URL(expired.location!).searchParams.get("error")).toBe("expired_state");
    expect(await connectionOf(user)).toBeNull();

    const unknown = await callback({ code: "x", state: "not-a-state-we-issued" });
    expect(unknown.status).toBe(400);
    expect(unknown.text).toContain("Could not connect Testfit");
    expect(unknown.text).toContain("invalid_state");
    const missing = await callback({ code: "x" });
    expect(missing.status).toBe(400);
    const otherProvider = await callback({ code, state }, "nosuch");
    expect(otherProvider.status).toBe(404);
  });

  it("reports the provider's error parameter (access_denied) and a refused code exchange (provider_failed)", async () => {
    const user = await createUser(svc, key);
    const started = await start(user, { redirect_uri: "https://app.example.com/cb" });
    const { state } = provider.consent(started.body.authorize_url);
    const denied = await callback({ error: "access_denied", state });
    expect(Object.fromEntries(new URL(denied.location!).searchParams)).toEqual({ status: "error", provider: "testfit", error: "access_denied" });

    const again = await start(user, { redirect_uri: "https://app.example.com/cb" });
    const consent = provider.consent(again.body.authorize_url);
    provider.tokenFailure = { status: 400, body: { error: "invalid_grant", error_description: "code expired" } };
    const refused = await callback(consent);
    expect(new URL(refused.location!).searchParams.get("error")).toBe("provider_failed");

    const third = await start(user);
    const badCode = provider.consent(third.body.authorize_url);
    const wrong = await callback({ code: "not-the-code", state: badCode.state });
    expect(wrong.status).toBe(502);
    expect(wrong.text).toContain("provider_failed");
    expect(await connectionOf(user)).toBeNull();
  });

  it("is 403 when the provider was switched off for the tenant meanwhile", async () => {
    const tenant = await svc.createTenant();
    const user = await createUser(svc, tenant.api_key);
    const started = await start(user, { redirect_uri: "https://app.example.com/cb" }, "testfit", tenant.api_key);
    const consent = provider.consent(started.body.authorize_url);
    await setTenantProviderSwitch(svc.db, tenant.tenant_id, "testfit", false);
    const result = await callback(consent);
    expect(result.status).toBe(403);
    expect(result.text).toContain("switched off");
    expect(result.text).toContain("https://app.example.com/cb?status=error&amp;provider=testfit&amp;error=provider_off");
    expect(await connectionOf(user)).toBeNull();
  });

  it("refuses a provider account already connected to another user of the tenant (account_in_use)", async () => {
    const first = await createUser(svc, key);
    const second = await createUser(svc, key);
    expect((await connect(first, { providerUserId: "shared-account" })).status).toBe(200);
    const result = await connect(second, { providerUserId: "shared-account", redirectUri: "https://app.example.com/cb" });
    expect(new URL(result.location!).searchParams.get("error")).toBe("account_in_use");
    expect(await connectionOf(second)).toBeNull();
  });

  it("reconnecting a connection that needs reauth makes it active again and sends connection.restored", async () => {
    const user = await createUser(svc, key);
    await connect(user);
    const brokenSince = new Date(Date.now() - 3_600_000);
    await svc.db.connection.update({
      where: { userId_provider: { userId: user, provider: "testfit" } },
      data: { status: "needs_reauth", brokenReason: "needs_reauth", brokenAction: "reconnect", brokenSince },
    });
    expect((await connect(user)).status).toBe(200);
    const connection = await connectionOf(user);
    expect(connection).toMatchObject({ status: "active", brokenReason: null, brokenSince: null });
    const [event] = await svc.db.outboxEvent.findMany({ where: { userId: user, type: "connection.restored" } });
    expect(event!.data).toMatchObject({ user_id: user, provider: "testfit", previous_reason: "needs_reauth", broken_since: brokenSince.toISOString() });
    expect((event!.data as { broken_seconds: number }).broken_seconds).toBeGreaterThanOrEqual(3600);
  });
});

describe("GET /v1/users/{id}/connections", () => {
  it("lists one connection per provider with its health", async () => {
    const user = await createUser(svc, key);
    expect((await svc.call(`/v1/users/${user}/connections`, { key })).body).toEqual({ data: [] });
    await connect(user);
    // The backfill's pulls set the connection's health when they end (a success restores it):
    // let them end before health is set by hand below, or one ending later undoes it.
    const { id: connectionId } = (await connectionOf(user))!;
    const openRuns = () => svc.db.syncRun.count({ where: { connectionId, status: { in: ["queued", "running", "retrying", "rate_limited"] } } });
    await waitUntil(async () => (await openRuns()) === 0, 20_000, "the backfill's pulls");
    const answer = await svc.call(`/v1/users/${user}/connections`, { key });
    expect(answer.status, answer.text).toBe(200);
    expect(Object.keys(answer.body)).toEqual(["data"]);
    expect(answer.body.data).toHaveLength(1);
    const [connection] = answer.body.data;
    expect(Object.keys(connection).sort()).toEqual(
      ["provider", "status", "scopes", "last_sync_at", "initial_backfill_at", "created_at", "updated_at", "connected_at", "health"].sort(),
    );
    expect(connection).toMatchObject({ provider: "testfit", status: "active", scopes: ["activity", "sleep"] });
    expect(connection.health).toEqual({ healthy: true, reason: null, action: "none", since: null, retry_at: null, warning: null });

    const where = { userId_provider: { userId: user, provider: "testfit" } };
    const since = new Date(Date.now() - 60_000);
    const retryAt = new Date(Date.now() + 600_000);
    await svc.db.connection.update({ where, data: { brokenReason: "pulls_failing", brokenAction: "wait", brokenSince: since, retryAt } });
    const failing = (await svc.call(`/v1/users/${user}/connections`, { key })).body.data[0].health;
    expect(failing).toEqual({ healthy: false, reason: "pulls_failing", action: "wait", since: since.toISOString(), retry_at: retryAt.toISOString(), warning: null });

    await svc.db.connection.update({ where, data: { status: "needs_reauth", brokenReason: "needs_reauth", brokenAction: "reconnect", retryAt: null } });
    const reauth = (await svc.call(`/v1/users/${user}/connections`, { key })).body.data[0];
    expect(reauth.status).toBe("needs_reauth");
    expect(reauth.health).toMatchObject({ healthy: false, reason: "needs_reauth", action: "reconnect" });

    expect((await svc.call(`/v1/users/00000000-0000-4000-8000-000000000000/connections`, { key })).status).toBe(404);
  });

  it("says provider_off while an admin switched the provider off for the tenant", async () => {
    const tenant = await svc.createTenant();
    const user = await createUser(svc, tenant.api_key);
    const started = await start(user, {}, "testfit", tenant.api_key);
    expect((await callback(provider.consent(started.body.authorize_url, "off-user"))).status).toBe(200);
    const { admin_key } = await createAdminKey(svc.db, "connections-test");
    const patched = await svc.call(`/v1/admin/tenants/${tenant.tenant_id}/providers/testfit`, { key: admin_key, method: "PATCH", body: { enabled: false } });
    expect(patched.status, patched.text).toBe(200);
    const health = (await svc.call(`/v1/users/${user}/connections`, { key: tenant.api_key })).body.data[0].health;
    expect(health).toMatchObject({ healthy: false, reason: "provider_off", action: "contact_support" });
  });
});

describe("DELETE /v1/users/{id}/connections/{provider}", () => {
  it("disconnects (204): tokens dropped, open runs cancelled, grant revoked and subscription removed at the provider", async () => {
    const user = await createUser(svc, key);
    await connect(user);
    const before = await connectionOf(user);
    await waitUntil(async () => (await svc.db.pushSubscription.count({ where: { connectionId: before!.id } })) === 1, 5000, "the subscription");
    const [subscription] = await svc.db.pushSubscription.findMany({ where: { connectionId: before!.id } });

    const answer = await svc.call(`/v1/users/${user}/connections/testfit`, { key, method: "DELETE" });
    expect(answer.status, answer.text).toBe(204);
    const after = await connectionOf(user);
    expect(after).toMatchObject({ status: "disconnected", sealedTokens: null, accessExpiresAt: null });
    expect(after!.disconnectedAt).not.toBeNull();
    const open = await svc.db.syncRun.count({ where: { connectionId: before!.id, status: { in: ["queued", "running", "retrying", "rate_limited"] } } });
    expect(open).toBe(0);
    await waitUntil(() => provider.unsubscribed.includes(subscription!.externalId), 5000, "the unsubscribe");
    await waitUntil(() => provider.revoked.length > 0, 5000, "the revoke");
    expect(provider.revoked.at(-1)).toMatch(/^at-/);
    await waitUntil(async () => (await svc.db.pushSubscription.count({ where: { connectionId: before!.id } })) === 0, 5000, "subscriptions gone");

    const listed = (await svc.call(`/v1/users/${user}/connections`, { key })).body.data[0];
    expect(listed).toMatchObject({ status: "disconnected", health: { healthy: false, reason: "disconnected", action: "connect" } });
    // Again: nothing more to do.
    expect((await svc.call(`/v1/users/${user}/connections/testfit`, { key, method: "DELETE" })).status).toBe(204);
  });

  it("is 404 without a connection of the provider, 400 for a delete_data that is not a boolean", async () => {
    const user = await createUser(svc, key);
    expect((await svc.call(`/v1/users/${user}/connections/testfit`, { key, method: "DELETE" })).status).toBe(404);
    expect((await svc.call(`/v1/users/${user}/connections/nosuch`, { key, method: "DELETE" })).status).toBe(404);
    expect((await svc.call(`/v1/users/${user}/connections/testfit?delete_data=yes`, { key, method: "DELETE" })).status).toBe(400);
  });

  it("DELETE data while connected is 409; with delete_data=true it disconnects, erases (202) and the connection goes", async () => {
    const user = await createUser(svc, key);
    await connect(user, { redirectUri: "https://app.example.com/cb" });
    const refused = await svc.call(`/v1/users/${user}/data/testfit`, { key, method: "DELETE" });
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toContain("disconnect first");

    const answer = await svc.call(`/v1/users/${user}/connections/testfit?delete_data=true`, { key, method: "DELETE" });
    expect(answer.status, answer.text).toBe(202);
    expect(answer.body).toMatchObject({ user_id: user, provider: "testfit" });
    expect(answer.body.job_id).toMatch(/^[0-9a-f-]{36}$/);
    await waitUntil(async () => (await svc.db.deletionJob.findUnique({ where: { id: answer.body.job_id } }))?.status === "done", 20_000, "the erasure");
    expect(await connectionOf(user)).toBeNull();
    expect(await svc.db.consentState.count({ where: { userId: user } })).toBe(0);
    expect(await svc.db.syncRun.count({ where: { userId: user } })).toBe(0);
    const erased = await svc.db.outboxEvent.findMany({ where: { userId: user, type: "data.erased" } });
    expect(erased).toHaveLength(1);
    // Connecting again works once the erasure is done.
    expect((await connect(user)).status).toBe(200);
  });
});

describe("DELETE /v1/users/{id}: the user's connections are released", () => {
  async function deletedJob(user: string) {
    const answer = await svc.call(`/v1/users/${user}`, { key, method: "DELETE" });
    expect(answer.status, answer.text).toBe(202);
    let status = "pending";
    await waitUntil(
      async () => {
        status = (await svc.call(`/v1/deletions/${answer.body.job_id}`, { key })).body.status;
        return status === "done" || status === "failed";
      },
      10_000,
      "the deletion job",
    );
    return status;
  }

  it("revokes the grant and removes the subscription at the provider before the rows go", async () => {
    const user = await createUser(svc, key);
    await connect(user);
    const connection = await connectionOf(user);
    await waitUntil(async () => (await svc.db.pushSubscription.count({ where: { connectionId: connection!.id } })) === 1, 5000, "the subscription");
    const [subscription] = await svc.db.pushSubscription.findMany({ where: { connectionId: connection!.id } });
    const revokedBefore = provider.revoked.length;

    expect(await deletedJob(user)).toBe("done");
    expect(provider.revoked.length).toBe(revokedBefore + 1);
    expect(provider.revoked.at(-1)).toMatch(/^at-/);
    expect(provider.unsubscribed).toContain(subscription!.externalId);
    expect(await svc.db.connection.count({ where: { userId: user } })).toBe(0);
  });

  it("the deletion ends done even when the provider refuses the revoke", async () => {
    const user = await createUser(svc, key);
    await connect(user);
    let revokeCalls = 0;
    msw.use(
      http.post("https://testfit.test/api/revoke", () => {
        revokeCalls += 1;
        return HttpResponse.json({ error: "server_error" }, { status: 500 });
      }),
    );
    expect(await deletedJob(user)).toBe("done");
    expect(revokeCalls).toBe(1);
    expect(await svc.db.user.count({ where: { id: user } })).toBe(0);
    msw.resetHandlers();
  });
});

