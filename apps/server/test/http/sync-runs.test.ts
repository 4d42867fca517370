import { openTokens } from "@svc/core";
import type { JobQueue } from "@svc/jobs";
import { waitUntil } from "@svc/testing";
import { HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createUser } from "../helpers/records.ts";
import {
  connectionRow,
  eventsOf,
  FAST_SYNC,
  FakeSyncProvider,
  gate,
  insertConnection,
  queueRun,
  runRow,
  SYNC_CATALOG,
  SYNCTEST_ENV,
} from "../helpers/sync-provider.ts";
import { startTestService, type TestService } from "../helpers/test-service.ts";
import { startTestQueue, testSealer } from "../helpers/webhooks.ts";

// The sync engine end to end: runs queued as connect, plans and notifications queue them, pulled
// by the service's workers from a fake provider (msw), through every state of a sync run, with
// tokens, quotas and the connection's health and events.

const provider = new FakeSyncProvider();
const msw = setupServer(...provider.handlers());

let svc: TestService;
let jobs: JobQueue;
let key: string;

const HOUR = 3600_000;
const DAY = 24 * HOUR;

beforeAll(async () => {
  msw.listen({ onUnhandledRequest: "bypass" });
  svc = await startTestService(SYNCTEST_ENV, { providers: SYNC_CATALOG, syncSettings: FAST_SYNC });
  jobs = await startTestQueue(svc);
  key = (await svc.createTenant()).api_key;
});
afterAll(async () => {
  await jobs?.stop();
  await svc?.stop();
  msw.close();
});
beforeEach(async () => {
  provider.onData = () => HttpResponse.json({ items: [], next: null });
  provider.tokenHold = null;
  // Every test starts with the application's hourly quota (10 requests) unspent.
  await svc.db.providerQuota.deleteMany({});
});

/** A user with an active synctest connection whose tokens the fake provider knows. */
async function connectedUser(options: { accessExpiresAt?: Date; accessValid?: boolean; apiKey?: string } = {}) {
  const userId = await createUser(svc, options.apiKey ?? key);
  const grant = provider.grant({ accessValid: options.accessValid });
  const connectionId = await insertConnection(svc, { userId, tokens: grant, accessExpiresAt: options.accessExpiresAt });
  return { userId, connectionId, grant };
}

async function waitForRun(id: bigint, check: (run: Awaited<ReturnType<typeof runRow>>) => boolean, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const run = await runRow(svc, id);
    if (check(run)) return run;
    if (Date.now() > deadline) throw new Error(`sync run ${id} is still ${run.status} (attempts ${run.attempts}, error ${run.error})`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("a sync run", () => {
  it("queued -> running -> succeeded: payloads stored as raw objects (same bytes once), sync times on the connection", async () => {
    const { userId, connectionId } = await connectedUser();
    let running = false;
    const hold = gate();
    provider.onData = async ({ url }) => {
      running = true;
      await hold.wait;
      const page = Number(url.searchParams.get("page"));
      return HttpResponse.json({ items: [{ day: `2026-01-0${page}` }], next: page < 2 ? page + 1 : null });
    };
    const end = new Date();
    const run = await queueRun(svc, jobs, { connectionId, userId, trigger: "scheduled", start: new Date(end.getTime() - HOUR), end });
    expect(run.status).toBe("queued");
    await waitUntil(() => running, 10_000, "the pull");
    const during = await runRow(svc, run.id);
    expect(during.status).toBe("running");
    expect(during.startedAt).not.toBeNull();
    hold.open();

    const done = await waitForRun(run.id, (row) => row.status === "succeeded");
    expect(done.finishedAt).not.toBeNull();
    expect(done.objectsStored).toBe(2);
    expect(done.attempts).toBe(0);
    expect(done.error).toBeNull();
    const raw = await svc.db.rawObject.findMany({ where: { userId, provider: "synctest" } });
    expect(raw).toHaveLength(2);
    expect(raw.every((object) => object.format === "synctest-data" && object.contentType === "application/json")).toBe(true);
    expect(raw.every((object) => object.uploadKey === `sha256:${object.sha256}`)).toBe(true);
    const connection = await connectionRow(svc, connectionId);
    expect(connection.lastSyncAt).not.toBeNull();
    expect(connection.syncedThrough?.toISOString()).toBe(end.toISOString());
    expect(connection.initialBackfillAt).toBeNull();

    // The same pages pulled again are not stored twice.
    const again = await queueRun(svc, jobs, { connectionId, userId, trigger: "scheduled", start: new Date(end.getTime() - HOUR), end: new Date() });
    expect((await waitForRun(again.id, (row) => row.status === "succeeded")).objectsStored).toBe(0);
    expect(await svc.db.rawObject.count({ where: { userId, provider: "synctest" } })).toBe(2);

    const answer = await svc.call(`/v1/users/${userId}/sync-runs/${run.id}`, { key });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toMatchObject({
      id: Number(run.id),
      provider: "synctest",
      trigger: "scheduled",
      status: "succeeded",
      data_type: null,
      window_end: end.toISOString(),
      attempts: 0,
      objects_stored: 2,
      error: null,
      next_attempt_at: null,
    });
  });

  it("a long backfill becomes 30-day chunks, newest first; initial_backfill_at when the last one succeeded", async () => {
    const { userId, connectionId } = await connectedUser();
    const end = new Date();
    const newest = await queueRun(svc, jobs, { connectionId, userId, trigger: "backfill", start: new Date(end.getTime() - 75 * DAY), end });
    const runs = await svc.db.syncRun.findMany({ where: { connectionId }, orderBy: { id: "asc" } });
    expect(runs).toHaveLength(3);
    expect(runs[0]!.id).toBe(newest.id);
    expect(runs.map((run) => (run.windowEnd.getTime() - run.windowStart.getTime()) / DAY)).toEqual([30, 30, 15]);
    expect(runs[0]!.windowEnd.toISOString()).toBe(end.toISOString());
    expect(runs[2]!.windowStart.toISOString()).toBe(new Date(end.getTime() - 75 * DAY).toISOString());
    for (const run of runs) await waitForRun(run.id, (row) => row.status === "succeeded");
    const connection = await connectionRow(svc, connectionId);
    expect(connection.initialBackfillAt).not.toBeNull();
    expect(connection.syncedThrough?.toISOString()).toBe(end.toISOString());
  });

  it("retrying with attempts and next_attempt_at, failed when attempts are spent; pulls_failing broken once, then restored", async () => {
    const { userId, connectionId } = await connectedUser();
    provider.onData = () => new HttpResponse(null, { status: 503 });
    const end = new Date();
    const run = await queueRun(svc, jobs, { connectionId, userId, trigger: "scheduled", start: new Date(end.getTime() - HOUR), end });

    const retrying = await waitForRun(run.id, (row) => row.status === "retrying");
    expect(retrying.attempts).toBe(1);
    expect(retrying.error).toBe("GET /api/data answered 503.");
    expect(retrying.nextAttemptAt!.getTime() - Date.now()).toBeGreaterThan(0);
    expect(retrying.nextAttemptAt!.getTime() - Date.now()).toBeLessThanOrEqual(1500);
    expect(retrying.finishedAt).toBeNull();

    // FAST_SYNC: 3 attempts (2 delays); the third failure in a row breaks the connection.
    const failed = await waitForRun(run.id, (row) => row.status === "failed");
    expect(failed.attempts).toBe(3);
    expect(failed.nextAttemptAt).toBeNull();
    expect(failed.finishedAt).not.toBeNull();
    const broken = await connectionRow(svc, connectionId);
    expect(broken).toMatchObject({ status: "active", brokenReason: "pulls_failing", brokenAction: "wait", consecutiveFailures: 3 });
    expect(broken.lastError).toBe("GET /api/data answered 503.");
    const brokenEvents = await eventsOf(svc, userId, "connection.broken");
    expect(brokenEvents).toHaveLength(1);
    expect(brokenEvents[0]!.data).toMatchObject({
      user_id: userId,
      provider: "synctest",
      reason: "pulls_failing",
      action: "wait",
      retry_at: null,
      last_error: "GET /api/data answered 503.",
      consecutive_failures: 3,
    });

    // One more failure: still broken, no second event in the same episode.
    const again = await queueRun(svc, jobs, { connectionId, userId, trigger: "manual", start: new Date(end.getTime() - HOUR), end: new Date() });
    await waitForRun(again.id, (row) => row.attempts >= 1);
    expect(await eventsOf(svc, userId, "connection.broken")).toHaveLength(1);
    await svc.db.syncRun.updateMany({ where: { id: again.id }, data: { status: "cancelled" } });

    provider.onData = () => HttpResponse.json({ items: [], next: null });
    const healed = await queueRun(svc, jobs, { connectionId, userId, trigger: "scheduled", start: new Date(end.getTime() - HOUR), end: new Date() });
    await waitForRun(healed.id, (row) => row.status === "succeeded");
    const restored = await eventsOf(svc, userId, "connection.restored");
    expect(restored).toHaveLength(1);
    expect(restored[0]!.data).toMatchObject({ previous_reason: "pulls_failing", broken_since: broken.brokenSince!.toISOString() });
    expect((restored[0]!.data as { broken_seconds: number }).broken_seconds).toBeGreaterThanOrEqual(0);
    expect(await connectionRow(svc, connectionId)).toMatchObject({ brokenReason: null, brokenAction: null, brokenSince: null, consecutiveFailures: 0 });
  });

  it("rate_limited honouring Retry-After, not a failed attempt; the application waits too", async () => {
    const { userId, connectionId } = await connectedUser();
    let asked = 0;
    provider.onData = () => (++asked === 1 ? new HttpResponse(null, { status: 429, headers: { "Retry-After": "2" } }) : HttpResponse.json({ items: [], next: null }));
    const end = new Date();
    const run = await queueRun(svc, jobs, { connectionId, userId, trigger: "manual", start: new Date(end.getTime() - HOUR), end });
    const limited = await waitForRun(run.id, (row) => row.status === "rate_limited");
    const waited = limited.nextAttemptAt!.getTime() - Date.now();
    expect(waited).toBeGreaterThan(500);
    expect(waited).toBeLessThanOrEqual(2000);
    expect(limited.attempts).toBe(0);
    expect(limited.error).toBe("GET /api/data asked to wait (429).");
    const quota = await svc.db.providerQuota.findFirstOrThrow({ where: { provider: "synctest", bucket: { startsWith: "app:" } } });
    expect(quota.pausedUntil!.getTime()).toBeGreaterThan(Date.now());

    const done = await waitForRun(run.id, (row) => row.status === "succeeded");
    expect(done.attempts).toBe(0);
    expect(done.startedAt!.getTime()).toBeGreaterThanOrEqual(limited.nextAttemptAt!.getTime() - 50);
    expect(asked).toBe(2);
  });

  it("a refused grant: failed, connection needs_reauth, connection.needs_reauth and connection.broken; nothing syncs after", async () => {
    const { userId, connectionId, grant } = await connectedUser();
    provider.revoke(grant);
    const end = new Date();
    const run = await queueRun(svc, jobs, { connectionId, userId, trigger: "scheduled", start: new Date(end.getTime() - HOUR), end });
    const failed = await waitForRun(run.id, (row) => row.status === "failed");
    expect(failed.attempts).toBe(1);
    expect(failed.error).toBe("The provider refused the token refresh (400 invalid_grant).");
    expect(await connectionRow(svc, connectionId)).toMatchObject({ status: "needs_reauth", brokenReason: "needs_reauth", brokenAction: "reconnect" });
    const events = await eventsOf(svc, userId);
    expect(events.map((event) => event.type)).toEqual(["connection.needs_reauth", "connection.broken"]);
    expect(events[0]!.data).toEqual({ user_id: userId, external_ref: null, provider: "synctest" });
    expect(events[1]!.data).toEqual({ user_id: userId, external_ref: null, provider: "synctest", reason: "needs_reauth", action: "reconnect", retry_at: null });

    // A run of a connection that needs reauth ends without reaching the provider.
    const requests = provider.dataRequests.length;
    const later = await queueRun(svc, jobs, { connectionId, userId, trigger: "scheduled", start: new Date(end.getTime() - HOUR), end: new Date() });
    const ended = await waitForRun(later.id, (row) => row.status === "failed");
    expect(ended.attempts).toBe(0);
    expect(ended.startedAt).toBeNull();
    expect(ended.error).toMatch(/reauth/);
    expect(provider.dataRequests.length).toBe(requests);
  });

  it("a 403 breaks the connection with permission_missing (action reconnect); the run fails without retries", async () => {
    const { userId, connectionId } = await connectedUser();
    provider.onData = () => new HttpResponse(null, { status: 403 });
    const end = new Date();
    const run = await queueRun(svc, jobs, { connectionId, userId, trigger: "scheduled", start: new Date(end.getTime() - HOUR), end });
    const failed = await waitForRun(run.id, (row) => row.status === "failed");
    expect(failed.attempts).toBe(1);
    expect(await connectionRow(svc, connectionId)).toMatchObject({ status: "active", brokenReason: "permission_missing", brokenAction: "reconnect" });
    const [broken] = await eventsOf(svc, userId, "connection.broken");
    expect(broken!.data).toMatchObject({ reason: "permission_missing", action: "reconnect" });
  });

  it("cancelled when the connection is disconnected while queued or running", async () => {
    const { userId, connectionId } = await connectedUser();
    const hold = gate();
    let reached = false;
    provider.onData = async () => {
      reached = true;
      await hold.wait;
      return HttpResponse.json({ items: [{ late: true }], next: null });
    };
    const end = new Date();
    const running = await queueRun(svc, jobs, { connectionId, userId, trigger: "manual", start: new Date(end.getTime() - HOUR), end });
    await waitUntil(() => reached, 10_000, "the pull");
    // A waiting run (retrying, due later) of the same connection.
    const waiting = await queueRun(svc, jobs, { connectionId, userId, trigger: "scheduled", start: new Date(end.getTime() - HOUR), end });
    await svc.db.syncRun.updateMany({ where: { id: waiting.id }, data: { status: "retrying", attempts: 1, nextAttemptAt: new Date(Date.now() + HOUR) } });

    const disconnected = await svc.call(`/v1/users/${userId}/connections/synctest`, { key, method: "DELETE" });
    expect(disconnected.status, disconnected.text).toBe(204);
    expect(await runRow(svc, waiting.id)).toMatchObject({ status: "cancelled", nextAttemptAt: null });
    const cancelled = await runRow(svc, running.id);
    expect(cancelled.status).toBe("cancelled");
    // The running attempt has not ended yet: an erasure would wait for it.
    expect(cancelled.finishedAt).toBeNull();
    hold.open();
    const ended = await waitForRun(running.id, (row) => row.finishedAt !== null);
    expect(ended.status).toBe("cancelled");
    expect((await connectionRow(svc, connectionId)).syncedThrough).toBeNull();
  });

  it("cancelled without reaching the provider when it was switched off for the tenant while queued", async () => {
    const tenant = await svc.createTenant();
    const { userId, connectionId } = await connectedUser({ apiKey: tenant.api_key });
    await svc.db.tenantProvider.create({ data: { tenantId: tenant.tenant_id, provider: "synctest", enabled: false } });
    const requests = provider.dataRequests.length;
    const end = new Date();
    const run = await queueRun(svc, jobs, { connectionId, userId, trigger: "scheduled", start: new Date(end.getTime() - HOUR), end });
    const cancelled = await waitForRun(run.id, (row) => row.status === "cancelled");
    expect(cancelled.error).toBe("The provider was switched off for the tenant; it was not reached.");
    expect(cancelled.startedAt).toBeNull();
    expect(provider.dataRequests.length).toBe(requests);
    expect((await connectionRow(svc, connectionId)).status).toBe("active");
  });
});

describe("tokens", () => {
  it("are refreshed before a pull when the access token ends within 5 minutes", async () => {
    const { userId, connectionId, grant } = await connectedUser({ accessExpiresAt: new Date(Date.now() + 2 * 60_000) });
    const before = await connectionRow(svc, connectionId);
    const end = new Date();
    const run = await queueRun(svc, jobs, { connectionId, userId, trigger: "manual", start: new Date(end.getTime() - HOUR), end });
    await waitForRun(run.id, (row) => row.status === "succeeded");
    expect(provider.refreshes.filter((token) => token === grant.refreshToken)).toHaveLength(1);
    const after = await connectionRow(svc, connectionId);
    expect(after.tokenVersion).toBe(before.tokenVersion + 1);
    expect(after.accessExpiresAt!.getTime() - Date.now()).toBeGreaterThan(50 * 60_000);
    const tokens = openTokens(testSealer(), after.sealedTokens!);
    expect(tokens.accessToken).not.toBe(grant.accessToken);
    expect(tokens.refreshToken).not.toBe(grant.refreshToken);
    // The pull used the new access token.
    expect(provider.dataRequests.at(-1)!.accessToken).toBe(tokens.accessToken);
    expect(svc.logs.join("\n")).not.toContain(tokens.accessToken);
    expect(svc.logs.join("\n")).not.toContain(grant.refreshToken);
  });

  it("a 401 on a request refreshes once and retries", async () => {
    const { userId, connectionId, grant } = await connectedUser({ accessValid: false });
    const end = new Date();
    const run = await queueRun(svc, jobs, { connectionId, userId, trigger: "manual", start: new Date(end.getTime() - HOUR), end });
    await waitForRun(run.id, (row) => row.status === "succeeded");
    expect(provider.refreshes.filter((token) => token === grant.refreshToken)).toHaveLength(1);
  });

  it("two pulls at once with a rotating refresh token spend it once; the other takes the new tokens", async () => {
    const { userId, connectionId, grant } = await connectedUser({ accessExpiresAt: new Date(Date.now() + 60_000) });
    const hold = gate();
    provider.tokenHold = hold.wait;
    const end = new Date();
    const first = await queueRun(svc, jobs, { connectionId, userId, trigger: "manual", start: new Date(end.getTime() - HOUR), end });
    const second = await queueRun(svc, jobs, { connectionId, userId, trigger: "notification", start: new Date(end.getTime() - HOUR), end, dataType: "sleep" });
    // Both attempts are under way while the first refresh is still at the provider.
    await waitUntil(() => provider.refreshes.length > 0, 10_000, "the first refresh");
    await waitForRun(first.id, (row) => row.status === "running");
    await waitForRun(second.id, (row) => row.status === "running");
    await new Promise((resolve) => setTimeout(resolve, 200));
    hold.open();
    await waitForRun(first.id, (row) => row.status === "succeeded");
    await waitForRun(second.id, (row) => row.status === "succeeded");
    expect(provider.refreshes.filter((token) => token === grant.refreshToken)).toHaveLength(1);
    const connection = await connectionRow(svc, connectionId);
    expect(connection.status).toBe("active");
    const tokens = openTokens(testSealer(), connection.sealedTokens!);
    const used = provider.dataRequests.slice(-2).map((request) => request.accessToken);
    expect(used).toEqual([tokens.accessToken, tokens.accessToken]);
    expect(provider.dataRequests.slice(-2).map((request) => request.url.searchParams.get("type") ?? "all").sort()).toEqual(["all", "sleep"]);
    // Both pages had the same bytes, stored at the same moment: one raw object, no failed attempt.
    expect(await svc.db.rawObject.count({ where: { userId } })).toBe(1);
    expect((await runRow(svc, first.id)).attempts + (await runRow(svc, second.id)).attempts).toBe(0);
  });
});

describe("quotas", () => {
  it("a tenant's big backfill does not block another tenant's scheduled pull of the same application", async () => {
    // synctest: 10 requests per hour per application; a backfill may use half of them.
    await svc.db.providerQuota.deleteMany({ where: { provider: "synctest" } });
    provider.onData = ({ url }) => HttpResponse.json({ items: [url.searchParams.get("page")], next: Number(url.searchParams.get("page")) + 1 });
    const big = await connectedUser();
    const end = new Date();
    const backfill = await queueRun(svc, jobs, { connectionId: big.connectionId, userId: big.userId, trigger: "backfill", start: new Date(end.getTime() - 10 * DAY), end });
    const limited = await waitForRun(backfill.id, (row) => row.status === "rate_limited");
    expect(limited.attempts).toBe(0);
    expect(limited.objectsStored).toBe(5);
    expect(limited.error).toMatch(/quota of the application is spent/);
    // Not before the application's window is over (an hour): for that long the connection is broken (provider_quota, wait).
    expect(limited.nextAttemptAt!.getTime() - Date.now()).toBeGreaterThan(50 * 60_000);
    const [broken] = await eventsOf(svc, big.userId, "connection.broken");
    expect(broken!.data).toMatchObject({ reason: "provider_quota", action: "wait", retry_at: limited.nextAttemptAt!.toISOString() });

    const otherTenant = await svc.createTenant();
    provider.onData = () => HttpResponse.json({ items: [], next: null });
    const small = await connectedUser({ apiKey: otherTenant.api_key });
    const scheduled = await queueRun(svc, jobs, { connectionId: small.connectionId, userId: small.userId, trigger: "scheduled", start: new Date(end.getTime() - HOUR), end });
    const done = await waitForRun(scheduled.id, (row) => row.status === "succeeded");
    expect(done.objectsStored).toBe(1);
    await svc.db.syncRun.updateMany({ where: { id: backfill.id }, data: { status: "cancelled" } });
  });
});
