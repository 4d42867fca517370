// The delivery worker against real local receivers, on a compressed delivery schedule:
// signing, fan-out, failures of every kind, the retry ladder to parked and to a disabled
// endpoint, attempt history, secret rotation, unsealable secrets, user deletion, latency.
import { randomBytes, randomUUID } from "node:crypto";
import { cleanUpWebhookDeliveries, createSealer, type DeliverySchedule } from "@svc/core";
import type { JobQueue } from "@svc/jobs";
import { closedPort, replies, startRawReceiver, startWebhookReceiver, waitUntil, type WebhookReceiver } from "@svc/testing";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../helpers/records.ts";
import { startTestService, type TestService } from "../helpers/test-service.ts";
import {
  TEST_ENCRYPTION_KEY,
  attemptsOf,
  deliveriesOf,
  emit,
  endpointRow,
  insertEndpoint,
  newWebhookSecret,
  sleep,
  startTestQueue,
  testEvent,
  testSealer,
  verifyWith,
} from "../helpers/webhooks.ts";

const HOUR = 60 * 60_000;
const FIRST_RETRY_MS = 300;
const schedule: DeliverySchedule = {
  // The first retry waits, so its spacing can be checked; the rest are due at once.
  retryDelaysMs: [FIRST_RETRY_MS, 0, 0, 0, 0, 0, 0],
  timeoutMs: 1_000,
  // Endpoints created "now" stay active when a delivery parks; tests backdate created_at to see one disabled.
  disableAfterMs: HOUR,
  keepFinishedMs: 24 * HOUR,
  historyKept: 10,
  waitingReplaysMax: 10,
};

let svc: TestService;
let jobs: JobQueue;
const open: Array<{ close(): Promise<void> }> = [];

beforeAll(async () => {
  svc = await startTestService(
    { SVC_WEBHOOK_ALLOW_PRIVATE: "true", SVC_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY },
    { webhookSchedule: schedule },
  );
  jobs = await startTestQueue(svc);
});
afterAll(async () => {
  await jobs?.stop();
  await svc?.stop();
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((server) => server.close()));
});

async function receiver(reply = replies.ok()): Promise<WebhookReceiver> {
  const started = await startWebhookReceiver(reply);
  open.push(started);
  return started;
}

async function tenant(): Promise<{ tenantId: string; key: string }> {
  const created = await svc.createTenant();
  return { tenantId: created.tenant_id, key: created.api_key };
}

/** Waits until the endpoint's deliveries satisfy `check`; returns them. */
async function waitForDeliveries(endpointId: string, check: (rows: Awaited<ReturnType<typeof deliveriesOf>>) => boolean, timeoutMs = 20_000) {
  let rows = await deliveriesOf(svc, endpointId);
  await waitUntil(async () => check((rows = await deliveriesOf(svc, endpointId))), timeoutMs, `deliveries of ${endpointId}`);
  return rows;
}

const allIn = (status: string) => (rows: Array<{ status: string }>) => rows.length > 0 && rows.every((row) => row.status === status);

describe("a healthy receiver", () => {
  it("gets the event from a real operation, signed: the official library verifies it and the body is the stored one byte for byte", async () => {
    const { tenantId, key } = await tenant();
    const target = await receiver(replies.status(204));
    const endpoint = await insertEndpoint(svc, tenantId, target.url);
    const user = await createUser(svc, key);

    const tag = await svc.call(`/v1/users/${user}/tags`, { key, body: { kind: "sauna", label: "Sauna", start_at: "2026-03-01T18:00:00Z" } });
    expect(tag.status, tag.text).toBe(201);
    const [delivery] = await waitForDeliveries(endpoint.id, allIn("done"), 5_000);

    expect(target.requests).toHaveLength(1);
    const [request] = target.requests;
    expect(request?.method).toBe("POST");
    expect(request?.url).toBe("/hook");
    expect(request?.headers["content-type"]).toBe("application/json");
    expect(request?.headers["webhook-id"]).toBe(delivery?.eventId);
    expect(Math.abs(Number(request?.headers["webhook-timestamp"]) - Date.now() / 1000)).toBeLessThan(10);
    expect(request?.headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(verifyWith(endpoint.secret, request!)).toEqual({
      id: delivery?.eventId,
      type: "tag.created",
      timestamp: expect.any(String),
      data: { user_id: user, external_ref: null, tag_id: tag.body.tag_id },
    });
    expect(() => verifyWith(newWebhookSecret(), request!)).toThrow();
    expect(request?.body.equals(Buffer.from(delivery!.body, "utf8"))).toBe(true);

    expect(delivery).toMatchObject({ status: "done", attempts: 1, attemptsMade: 1, lastStatusCode: 204, lastError: null, nextAttemptAt: null });
    expect(delivery?.deliveredAt).toBeInstanceOf(Date);
    const history = await attemptsOf(svc, delivery!.id);
    expect(history).toMatchObject([{ attempt: 1, statusCode: 204, error: null, responseBodyExcerpt: "" }]);
    const row = await endpointRow(svc, endpoint.id);
    expect(row.lastSuccessAt).toBeInstanceOf(Date);
    expect(row.failingSince).toBeNull();
  });

  it("gets an event within about a second of its commit", async () => {
    const { tenantId } = await tenant();
    const target = await receiver();
    await insertEndpoint(svc, tenantId, target.url);
    const latencies: number[] = [];
    for (let i = 0; i < 5; i++) {
      const { committedAt } = await emit(svc, jobs, testEvent(tenantId));
      await target.waitFor((requests) => requests.length === i + 1, 5_000);
      latencies.push(target.requests[i]!.receivedAt - committedAt);
    }
    console.log(`webhook latency, commit to arrival (ms): ${latencies.map((ms) => ms.toFixed(1)).join(", ")}`);
    expect(Math.max(...latencies)).toBeLessThan(3_000);
  });
});

describe("fan-out", () => {
  it("sends an event to the endpoints subscribed to its type (none = all) and nothing to disabled endpoints", async () => {
    const { tenantId } = await tenant();
    const [all, tags, deletions, disabled] = await Promise.all([receiver(), receiver(), receiver(), receiver()]);
    const toAll = await insertEndpoint(svc, tenantId, all.url);
    const toTags = await insertEndpoint(svc, tenantId, tags.url, { eventTypes: ["tag.created", "tag.deleted"] });
    const toDeletions = await insertEndpoint(svc, tenantId, deletions.url, { eventTypes: ["user.deleted"] });
    const toDisabled = await insertEndpoint(svc, tenantId, disabled.url, { status: "disabled" });
    const other = await tenant();
    const otherTenants = await receiver();
    await insertEndpoint(svc, other.tenantId, otherTenants.url);

    const { eventId } = await emit(svc, jobs, {
      tenantId,
      type: "tag.created",
      data: { user_id: randomUUID(), external_ref: "runner-1", tag_id: randomUUID() },
    });
    await all.waitFor((requests) => requests.length === 1);
    await tags.waitFor((requests) => requests.length === 1);
    expect(all.requests[0]?.headers["webhook-id"]).toBe(eventId);
    expect(tags.requests[0]?.headers["webhook-id"]).toBe(eventId);

    await sleep(300);
    expect(deletions.requests).toHaveLength(0);
    expect(disabled.requests).toHaveLength(0);
    expect(otherTenants.requests).toHaveLength(0);
    expect(await deliveriesOf(svc, toDeletions.id)).toHaveLength(0);
    expect(await deliveriesOf(svc, toDisabled.id)).toHaveLength(0);
    expect(await deliveriesOf(svc, toAll.id)).toHaveLength(1);
    expect(await deliveriesOf(svc, toTags.id)).toHaveLength(1);
  });

  it("parks, without a request, a delivery whose endpoint was disabled before its attempt", async () => {
    const { tenantId } = await tenant();
    const target = await receiver();
    const endpoint = await insertEndpoint(svc, tenantId, target.url);
    await svc.db.$transaction(async (tx) => {
      await tx.webhookEndpoint.update({ where: { id: endpoint.id }, data: { status: "disabled" } });
      const delivery = await tx.webhookDelivery.create({
        data: { endpointId: endpoint.id, tenantId, eventId: randomUUID(), eventType: "webhook.test", body: "{}", nextAttemptAt: new Date() },
      });
      await jobs.send("webhook-deliver", { delivery_id: delivery.id.toString() }, tx);
    });
    const [delivery] = await waitForDeliveries(endpoint.id, allIn("parked"), 5_000);
    expect(delivery).toMatchObject({ attempts: 0, attemptsMade: 0, nextAttemptAt: null });
    expect(await attemptsOf(svc, delivery!.id)).toHaveLength(0);
    expect(target.connections).toBe(0);
  });
});

describe("failed attempts", () => {
  it("slow, 500, redirect, refused and garbage answers fail, are retried on the schedule and parked after the 8th failure", { timeout: 60_000 }, async () => {
    const { tenantId } = await tenant();
    const redirectTarget = await receiver();
    const slow = await receiver(replies.slow(schedule.timeoutMs + 1_500));
    const failing = await receiver(replies.status(500, "boom \u0000\u0007 \u00e9t\u00e9"));
    const redirecting = await receiver(replies.redirect(redirectTarget.url));
    const garbage = await startRawReceiver(Buffer.from("this is not HTTP\r\n\r\n"));
    open.push(garbage);
    const refusedUrl = `http://127.0.0.1:${await closedPort()}/hook`;

    const endpoints = {
      slow: await insertEndpoint(svc, tenantId, slow.url),
      failing: await insertEndpoint(svc, tenantId, failing.url),
      redirecting: await insertEndpoint(svc, tenantId, redirecting.url),
      garbage: await insertEndpoint(svc, tenantId, `http://127.0.0.1:${garbage.port}/hook`),
      refused: await insertEndpoint(svc, tenantId, refusedUrl),
    };
    const { eventId } = await emit(svc, jobs, testEvent(tenantId));

    const expected = {
      // "timeout after 1 s"; undici's headers timeout, set to the same time, can fire a moment
      // before the deadline and then names itself (UND_ERR_HEADERS_TIMEOUT).
      slow: { statusCode: null, error: expect.stringMatching(/^timeout after /), responseBodyExcerpt: null },
      failing: { statusCode: 500, error: "HTTP 500", responseBodyExcerpt: "boom ?? \u00e9t\u00e9" },
      redirecting: { statusCode: 301, error: "redirect (301) not followed", responseBodyExcerpt: "moved" },
      garbage: { statusCode: null, error: "invalid HTTP response", responseBodyExcerpt: null },
      refused: { statusCode: null, error: "connection refused", responseBodyExcerpt: null },
    };
    for (const [name, endpoint] of Object.entries(endpoints)) {
      const outcome = expected[name as keyof typeof expected];
      const [delivery] = await waitForDeliveries(endpoint.id, allIn("parked"), 30_000);
      expect(delivery, name).toMatchObject({
        eventId,
        attempts: 8,
        attemptsMade: 8,
        lastStatusCode: outcome.statusCode,
        lastError: outcome.error,
        nextAttemptAt: null,
        deliveredAt: null,
      });
      const history = await attemptsOf(svc, delivery!.id);
      expect(history.map((attempt) => attempt.attempt), name).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
      for (const attempt of history) expect(attempt, name).toMatchObject(outcome);
      // Attempt 2 waited the first retry delay after attempt 1 ended.
      const firstEnded = history[0]!.startedAt.getTime() + history[0]!.durationMs;
      expect(history[1]!.startedAt.getTime() - firstEnded, name).toBeGreaterThanOrEqual(FIRST_RETRY_MS - 5);

      const row = await endpointRow(svc, endpoint.id);
      expect(row.failingSince?.getTime(), name).toBe(history[0]!.startedAt.getTime());
      expect(row.lastSuccessAt, name).toBeNull();
      expect(row.status, name).toBe("active");
    }
    expect(slow.requests).toHaveLength(8);
    expect(failing.requests).toHaveLength(8);
    expect(redirecting.requests).toHaveLength(8);
    expect(redirectTarget.requests).toHaveLength(0);
    // Every retry is signed again (same id and body) with the endpoint's secret.
    for (const request of slow.requests) expect(verifyWith(endpoints.slow.secret, request)).toBeTruthy();
    for (const request of failing.requests) expect(request.headers["webhook-id"]).toBe(eventId);
  });

  it("runs the whole ladder to parked, then disables an endpoint that accepted nothing for too long and parks its pending deliveries", async () => {
    const { tenantId } = await tenant();
    const failing = await receiver(replies.status(503, "down"));
    const silent = await insertEndpoint(svc, tenantId, failing.url, { createdAt: new Date(Date.now() - 2 * HOUR) });
    const recentlyHealthy = await insertEndpoint(svc, tenantId, failing.url, {
      createdAt: new Date(Date.now() - 2 * HOUR),
      lastSuccessAt: new Date(Date.now() - 60_000),
    });
    // A delivery of the silent endpoint waiting for a later attempt.
    const waiting = await svc.db.webhookDelivery.create({
      data: { endpointId: silent.id, tenantId, eventId: randomUUID(), eventType: "webhook.test", body: "{}", nextAttemptAt: new Date(Date.now() + HOUR) },
    });

    const { eventId } = await emit(svc, jobs, testEvent(tenantId));
    const isParked = (rows: Awaited<ReturnType<typeof deliveriesOf>>) => rows.some((row) => row.eventId === eventId && row.status === "parked");
    const silentRows = await waitForDeliveries(silent.id, isParked);
    const healthyRows = await waitForDeliveries(recentlyHealthy.id, isParked);

    const parked = silentRows.find((row) => row.eventId === eventId)!;
    expect(parked).toMatchObject({ attempts: 8, lastStatusCode: 503, lastError: "HTTP 503" });
    expect(silentRows.find((row) => row.id === waiting.id)).toMatchObject({ status: "parked", attempts: 0, nextAttemptAt: null });
    const disabled = await endpointRow(svc, silent.id);
    expect(disabled.status).toBe("disabled");
    expect(disabled.disabledReason).toContain("No delivery was accepted for 1 hour");
    expect(disabled.disabledReason).toContain("PATCH enabled: true");

    expect(healthyRows).toHaveLength(1);
    expect((await endpointRow(svc, recentlyHealthy.id)).status).toBe("active");

    // A disabled endpoint gets no new deliveries.
    const requestsBefore = failing.requests.length;
    await emit(svc, jobs, testEvent(tenantId));
    await waitForDeliveries(recentlyHealthy.id, (rows) => rows.length === 2);
    expect(await deliveriesOf(svc, silent.id)).toHaveLength(2);
    await sleep(200);
    expect(failing.requests.length - requestsBefore).toBeGreaterThanOrEqual(1);
  });
});

describe("attempt history", () => {
  it("numbers attempts on across a requeue, keeps the last historyKept, and a success clears failing_since", async () => {
    const { tenantId } = await tenant();
    let count = 0;
    const flaky = await receiver((_, response) => {
      count += 1;
      if (count <= 8) response.writeHead(500).end("no");
      else if (count <= 11) response.writeHead(503).end("still no");
      else response.writeHead(200).end("yes");
    });
    const endpoint = await insertEndpoint(svc, tenantId, flaky.url);
    await emit(svc, jobs, testEvent(tenantId));
    const [parked] = await waitForDeliveries(endpoint.id, allIn("parked"));
    const failingSince = (await endpointRow(svc, endpoint.id)).failingSince;
    expect(failingSince).toBeInstanceOf(Date);

    // What the retry route does: from the first attempt again, the history going on.
    await svc.db.$transaction(async (tx) => {
      await tx.webhookDelivery.update({ where: { id: parked!.id }, data: { status: "pending", attempts: 0, lastError: null, lastStatusCode: null, nextAttemptAt: new Date() } });
      await jobs.send("webhook-deliver", { delivery_id: parked!.id.toString() }, tx);
    });
    const [done] = await waitForDeliveries(endpoint.id, allIn("done"));
    expect(done).toMatchObject({ attempts: 4, attemptsMade: 12, lastStatusCode: 200, lastError: null });

    const history = await attemptsOf(svc, done!.id);
    expect(history.map((attempt) => attempt.attempt)).toEqual([3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(history.map((attempt) => attempt.statusCode)).toEqual([500, 500, 500, 500, 500, 500, 503, 503, 503, 200]);
    expect(history.at(-1)).toMatchObject({ error: null, responseBodyExcerpt: "yes" });

    const row = await endpointRow(svc, endpoint.id);
    expect(row.failingSince).toBeNull();
    expect(row.lastSuccessAt!.getTime()).toBeGreaterThan(failingSince!.getTime());
    expect(row.status).toBe("active");
  });
});

describe("secrets", () => {
  it("signs the next attempt with a rotated secret, and only with it", async () => {
    const { tenantId } = await tenant();
    const rotated = newWebhookSecret();
    let endpointId = "";
    const target = await receiver((_, response) => {
      if (target.requests.length > 1) return void response.writeHead(200).end();
      // Rotate while the first attempt waits for its answer, then fail it.
      void svc.db.webhookEndpoint
        .update({ where: { id: endpointId }, data: { secretSealed: testSealer().seal(rotated) } })
        .then(() => response.writeHead(500).end());
    });
    const endpoint = await insertEndpoint(svc, tenantId, target.url);
    endpointId = endpoint.id;
    await emit(svc, jobs, testEvent(tenantId));
    await waitForDeliveries(endpoint.id, allIn("done"));

    const [first, second] = target.requests;
    expect(verifyWith(endpoint.secret, first!)).toBeTruthy();
    expect(verifyWith(rotated, second!)).toBeTruthy();
    expect(() => verifyWith(endpoint.secret, second!)).toThrow();
    expect(second?.headers["webhook-id"]).toBe(first?.headers["webhook-id"]);
    expect(second?.body.equals(first!.body)).toBe(true);
  });

  it("fails every attempt, without a request, when no key opens the endpoint's secret; the error says to rotate", async () => {
    const { tenantId } = await tenant();
    const target = await receiver();
    const lostKey = createSealer({ current: randomBytes(32) });
    const endpoint = await insertEndpoint(svc, tenantId, target.url, { sealer: lostKey });
    await emit(svc, jobs, testEvent(tenantId));
    const [delivery] = await waitForDeliveries(endpoint.id, allIn("parked"));

    expect(delivery?.attempts).toBe(8);
    expect(delivery?.lastStatusCode).toBeNull();
    expect(delivery?.lastError).toContain("rotate the secret");
    expect(delivery?.lastError).toContain(lostKey.keyId);
    expect(target.connections).toBe(0);
  });
});

describe("deleting a user", () => {
  it("deletes every delivery about the user, pending ones included, then delivers user.deleted", async () => {
    const { tenantId, key } = await tenant();
    const target = await receiver();
    const endpoint = await insertEndpoint(svc, tenantId, target.url);
    const user = await createUser(svc, key);
    const bystander = await createUser(svc, key);
    expect((await svc.call(`/v1/users/${user}/tags`, { key, body: { kind: "travel", label: "Trip", start_at: "2026-02-01T00:00:00Z" } })).status).toBe(201);
    expect((await svc.call(`/v1/users/${bystander}/tags`, { key, body: { kind: "travel", label: "Trip", start_at: "2026-02-01T00:00:00Z" } })).status).toBe(201);
    await waitForDeliveries(endpoint.id, (rows) => rows.length === 2 && rows.every((row) => row.status === "done"));
    const pending = await svc.db.webhookDelivery.create({
      data: { endpointId: endpoint.id, tenantId, userId: user, eventId: randomUUID(), eventType: "tag.updated", body: "{}", nextAttemptAt: new Date(Date.now() + HOUR) },
    });

    const deletion = await svc.call(`/v1/users/${user}`, { key, method: "DELETE" });
    expect(deletion.status, deletion.text).toBe(202);
    await target.waitFor((requests) => requests.some((request) => JSON.parse(request.body.toString()).type === "user.deleted"));

    const aboutUser = await svc.db.webhookDelivery.findMany({ where: { userId: user } });
    expect(aboutUser.map((row) => row.eventType)).toEqual(["user.deleted"]);
    expect(await svc.db.webhookDelivery.findUnique({ where: { id: pending.id } })).toBeNull();
    const left = await deliveriesOf(svc, endpoint.id);
    expect(left.map((row) => row.eventType).sort()).toEqual(["tag.created", "user.deleted"]);
    expect(left.find((row) => row.eventType === "tag.created")?.userId).toBe(bystander);
    const deleted = target.requests.find((request) => JSON.parse(request.body.toString()).type === "user.deleted")!;
    expect(verifyWith(endpoint.secret, deleted)).toMatchObject({ type: "user.deleted", data: { user_id: user } });
  });
});

describe("retention", () => {
  it("the cleanup deletes deliveries finished longer ago than keepFinishedMs, with their attempts, and old outbox events", async () => {
    const { tenantId } = await tenant();
    const endpoint = await insertEndpoint(svc, tenantId, "http://127.0.0.1:9/unused");
    const now = Date.now();
    const old = new Date(now - schedule.keepFinishedMs - 60_000);
    const recent = new Date(now - schedule.keepFinishedMs + 60_000);
    const make = async (status: "pending" | "done" | "parked", updatedAt: Date) => {
      const row = await svc.db.webhookDelivery.create({
        data: { endpointId: endpoint.id, tenantId, eventId: randomUUID(), eventType: "webhook.test", body: "{}", status },
      });
      await svc.db.webhookAttempt.create({ data: { deliveryId: row.id, attempt: 1, startedAt: updatedAt, durationMs: 1 } });
      await svc.db.$executeRaw`UPDATE webhook_deliveries SET updated_at = ${updatedAt} WHERE id = ${row.id}`;
      return row.id;
    };
    const oldDone = await make("done", old);
    const oldParked = await make("parked", old);
    const oldPending = await make("pending", old);
    const recentDone = await make("done", recent);
    const oldEvent = await svc.db.outboxEvent.create({ data: { tenantId, type: "webhook.test", data: {}, createdAt: old } });
    const recentEvent = await svc.db.outboxEvent.create({ data: { tenantId, type: "webhook.test", data: {}, createdAt: recent } });

    const deleted = await cleanUpWebhookDeliveries({ db: svc.db, webhooks: { allowPrivate: true, schedule } }, new Date(now));
    expect(deleted.deliveries).toBeGreaterThanOrEqual(2);
    const left = (await deliveriesOf(svc, endpoint.id)).map((row) => row.id);
    expect(left).toEqual([oldPending, recentDone]);
    expect(await svc.db.webhookAttempt.count({ where: { deliveryId: { in: [oldDone, oldParked] } } })).toBe(0);
    expect(await svc.db.outboxEvent.findUnique({ where: { id: oldEvent.id } })).toBeNull();
    expect(await svc.db.outboxEvent.findUnique({ where: { id: recentEvent.id } })).not.toBeNull();

    const scheduled = await svc.db.$queryRaw<Array<{ name: string; cron: string }>>`SELECT name, cron FROM pgboss.schedule`;
    expect(scheduled).toContainEqual({ name: "webhook-cleanup", cron: "23 * * * *" });
  });
});
