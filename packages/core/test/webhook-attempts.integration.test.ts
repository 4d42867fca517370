// Deliveries that run at once in one process share their claim statement and the record of
// their accepted attempts (webhooks/delivery-attempt.ts); each still gets its own outcome,
// counters, attempt history and endpoint health, as one delivery alone would.
import { randomBytes } from "node:crypto";
import { attemptWebhookDelivery, createSealer, createTenant, DEFAULT_DELIVERY_SCHEDULE, signWebhook } from "@svc/core";
import { createDatabase, type Database } from "@svc/db";
import { JobQueue } from "@svc/jobs";
import { createTestDatabase, startWebhookReceiver, type WebhookReceiver } from "@svc/testing";
import { afterAll, beforeAll, expect, it } from "vitest";

const sealer = createSealer({ current: randomBytes(32) });
const secret = `whsec_${randomBytes(24).toString("base64")}`;
let db: Database;
let jobs: JobQueue;
let receiver: WebhookReceiver;
let tenantId: string;
let endpointId: string;

beforeAll(async () => {
  const url = await createTestDatabase();
  db = createDatabase(url, { max: 4 });
  jobs = await JobQueue.start(url, (error) => console.error("test job queue", error));
  receiver = await startWebhookReceiver();
  tenantId = (await createTenant(db, "batched deliveries")).tenant_id;
  const endpoint = await db.webhookEndpoint.create({
    data: { tenantId, url: receiver.url, eventTypes: [], secretSealed: sealer.seal(secret) },
    select: { id: true },
  });
  endpointId = endpoint.id;
});
afterAll(async () => {
  await receiver?.close();
  await jobs?.stop();
  await db?.$disconnect();
});

/** The database as the deliveries see it, counting its raw statements. */
function countingRawStatements() {
  const counted = { statements: 0 };
  const client = db.$extends({
    query: {
      async $queryRaw({ args, query }) {
        counted.statements++;
        return query(args);
      },
    },
  }) as unknown as Database;
  return { client, counted };
}

async function insertDelivery(status: "pending" | "done" | "parked", attemptsMade = 0): Promise<{ id: bigint; eventId: string; body: string }> {
  const eventId = crypto.randomUUID();
  const body = JSON.stringify({ id: eventId, type: "webhook.test", timestamp: new Date().toISOString(), data: { endpoint_id: endpointId } });
  const row = await db.webhookDelivery.create({
    data: { endpointId, tenantId, eventId, eventType: "webhook.test", body, status, attempts: attemptsMade, attemptsMade },
    select: { id: true },
  });
  for (let attempt = 1; attempt <= attemptsMade; attempt++) {
    await db.webhookAttempt.create({ data: { deliveryId: row.id, attempt, startedAt: new Date(), durationMs: 1, statusCode: 500, error: "HTTP 500" } });
  }
  return { id: row.id, eventId, body };
}

it("claims deliveries started together in one statement, and records each accepted attempt on its own row", async () => {
  const fresh = await Promise.all(Array.from({ length: 5 }, () => insertDelivery("pending")));
  const retried = await insertDelivery("pending", 3);
  const finished = [await insertDelivery("done"), await insertDelivery("parked")];
  await db.webhookEndpoint.update({ where: { id: endpointId }, data: { failingSince: new Date(), lastSuccessAt: null } });
  const { client, counted } = countingRawStatements();
  const deps = { db: client, jobs, sealer, webhooks: { allowPrivate: true, schedule: { ...DEFAULT_DELIVERY_SCHEDULE, historyKept: 2 } } };

  const outcomes = await Promise.all([...fresh, retried, ...finished].map((delivery) => attemptWebhookDelivery(deps, delivery.id)));

  expect(outcomes.slice(0, 5)).toEqual(fresh.map(() => expect.objectContaining({ result: "done", endpointId, attempt: 1, statusCode: 200, error: null })));
  expect(outcomes[5]).toMatchObject({ result: "done", attempt: 4, statusCode: 200 });
  expect(outcomes.slice(6)).toEqual([{ result: "nothing-to-do" }, { result: "nothing-to-do" }]);
  // One claim for all eight, then at most one record per accepted attempt (fewer when answers arrive together).
  expect(counted.statements).toBeLessThanOrEqual(1 + 6);

  expect(receiver.requests.map((request) => request.headers["webhook-id"]).sort()).toEqual([...fresh, retried].map((d) => d.eventId).sort());
  for (const request of receiver.requests) {
    const sent = [...fresh, retried].find((d) => d.eventId === request.headers["webhook-id"])!;
    expect(request.body.toString("utf8")).toBe(sent.body);
    const timestamp = Number(request.headers["webhook-timestamp"]);
    expect(request.headers["webhook-signature"]).toBe(signWebhook(secret, sent.eventId, timestamp, sent.body));
  }

  const rows = await db.webhookDelivery.findMany({
    where: { id: { in: [...fresh, retried, ...finished].map((d) => d.id) } },
    select: { id: true, status: true, attempts: true, attemptsMade: true, lastStatusCode: true, lastError: true, deliveredAt: true },
    orderBy: { id: "asc" },
  });
  for (const row of rows.slice(0, 5)) {
    expect(row).toMatchObject({ status: "done", attempts: 1, attemptsMade: 1, lastStatusCode: 200, lastError: null });
    expect(row.deliveredAt).toBeInstanceOf(Date);
  }
  expect(rows[5]).toMatchObject({ status: "done", attempts: 4, attemptsMade: 4, lastStatusCode: 200 });
  expect(rows.slice(6).map((row) => row.status)).toEqual(["done", "parked"]);

  const history = await db.webhookAttempt.findMany({ where: { deliveryId: { in: [...fresh, retried].map((d) => d.id) } }, select: { deliveryId: true, attempt: true, statusCode: true } });
  for (const delivery of fresh) expect(history.filter((a) => a.deliveryId === delivery.id)).toEqual([{ deliveryId: delivery.id, attempt: 1, statusCode: 200 }]);
  // historyKept 2: of attempts 1-3 and the accepted 4th, the last two are left.
  const kept = history.filter((a) => a.deliveryId === retried.id).sort((a, b) => a.attempt - b.attempt);
  expect(kept).toEqual([
    { deliveryId: retried.id, attempt: 3, statusCode: 500 },
    { deliveryId: retried.id, attempt: 4, statusCode: 200 },
  ]);

  const endpoint = await db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpointId }, select: { failingSince: true, lastSuccessAt: true } });
  expect(endpoint.failingSince).toBeNull();
  expect(endpoint.lastSuccessAt).toBeInstanceOf(Date);
});
