import { applicationIdOf, createAdminKey, type Connector } from "@svc/core";
import { waitUntil } from "@svc/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../helpers/records.ts";
import { ACME, acmeSignature, TEST_CATALOG } from "../helpers/keyed-connector.ts";
import { startTestService, type TestService } from "../helpers/test-service.ts";

const INSTANCE_KEYS = { CLIENT_ID: "acme-client-inst-01", CLIENT_SECRET: "acme-SECRET-inbound-inst" };
const TENANT_KEYS = { CLIENT_ID: "acme-client-own-01", CLIENT_SECRET: "acme-SECRET-inbound-own" };

let svc: TestService;
let adminKey: string;

beforeAll(async () => {
  svc = await startTestService({}, { providers: TEST_CATALOG });
  adminKey = (await createAdminKey(svc.db, "test")).admin_key;
  const saved = await svc.call("/v1/admin/providers/acme/keys", { key: adminKey, method: "PUT", body: { keys: INSTANCE_KEYS } });
  expect(saved.status, saved.text).toBe(200);
});
afterAll(() => svc?.stop());

/** A tenant with one user connected to acme as `providerUserId`, made with the instance's keys or its own. */
async function connectedUser(providerUserId: string, own = false) {
  const tenant = await svc.createTenant();
  if (own) {
    const put = await svc.call(`/v1/admin/tenants/${tenant.tenant_id}/providers/acme/keys`, { key: adminKey, method: "PUT", body: { keys: TENANT_KEYS } });
    expect(put.status, put.text).toBe(200);
  }
  const userId = await createUser(svc, tenant.api_key);
  const keys = own ? TENANT_KEYS : INSTANCE_KEYS;
  const connection = await svc.db.connection.create({
    data: {
      userId,
      provider: "acme",
      providerUserId,
      keySource: own ? "tenant" : "instance",
      applicationId: applicationIdOf(ACME, keys),
      nextPullAt: new Date(Date.now() + 86_400_000),
    },
  });
  return { userId, connectionId: connection.id };
}

function notify(body: string, secret: string | null, headers: Record<string, string> = {}) {
  return fetch(`${svc.url}/providers/acme/notifications`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(secret && { "x-acme-signature": acmeSignature(secret, body) }), ...headers },
    body,
  });
}

const notificationRuns = (userId: string) => svc.db.syncRun.findMany({ where: { userId, trigger: "notification" } });

describe("/providers/{slug}/notifications", () => {
  it("404 for a provider unknown to this build or one that takes no notifications", async () => {
    for (const slug of ["nope", "xiaomi", "demo"]) {
      const answer = await fetch(`${svc.url}/providers/${slug}/notifications`, { method: "POST", body: "{}" });
      expect(answer.status, slug).toBe(404);
      expect(answer.headers.get("content-type")).toContain("application/problem+json");
    }
  });

  it("answers the subscription handshake (GET) with the connector's answer", async () => {
    const answer = await fetch(`${svc.url}/providers/acme/notifications?challenge=abc123`);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ challenge: "abc123" });
  });

  it("queues a notification pull for the connection of the provider user, signed with the instance's keys", async () => {
    const { userId, connectionId } = await connectedUser("acme-user-instance");
    const body = JSON.stringify({ user_id: "acme-user-instance", type: "activity" });
    const answer = await notify(body, INSTANCE_KEYS.CLIENT_SECRET);
    expect(answer.status).toBe(204);
    const runs = await notificationRuns(userId);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ provider: "acme", dataType: "activity", connectionId });
    expect((await svc.db.connection.findFirstOrThrow({ where: { id: connectionId } })).lastNotificationAt).not.toBeNull();
  });

  it("verifies with a tenant's own keys too", async () => {
    const { userId } = await connectedUser("acme-user-own", true);
    const answer = await notify(JSON.stringify({ user_id: "acme-user-own", type: "activity" }), TENANT_KEYS.CLIENT_SECRET);
    expect(answer.status).toBe(204);
    expect(await notificationRuns(userId)).toHaveLength(1);
  });

  it("queues nothing for a notification no key set verifies", async () => {
    const { userId } = await connectedUser("acme-user-forged");
    const body = JSON.stringify({ user_id: "acme-user-forged", type: "activity" });
    const unsigned = await notify(body, null);
    expect(unsigned.status).toBe(401);
    const forged = await notify(body, "not-the-secret");
    expect(forged.status).toBe(401);
    expect(await forged.text()).toBe("bad signature");
    expect(await notificationRuns(userId)).toHaveLength(0);
  });

  it("stores payloads a push delivers in the notification itself as raw objects of the connection", async () => {
    const { userId } = await connectedUser("acme-user-push");
    const body = JSON.stringify({ user_id: "acme-user-push", type: "activity", data: { steps: "pushed-payload-marker" } });
    const answer = await notify(body, INSTANCE_KEYS.CLIENT_SECRET);
    expect(answer.status).toBe(204);
    const raw = await svc.db.rawObject.findMany({ where: { userId, provider: "acme" } });
    expect(raw).toHaveLength(1);
    expect(raw[0]).toMatchObject({ format: "acme-activity" });
    expect(await notificationRuns(userId)).toHaveLength(0);
  });

  it("a handler that throws is a 400 problem, a body over 1 MiB a 413, never a 500", async () => {
    const broken = await notify("not json", INSTANCE_KEYS.CLIENT_SECRET);
    expect(broken.status).toBe(400);
    expect(broken.headers.get("content-type")).toContain("application/problem+json");
    const huge = await notify(JSON.stringify({ user_id: "x", type: "activity", pad: "x".repeat(1024 * 1024) }), INSTANCE_KEYS.CLIENT_SECRET);
    expect(huge.status).toBe(413);
  });

  it("the build's own connectors never answer a garbage notification with a 5xx", async () => {
    const withNotifications = TEST_CATALOG.all().filter((provider): provider is Connector => provider.kind !== "device" && !!provider.notifications);
    for (const provider of withNotifications) {
      for (const init of [{ method: "GET" }, { method: "POST", body: "garbage" }, { method: "POST", body: "{}", headers: { "content-type": "application/json" } }]) {
        const answer = await fetch(`${svc.url}/providers/${provider.slug}/notifications`, init);
        expect(answer.status, `${provider.slug} ${init.method}`).toBeLessThan(500);
      }
    }
  });

  it("logs provider, status and counts only: no body, no secret", async () => {
    await waitUntil(() => svc.logs.some((line) => line.includes('"provider notification"')));
    const lines = svc.logs.filter((line) => line.includes('"provider notification"')).map((line) => JSON.parse(line));
    expect(lines.some((line) => line.provider === "acme" && line.status === 204 && line.pulls === 1 && line.payloads === 0)).toBe(true);
    const logs = svc.logs.join("\n");
    for (const value of ["pushed-payload-marker", "acme-user-push", INSTANCE_KEYS.CLIENT_SECRET, TENANT_KEYS.CLIENT_SECRET, "abc123"]) {
      expect(logs).not.toContain(value);
    }
  });
});

describe("/providers/{slug}/notifications: revoked access", () => {
  const outboxOf = async (userId: string) =>
    (await svc.db.outboxEvent.findMany({ where: { userId }, orderBy: { createdAt: "asc" } })).map((event) => ({ type: event.type, data: event.data }));

  it("a verified revocation moves the connection to needs_reauth, cancels its open runs and sends connection.needs_reauth and connection.broken", async () => {
    const { userId, connectionId } = await connectedUser("acme-user-revoked");
    const open = await svc.db.syncRun.create({
      data: { connectionId, userId, provider: "acme", trigger: "scheduled", status: "queued", windowStart: new Date(Date.now() - 3_600_000), windowEnd: new Date() },
    });
    const body = JSON.stringify({ user_id: "acme-user-revoked", type: "activity", revoked: true });

    // Unverified, nothing moves.
    expect((await notify(body, "not-the-secret")).status).toBe(401);
    expect((await svc.db.connection.findFirstOrThrow({ where: { id: connectionId } })).status).toBe("active");

    const answer = await notify(body, INSTANCE_KEYS.CLIENT_SECRET);
    expect(answer.status).toBe(204);
    expect(await svc.db.connection.findFirstOrThrow({ where: { id: connectionId } })).toMatchObject({
      status: "needs_reauth",
      brokenReason: "needs_reauth",
      brokenAction: "reconnect",
    });
    expect(await svc.db.syncRun.findFirstOrThrow({ where: { id: open.id } })).toMatchObject({ status: "cancelled", error: "The user revoked access at the provider." });
    const aboutUser = { user_id: userId, external_ref: null, provider: "acme" };
    expect(await outboxOf(userId)).toEqual([
      { type: "connection.needs_reauth", data: aboutUser },
      { type: "connection.broken", data: { ...aboutUser, reason: "needs_reauth", action: "reconnect", retry_at: null } },
    ]);

    // A second notice changes nothing and sends nothing more.
    expect((await notify(body, INSTANCE_KEYS.CLIENT_SECRET)).status).toBe(204);
    expect(await outboxOf(userId)).toHaveLength(2);
    expect(await notificationRuns(userId)).toHaveLength(0);
  });

  it("a tenant's own keys cannot revoke, or push data to, a connection made with another application", async () => {
    // A tenant with its own acme application signs notices about a user connected through the instance's application.
    await connectedUser("acme-user-own-signer", true);
    const { userId, connectionId } = await connectedUser("acme-user-other-app");
    const revoke = JSON.stringify({ user_id: "acme-user-other-app", type: "activity", revoked: true });
    expect((await notify(revoke, TENANT_KEYS.CLIENT_SECRET)).status).toBe(204);
    const push = JSON.stringify({ user_id: "acme-user-other-app", type: "activity", data: { steps: "forged-payload" } });
    expect((await notify(push, TENANT_KEYS.CLIENT_SECRET)).status).toBe(204);
    expect((await svc.db.connection.findFirstOrThrow({ where: { id: connectionId } })).status).toBe("active");
    expect(await svc.db.rawObject.count({ where: { userId } })).toBe(0);
    expect(await outboxOf(userId)).toEqual([]);
  });
});
