import { randomUUID } from "node:crypto";
import type { JobQueue } from "@svc/jobs";
import { waitUntil } from "@svc/testing";
import { HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../helpers/records.ts";
import { connectionRow, FAST_SYNC, FakeSyncProvider, gate, insertConnection, queueRun, runRow, SYNC_CATALOG, SYNCTEST_ENV } from "../helpers/sync-provider.ts";
import { startTestService, type TestService } from "../helpers/test-service.ts";
import { startTestQueue } from "../helpers/webhooks.ts";

// GET /v1/users/{id}/freshness, the planning of scheduled pulls (sync-plan) and a provider
// erasure waiting for a pull still running.

const provider = new FakeSyncProvider();
const msw = setupServer(...provider.handlers());

let svc: TestService;
let jobs: JobQueue;
let key: string;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

beforeAll(async () => {
  msw.listen({ onUnhandledRequest: "bypass" });
  svc = await startTestService(SYNCTEST_ENV, { providers: SYNC_CATALOG, syncSettings: { ...FAST_SYNC, backfillQuotaShare: 1 } });
  jobs = await startTestQueue(svc);
  key = (await svc.createTenant()).api_key;
});
afterAll(async () => {
  await jobs?.stop();
  await svc?.stop();
  msw.close();
});

async function connectedUser(options: Omit<Parameters<typeof insertConnection>[1], "userId"> = {}, apiKey = key) {
  const userId = await createUser(svc, apiKey);
  const connectionId = await insertConnection(svc, { tokens: provider.grant(), ...options, userId });
  return { userId, connectionId };
}

async function freshness(userId: string) {
  const answer = await svc.call(`/v1/users/${userId}/freshness`, { key });
  expect(answer.status, answer.text).toBe(200);
  return answer.body.data as Array<Record<string, any>>;
}

function insertUpload(userId: string, status: "receiving" | "pending" | "processed" | "failed", receivedAt: Date, error: string | null = null) {
  return svc.db.rawObject.create({
    data: {
      userId,
      provider: "apple_health",
      format: "apple-health-ndjson",
      contentType: "application/x-ndjson",
      storageKey: `${userId}/${randomUUID()}`,
      status,
      receivedAt,
      processedAt: status === "processed" || status === "failed" ? receivedAt : null,
      error,
    },
  });
}

describe("GET /v1/users/{id}/freshness", () => {
  it("gives each connection its state: fresh, stale, syncing, failing, needs_reauth, disconnected", async () => {
    const syncedThrough = new Date(Date.now() - 10 * MINUTE);
    const nextPullAt = new Date(Date.now() + 20 * MINUTE);
    const fresh = await connectedUser({ syncedThrough, nextPullAt });
    const [entry] = await freshness(fresh.userId);
    expect(entry).toEqual({
      provider: "synctest",
      kind: "push",
      state: "fresh",
      synced_through: syncedThrough.toISOString(),
      lag_seconds: expect.any(Number),
      last_notification_at: null,
      next_pull_at: nextPullAt.toISOString(),
      last_error: null,
    });
    expect(Math.abs(entry!.lag_seconds - 600)).toBeLessThan(5);

    // synctest pulls hourly: stale when the data is more than 2 hours old, or never synced.
    const stale = await connectedUser({ syncedThrough: new Date(Date.now() - 3 * HOUR) });
    expect((await freshness(stale.userId))[0]!.state).toBe("stale");
    const never = await connectedUser();
    expect((await freshness(never.userId))[0]).toMatchObject({ state: "stale", synced_through: null, lag_seconds: null });

    const syncing = await connectedUser({ syncedThrough: new Date(Date.now() - 3 * HOUR) });
    await svc.db.syncRun.create({
      data: { connectionId: syncing.connectionId, userId: syncing.userId, provider: "synctest", trigger: "scheduled", windowStart: new Date(Date.now() - HOUR), windowEnd: new Date() },
    });
    expect((await freshness(syncing.userId))[0]!.state).toBe("syncing");

    const failing = await connectedUser({ syncedThrough, brokenReason: "pulls_failing" });
    const errorAt = new Date(Date.now() - MINUTE);
    await svc.db.connection.updateMany({ where: { id: failing.connectionId }, data: { lastError: "GET /api/data answered 503.", lastErrorAt: errorAt, lastNotificationAt: errorAt } });
    expect((await freshness(failing.userId))[0]).toMatchObject({
      state: "failing",
      last_error: { message: "GET /api/data answered 503.", at: errorAt.toISOString() },
      last_notification_at: errorAt.toISOString(),
    });

    const reauth = await connectedUser({ status: "needs_reauth", syncedThrough, nextPullAt });
    expect((await freshness(reauth.userId))[0]).toMatchObject({ state: "needs_reauth", next_pull_at: null });
    const gone = await connectedUser({ status: "disconnected", syncedThrough });
    expect((await freshness(gone.userId))[0]!.state).toBe("disconnected");
  });

  it("counts device uploads as sources: fresh within 48 hours, stale after, syncing while one is processed, failing when the latest failed", async () => {
    const userId = await createUser(svc, key);
    await insertConnection(svc, { userId, tokens: provider.grant(), syncedThrough: new Date() });
    const uploadedAt = new Date(Date.now() - HOUR);
    await insertUpload(userId, "processed", new Date(Date.now() - 5 * DAY));
    await insertUpload(userId, "processed", uploadedAt);
    const entries = await freshness(userId);
    expect(entries.map((entry) => entry.provider)).toEqual(["synctest", "apple_health"]);
    expect(entries[1]).toEqual({
      provider: "apple_health",
      kind: "device",
      state: "fresh",
      synced_through: uploadedAt.toISOString(),
      lag_seconds: expect.any(Number),
      last_notification_at: null,
      next_pull_at: null,
      last_error: null,
    });

    const staleUser = await createUser(svc, key);
    await insertUpload(staleUser, "processed", new Date(Date.now() - 3 * DAY));
    expect((await freshness(staleUser))[0]!.state).toBe("stale");

    await insertUpload(staleUser, "pending", new Date());
    expect((await freshness(staleUser))[0]!.state).toBe("syncing");

    const failingUser = await createUser(svc, key);
    await insertUpload(failingUser, "processed", new Date(Date.now() - 2 * HOUR));
    const failed = await insertUpload(failingUser, "failed", new Date(Date.now() - HOUR), "The body is not gzip.");
    expect((await freshness(failingUser))[0]).toMatchObject({
      state: "failing",
      last_error: { message: "The body is not gzip.", at: failed.processedAt!.toISOString() },
    });

    expect(await freshness(await createUser(svc, key))).toEqual([]);
  });

  it("404 for a user of another tenant", async () => {
    const other = await svc.createTenant();
    const userId = await createUser(svc, other.api_key);
    expect((await svc.call(`/v1/users/${userId}/freshness`, { key })).status).toBe(404);
  });
});

describe("scheduled pulls (sync-plan)", () => {
  it("spread each connection's next pull over the interval, then queue a scheduled run when it is due", async () => {
    const planned = [];
    for (let index = 0; index < 8; index++) planned.push(await connectedUser());
    const before = Date.now();
    await jobs.send("sync-plan", {});
    const ids = planned.map((user) => user.connectionId);
    await waitUntil(async () => (await svc.db.connection.count({ where: { id: { in: ids }, nextPullAt: null } })) === 0, 10_000, "the plan");
    const rows = await svc.db.connection.findMany({ where: { id: { in: ids } } });
    for (const row of rows) {
      expect(row.nextPullAt!.getTime()).toBeGreaterThan(before);
      expect(row.nextPullAt!.getTime()).toBeLessThanOrEqual(Date.now() + HOUR);
    }
    // Spread: no two connections share a minute of the hour.
    expect(new Set(rows.map((row) => Math.floor(row.nextPullAt!.getTime() / MINUTE))).size).toBeGreaterThanOrEqual(7);
    // The first plan only places the pulls (the backfill covers the present).
    expect(await svc.db.syncRun.count({ where: { connectionId: { in: ids } } })).toBe(0);

    const syncedThrough = new Date(Date.now() - 2 * HOUR);
    const due = await connectedUser({ syncedThrough, nextPullAt: new Date(Date.now() - MINUTE) });
    const dueNever = await connectedUser({ nextPullAt: new Date(Date.now() - MINUTE) });
    // An open scheduled run already: no second one.
    const busy = await connectedUser({ nextPullAt: new Date(Date.now() - MINUTE) });
    await svc.db.syncRun.create({
      data: {
        connectionId: busy.connectionId,
        userId: busy.userId,
        provider: "synctest",
        trigger: "scheduled",
        status: "retrying",
        attempts: 1,
        nextAttemptAt: new Date(Date.now() + HOUR),
        windowStart: new Date(Date.now() - HOUR),
        windowEnd: new Date(),
      },
    });
    // Off for its tenant: no run planned.
    const offTenant = await svc.createTenant();
    await svc.db.tenantProvider.create({ data: { tenantId: offTenant.tenant_id, provider: "synctest", enabled: false } });
    const off = await connectedUser({ nextPullAt: new Date(Date.now() - MINUTE) }, offTenant.api_key);
    // Quota counters of an erased connection go.
    await svc.db.providerQuota.create({ data: { provider: "synctest", bucket: "user:999999999", windowStart: new Date(), used: 3 } });

    const planAt = Date.now();
    await jobs.send("sync-plan", {});
    const moved = [due, dueNever, busy, off].map((user) => user.connectionId);
    await waitUntil(
      async () => (await svc.db.connection.count({ where: { id: { in: moved }, nextPullAt: { gt: new Date(planAt) } } })) === 4,
      10_000,
      "the second plan",
    );
    const [dueRun] = await svc.db.syncRun.findMany({ where: { connectionId: due.connectionId } });
    expect(dueRun).toMatchObject({ trigger: "scheduled", windowStart: new Date(syncedThrough.getTime() - HOUR) });
    expect(Math.abs(dueRun!.windowEnd.getTime() - planAt)).toBeLessThan(5000);
    const [neverRun] = await svc.db.syncRun.findMany({ where: { connectionId: dueNever.connectionId } });
    expect(Math.abs(neverRun!.windowStart.getTime() - (planAt - DAY))).toBeLessThan(5000);
    expect(await svc.db.syncRun.count({ where: { connectionId: busy.connectionId } })).toBe(1);
    expect(await svc.db.syncRun.count({ where: { connectionId: off.connectionId } })).toBe(0);
    await waitUntil(async () => (await runRow(svc, dueRun!.id)).status === "succeeded", 10_000, "the scheduled run");
    expect((await connectionRow(svc, due.connectionId)).syncedThrough!.getTime()).toBe(dueRun!.windowEnd.getTime());
    expect(await svc.db.providerQuota.count({ where: { bucket: "user:999999999" } })).toBe(0);
  });
});

describe("a provider erasure", () => {
  it("waits while a pull of the user and provider is still running, then erases", async () => {
    const { userId, connectionId } = await connectedUser();
    const hold = gate();
    let reached = false;
    provider.onData = async () => {
      reached = true;
      await hold.wait;
      return HttpResponse.json({ items: ["late"], next: null });
    };
    try {
      const end = new Date();
      const run = await queueRun(svc, jobs, { connectionId, userId, trigger: "manual", start: new Date(end.getTime() - HOUR), end });
      await waitUntil(() => reached, 10_000, "the pull");
      const answer = await svc.call(`/v1/users/${userId}/connections/synctest?delete_data=true`, { key, method: "DELETE" });
      expect(answer.status, answer.text).toBe(202);
      const jobId = answer.body.job_id as string;
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect((await svc.db.deletionJob.findUniqueOrThrow({ where: { id: jobId } })).status).toBe("pending");
      expect((await runRow(svc, run.id)).finishedAt).toBeNull();
      hold.open();
      await waitUntil(async () => (await svc.db.deletionJob.findUniqueOrThrow({ where: { id: jobId } })).status === "done", 20_000, "the erasure");
      expect(await svc.db.rawObject.count({ where: { userId, provider: "synctest" } })).toBe(0);
      expect(await svc.db.syncRun.count({ where: { userId } })).toBe(0);
    } finally {
      hold.open();
      provider.onData = () => HttpResponse.json({ items: [], next: null });
    }
  });
});
