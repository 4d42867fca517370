import { waitUntil } from "@svc/testing";
import { HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, readAllPages } from "../helpers/records.ts";
import { FAST_SYNC, FakeSyncProvider, gate, insertConnection, SYNC_CATALOG, SYNCTEST_ENV } from "../helpers/sync-provider.ts";
import { startTestService, type TestService } from "../helpers/test-service.ts";

// POST /v1/users/{id}/connections/{provider}/sync (sync now) and the sync log:
// GET /v1/users/{id}/sync-runs and /sync-runs/{run_id}.

const provider = new FakeSyncProvider();
const msw = setupServer(...provider.handlers());

let svc: TestService;
let key: string;
let otherKey: string;

const HOUR = 3600_000;
const DAY = 24 * HOUR;

beforeAll(async () => {
  msw.listen({ onUnhandledRequest: "bypass" });
  svc = await startTestService(SYNCTEST_ENV, { providers: SYNC_CATALOG, syncSettings: { ...FAST_SYNC, backfillQuotaShare: 1 } });
  key = (await svc.createTenant()).api_key;
  otherKey = (await svc.createTenant()).api_key;
});
afterAll(async () => {
  await svc?.stop();
  msw.close();
});

async function connectedUser(options: Omit<Parameters<typeof insertConnection>[1], "userId"> = {}, apiKey = key) {
  const userId = await createUser(svc, apiKey);
  const connectionId = await insertConnection(svc, { tokens: provider.grant(), ...options, userId });
  return { userId, connectionId };
}

const syncNow = (userId: string, body: Record<string, unknown> = {}, slug = "synctest", apiKey = key) =>
  svc.call(`/v1/users/${userId}/connections/${slug}/sync`, { key: apiKey, body });

const near = (iso: string, expected: number, toleranceMs = 5000) => Math.abs(new Date(iso).getTime() - expected) < toleranceMs;

describe("POST /v1/users/{id}/connections/{provider}/sync", () => {
  it("202 with a manual run from a day back to now when never synced, and a Location to follow it", async () => {
    const { userId } = await connectedUser();
    const answer = await syncNow(userId);
    expect(answer.status, answer.text).toBe(202);
    expect(answer.body).toMatchObject({ provider: "synctest", trigger: "manual", data_type: null, attempts: 0 });
    expect(near(answer.body.window_end, Date.now())).toBe(true);
    expect(new Date(answer.body.window_end).getTime() - new Date(answer.body.window_start).getTime()).toBe(DAY);
    expect(answer.headers.get("location")).toBe(`/v1/users/${userId}/sync-runs/${answer.body.id}`);

    await waitUntil(async () => (await svc.call(answer.headers.get("location")!, { key })).body.status === "succeeded", 10_000, "the run");
    const followed = await svc.call(answer.headers.get("location")!, { key });
    expect(followed.status).toBe(200);
    expect(followed.body).toMatchObject({ id: answer.body.id, status: "succeeded", objects_stored: 1 });
  });

  it("200 with the open manual run instead of a second one", async () => {
    const { userId, connectionId } = await connectedUser();
    const hold = gate();
    let reached = false;
    provider.onData = async () => {
      reached = true;
      await hold.wait;
      return HttpResponse.json({ items: [], next: null });
    };
    try {
      const first = await syncNow(userId);
      expect(first.status, first.text).toBe(202);
      const queuedAgain = await syncNow(userId);
      expect(queuedAgain.status).toBe(200);
      expect(queuedAgain.body.id).toBe(first.body.id);
      await waitUntil(() => reached, 10_000, "the pull");
      const runningAgain = await syncNow(userId, { from: new Date(Date.now() - 3 * DAY).toISOString() });
      expect(runningAgain.status).toBe(200);
      expect(runningAgain.body).toMatchObject({ id: first.body.id, status: "running", window_start: first.body.window_start });
      expect(runningAgain.headers.get("location")).toBe(`/v1/users/${userId}/sync-runs/${first.body.id}`);
      expect(await svc.db.syncRun.count({ where: { connectionId } })).toBe(1);
    } finally {
      hold.open();
      provider.onData = () => HttpResponse.json({ items: [], next: null });
    }
    await waitUntil(async () => (await svc.db.syncRun.count({ where: { connectionId, status: "succeeded" } })) === 1, 10_000, "the run");
    const next = await syncNow(userId);
    expect(next.status).toBe(202);
  });

  it("starts an hour before where the data ends (never more than 30 days back), or at from", async () => {
    const syncedThrough = new Date(Date.now() - 2 * HOUR);
    const { userId } = await connectedUser({ syncedThrough });
    const answer = await syncNow(userId);
    expect(answer.status, answer.text).toBe(202);
    expect(answer.body.window_start).toBe(new Date(syncedThrough.getTime() - HOUR).toISOString());

    const old = await connectedUser({ syncedThrough: new Date(Date.now() - 40 * DAY) });
    const capped = await syncNow(old.userId);
    expect(capped.status).toBe(202);
    expect(near(capped.body.window_start, Date.now() - 30 * DAY)).toBe(true);

    const from = new Date(Date.now() - 10 * DAY).toISOString();
    const other = await connectedUser();
    const fromAnswer = await syncNow(other.userId, { from });
    expect(fromAnswer.status).toBe(202);
    expect(fromAnswer.body.window_start).toBe(from);
  });

  it("400 for from more than 30 days back, in the future or not a date-time", async () => {
    const { userId, connectionId } = await connectedUser();
    for (const from of [new Date(Date.now() - 31 * DAY).toISOString(), new Date(Date.now() + HOUR).toISOString(), "yesterday", 5]) {
      const answer = await syncNow(userId, { from });
      expect(answer.status, String(from)).toBe(400);
    }
    expect(await svc.db.syncRun.count({ where: { connectionId } })).toBe(0);
  });

  it("409 when the connection needs reauth or is disconnected, the provider is off for the tenant or not enabled on the instance", async () => {
    const reauth = await connectedUser({ status: "needs_reauth" });
    expect((await syncNow(reauth.userId)).status).toBe(409);
    const gone = await connectedUser({ status: "disconnected" });
    expect((await syncNow(gone.userId)).status).toBe(409);

    const tenant = await svc.createTenant();
    await svc.db.tenantProvider.create({ data: { tenantId: tenant.tenant_id, provider: "synctest", enabled: false } });
    const off = await connectedUser({}, tenant.api_key);
    const offAnswer = await syncNow(off.userId, {}, "synctest", tenant.api_key);
    expect(offAnswer.status).toBe(409);
    expect(offAnswer.body.detail).toMatch(/switched off/);

    const keyless = await connectedUser({ provider: "synckeyless" });
    const keylessAnswer = await syncNow(keyless.userId, {}, "synckeyless");
    expect(keylessAnswer.status).toBe(409);
    expect(keylessAnswer.body.detail).toMatch(/not enabled on this instance/);
    expect(await svc.db.syncRun.count({ where: { userId: { in: [reauth.userId, gone.userId, off.userId, keyless.userId] } } })).toBe(0);
  });

  it("404 without a connection of the provider, for a provider unknown to this build, or a user of another tenant", async () => {
    const userId = await createUser(svc, key);
    expect((await syncNow(userId)).status).toBe(404);
    expect((await syncNow(userId, {}, "nosuch")).status).toBe(404);
    const { userId: connected } = await connectedUser();
    expect((await syncNow(connected, {}, "synctest", otherKey)).status).toBe(404);
  });
});

describe("GET /v1/users/{id}/sync-runs", () => {
  it("pages the user's runs oldest first; one run by id; another user's or tenant's run is 404", async () => {
    const { userId, connectionId } = await connectedUser();
    const created = [];
    for (let index = 0; index < 5; index++) {
      const start = new Date(Date.now() - (index + 2) * HOUR);
      const run = await svc.db.syncRun.create({
        data: { connectionId, userId, provider: "synctest", trigger: "scheduled", status: "failed", windowStart: start, windowEnd: new Date(start.getTime() + HOUR), attempts: 6, error: "GET /api/data answered 503." },
      });
      created.push(Number(run.id));
    }
    const runs = await readAllPages(svc, `/v1/users/${userId}/sync-runs`, key, 2);
    expect(runs.map((run) => run.id)).toEqual(created);
    expect(runs[0]).toMatchObject({ status: "failed", attempts: 6, error: "GET /api/data answered 503.", objects_stored: null, started_at: null });

    const page = await svc.call(`/v1/users/${userId}/sync-runs?limit=2`, { key });
    expect(page.body.data).toHaveLength(2);
    expect(page.body.next_cursor).toEqual(expect.any(String));
    expect((await svc.call(`/v1/users/${userId}/sync-runs?limit=1001`, { key })).status).toBe(400);
    expect((await svc.call(`/v1/users/${userId}/sync-runs?cursor=nonsense`, { key })).status).toBe(400);

    const one = await svc.call(`/v1/users/${userId}/sync-runs/${created[2]}`, { key });
    expect(one.status).toBe(200);
    expect(one.body).toEqual(runs[2]);

    const stranger = await createUser(svc, key);
    expect((await svc.call(`/v1/users/${stranger}/sync-runs/${created[2]}`, { key })).status).toBe(404);
    expect((await svc.call(`/v1/users/${stranger}/sync-runs`, { key })).body).toEqual({ data: [], next_cursor: null });
    expect((await svc.call(`/v1/users/${userId}/sync-runs/${created[2]}`, { key: otherKey })).status).toBe(404);
    expect((await svc.call(`/v1/users/${userId}/sync-runs`, { key: otherKey })).status).toBe(404);
    expect((await svc.call(`/v1/users/${userId}/sync-runs/0`, { key })).status).toBe(400);
  });
});
