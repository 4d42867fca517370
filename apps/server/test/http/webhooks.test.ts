import { randomBytes, randomUUID } from "node:crypto";
import { createSealer, createWebhookEndpoint, DEFAULT_DELIVERY_SCHEDULE, EVENT_CATALOG, eventBody } from "@svc/core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createUser, expectBadRequest, mintToken, readAllPages } from "../helpers/records.ts";
import { startTestService, type TestService } from "../helpers/test-service.ts";

// Management routes only. The service runs with SVC_ROLE=api: no worker picks up the queued
// deliveries, so each test sees exactly the rows and jobs the routes wrote. Sending is
// tested with real receivers beside the delivery worker.

const encryptionKey = randomBytes(32);
const sealer = createSealer({ current: encryptionKey });

let svc: TestService;
let tenantId: string;
let key: string;
let otherKey: string;

beforeAll(async () => {
  svc = await startTestService({ SVC_ROLE: "api", SVC_ENCRYPTION_KEY: encryptionKey.toString("base64") });
  otherKey = (await svc.createTenant()).api_key;
});
afterAll(() => svc?.stop());
// A fresh tenant per test: each starts with no endpoints (at most 20 per tenant).
beforeEach(async () => {
  ({ tenant_id: tenantId, api_key: key } = await svc.createTenant());
});

type Endpoint = { id: string; url: string; description: string; event_types: string[]; status: string; disabled_reason: string | null; failing_since: string | null; last_success_at: string | null; created_at: string; updated_at: string };
type Delivery = { id: number; event_id: string; event_type: string; status: string; attempts: number; last_status_code: number | null; last_error: string | null; next_attempt_at: string | null; delivered_at: string | null; created_at: string; replay_of: number | null };

const hooks = (id: string) => `/v1/webhooks/${id}`;
const deliveriesOf = (id: string) => `/v1/webhooks/${id}/deliveries`;
const deliveryPath = (id: string, delivery: number) => `/v1/webhooks/${id}/deliveries/${delivery}`;

async function createEndpoint(body: Record<string, unknown> = {}, tenantKey = key): Promise<Endpoint & { secret: string }> {
  const answer = await svc.call("/v1/webhooks", { key: tenantKey, body: { url: "https://hooks.example.com/svc", ...body } });
  expect(answer.status, answer.text).toBe(201);
  return answer.body;
}

const patch = (id: string, body: unknown, tenantKey = key) => svc.call(hooks(id), { key: tenantKey, method: "PATCH", body });
const post = (path: string, tenantKey = key, body?: unknown) => svc.call(path, { key: tenantKey, method: "POST", ...(body !== undefined && { body }) });

const sealedSecretOf = async (id: string) =>
  (await svc.db.webhookEndpoint.findUniqueOrThrow({ where: { id }, select: { secretSealed: true } })).secretSealed;

/** A delivery row written straight into the database, in the state a test needs. */
async function insertDelivery(
  endpointId: string,
  fields: { status?: "pending" | "running" | "done" | "parked"; attempts?: number; attemptsMade?: number; lastStatusCode?: number | null; lastError?: string | null; deliveredAt?: Date | null; replayOf?: bigint | null } = {},
): Promise<{ id: number; eventId: string; body: string }> {
  const eventId = randomUUID();
  const body = eventBody({ id: eventId, type: "tag.created", timestamp: new Date(), data: { user_id: randomUUID(), external_ref: null, tag_id: randomUUID() } });
  const row = await svc.db.webhookDelivery.create({
    data: { endpointId, tenantId, eventId, eventType: "tag.created", body, nextAttemptAt: fields.status === "pending" ? new Date() : null, ...fields },
    select: { id: true },
  });
  return { id: Number(row.id), eventId, body };
}

const statusOf = async (delivery: number) =>
  (await svc.db.webhookDelivery.findUniqueOrThrow({ where: { id: BigInt(delivery) }, select: { status: true } })).status;

/** The delivery ids of the webhook-deliver jobs queued so far. */
async function queuedDeliveryIds(): Promise<string[]> {
  const rows = await svc.db.$queryRaw<Array<{ data: { delivery_id: string } }>>`SELECT data FROM pgboss.job WHERE name = 'webhook-deliver'`;
  return rows.map((row) => row.data.delivery_id);
}

describe("POST /v1/webhooks", () => {
  it("creates an active endpoint (201) and shows its whsec_ secret once; the database holds it only sealed", async () => {
    const answer = await svc.call("/v1/webhooks", {
      key,
      body: { url: "https://hooks.example.com/a", description: "orders backend", event_types: ["data.written", "user.deleted"] },
    });
    expect(answer.status, answer.text).toBe(201);
    expect(answer.headers.get("cache-control")).toBe("no-store");
    const { secret, ...endpoint } = answer.body;
    expect(endpoint).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      url: "https://hooks.example.com/a",
      description: "orders backend",
      event_types: ["data.written", "user.deleted"],
      status: "active",
      disabled_reason: null,
      failing_since: null,
      last_success_at: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice("whsec_".length), "base64")).toHaveLength(32);

    const sealed = await sealedSecretOf(endpoint.id);
    expect(sealed).not.toContain(secret.slice("whsec_".length));
    expect(sealer.open(sealed)).toBe(secret);

    const read = await svc.call(hooks(endpoint.id), { key });
    expect(read.body).toEqual(endpoint);
    expect(read.text).not.toContain(secret);
    const list = await svc.call("/v1/webhooks", { key });
    expect(list.text).not.toContain(secret);
    expect(list.text).not.toContain("secret");
  });

  it("a second endpoint gets a different secret; empty or absent event_types stays empty (every type); duplicates are dropped", async () => {
    const first = await createEndpoint();
    const second = await createEndpoint({ event_types: [] });
    const third = await createEndpoint({ event_types: ["tag.created", "tag.created", "tag.deleted"] });
    expect(first.secret).not.toBe(second.secret);
    expect(first).toMatchObject({ event_types: [], description: "" });
    expect(second.event_types).toEqual([]);
    expect(third.event_types).toEqual(["tag.created", "tag.deleted"]);
  });

  it("refuses a URL that is not https, not a URL, or a private, loopback or link-local literal (400)", async () => {
    for (const url of [
      "http://hooks.example.com/a",
      "ftp://hooks.example.com/a",
      "not a url",
      "https://10.0.0.7/hook",
      "https://127.0.0.1/hook",
      "https://localhost/hook",
      "https://169.254.169.254/latest",
      "https://[::1]/hook",
      "https://[::ffff:127.0.0.1]/hook",
      "https://[fd00::1]/hook",
      "https://user:pw@hooks.example.com/",
    ]) {
      expectBadRequest(await svc.call("/v1/webhooks", { key, body: { url } }), "url");
    }
  });

  it("refuses an unknown event type naming it, a description over 500 characters and unknown fields (400)", async () => {
    const unknown = await svc.call("/v1/webhooks", { key, body: { url: "https://hooks.example.com/", event_types: ["tag.created", "data.exploded"] } });
    expectBadRequest(unknown, "event_types");
    expect(unknown.body.detail).toContain("data.exploded");
    expectBadRequest(await svc.call("/v1/webhooks", { key, body: { url: "https://hooks.example.com/", description: "x".repeat(501) } }), "description");
    expect((await svc.call("/v1/webhooks", { key, body: { url: "https://hooks.example.com/", description: "x".repeat(500) } })).status).toBe(201);
    expectBadRequest(await svc.call("/v1/webhooks", { key, body: { url: "https://hooks.example.com/", secret: "whsec_mine" } }), "secret");
    expectBadRequest(await svc.call("/v1/webhooks", { key, body: {} }), "url");
  });

  it("with SVC_WEBHOOK_ALLOW_PRIVATE private addresses and http on loopback are accepted, http elsewhere still not", async () => {
    const deps = { db: svc.db, sealer, webhooks: { allowPrivate: true, schedule: DEFAULT_DELIVERY_SCHEDULE } };
    const tenant = await svc.createTenant();
    const audit = { actor: { kind: "tenant" as const, id: randomUUID() }, requestId: null };
    await expect(createWebhookEndpoint(deps, audit, tenant.tenant_id, { url: "http://127.0.0.1:9/hook" })).resolves.toMatchObject({ url: "http://127.0.0.1:9/hook" });
    await expect(createWebhookEndpoint(deps, audit, tenant.tenant_id, { url: "https://10.0.0.7/hook" })).resolves.toMatchObject({ status: "active" });
    await expect(createWebhookEndpoint(deps, audit, tenant.tenant_id, { url: "http://hooks.example.com/" })).rejects.toMatchObject({ code: "bad_request" });
    const strict = { ...deps, webhooks: { ...deps.webhooks, allowPrivate: false } };
    await expect(createWebhookEndpoint(strict, audit, tenant.tenant_id, { url: "https://10.0.0.7/hook" })).rejects.toMatchObject({ code: "bad_request" });
  });

  it("allows 20 endpoints per tenant: the 21st is 409 until one is deleted; other tenants are not counted", async () => {
    const tenant = await svc.createTenant();
    const created: string[] = [];
    for (let i = 0; i < 20; i++) created.push((await createEndpoint({ description: `n${i}` }, tenant.api_key)).id);
    const refused = await svc.call("/v1/webhooks", { key: tenant.api_key, body: { url: "https://hooks.example.com/21" } });
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toContain("20");
    // The list is oldest first across pages.
    const listed = await readAllPages<Endpoint>(svc, "/v1/webhooks", tenant.api_key, 7);
    expect(listed.map((endpoint) => endpoint.id)).toEqual(created);
    expect(listed.map((endpoint) => endpoint.description)).toEqual(created.map((_, i) => `n${i}`));

    expect((await svc.call(hooks(created[3]!), { key: tenant.api_key, method: "DELETE" })).status).toBe(204);
    await createEndpoint({}, tenant.api_key);
    expect((await svc.call("/v1/webhooks", { key: tenant.api_key, body: { url: "https://hooks.example.com/22" } })).status).toBe(409);
  });

  it("takes a tenant key only: a user token is 403, no secret 401", async () => {
    const token = await mintToken(svc, key, await createUser(svc, key), ["read", "upload"]);
    expect((await svc.call("/v1/webhooks", { key: token, body: { url: "https://hooks.example.com/" } })).status).toBe(403);
    expect((await svc.call("/v1/webhooks", { key: token })).status).toBe(403);
    const endpoint = await createEndpoint();
    expect((await svc.call(hooks(endpoint.id), { key: token })).status).toBe(403);
    expect((await svc.call(deliveriesOf(endpoint.id), { key: token })).status).toBe(403);
    const anonymous = await svc.call("/v1/webhooks", {});
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("www-authenticate")).toBe("Bearer");
  });
});

describe("another tenant's endpoint", () => {
  it("is 404 on every route, and an unknown id too; a webhook_id that is not a uuid is 400", async () => {
    const endpoint = await createEndpoint();
    const done = await insertDelivery(endpoint.id, { status: "done" });
    const routes: Array<[string, string, unknown?]> = [
      ["GET", hooks(endpoint.id)],
      ["PATCH", hooks(endpoint.id), { description: "mine now" }],
      ["DELETE", hooks(endpoint.id)],
      ["POST", `${hooks(endpoint.id)}/rotate-secret`],
      ["POST", `${hooks(endpoint.id)}/test`],
      ["GET", deliveriesOf(endpoint.id)],
      ["GET", deliveryPath(endpoint.id, done.id)],
      ["POST", `${deliveryPath(endpoint.id, done.id)}/retry`],
      ["POST", `${deliveryPath(endpoint.id, done.id)}/replay`],
    ];
    for (const [method, path, body] of routes) {
      const answer = await svc.call(path, { key: otherKey, method, ...(body !== undefined && { body }) });
      expect(answer.status, `${method} ${path}`).toBe(404);
      const unknown = path.replace(endpoint.id, randomUUID());
      expect((await svc.call(unknown, { key, method, ...(body !== undefined && { body }) })).status, `${method} ${unknown}`).toBe(404);
    }
    expectBadRequest(await svc.call(hooks("not-a-uuid"), { key }), "webhook_id");
    // Nothing changed.
    expect((await svc.call(hooks(endpoint.id), { key })).body).toMatchObject({ description: "", status: "active" });
    expect(await sealedSecretOf(endpoint.id)).toBeDefined();
    expect(await statusOf(done.id)).toBe("done");
    expect((await svc.call("/v1/webhooks", { key: otherKey })).body.data).toEqual([]);
  });
});

describe("PATCH /v1/webhooks/{webhook_id}", () => {
  it("changes url, description and event_types; fields not sent stay", async () => {
    const endpoint = await createEndpoint({ description: "before", event_types: ["tag.created"] });
    const changed = await patch(endpoint.id, { url: "https://other.example.org/in", event_types: ["data.written"] });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body).toMatchObject({ url: "https://other.example.org/in", description: "before", event_types: ["data.written"], status: "active" });
    expect(changed.text).not.toContain("secret");
    const cleared = await patch(endpoint.id, { description: "", event_types: [] });
    expect(cleared.body).toMatchObject({ url: "https://other.example.org/in", description: "", event_types: [] });
    expect((await svc.call(hooks(endpoint.id), { key })).body).toEqual(cleared.body);
  });

  it("refuses a bad url, an unknown event type and a non-boolean enabled (400), changing nothing", async () => {
    const endpoint = await createEndpoint();
    expectBadRequest(await patch(endpoint.id, { url: "http://hooks.example.com/" }), "url");
    expectBadRequest(await patch(endpoint.id, { url: "https://192.168.1.1/" }), "url");
    expectBadRequest(await patch(endpoint.id, { event_types: ["nope"] }), "nope");
    expectBadRequest(await patch(endpoint.id, { enabled: "false" }), "enabled");
    expectBadRequest(await patch(endpoint.id, { enabled: 0 }), "enabled");
    expect((await svc.call(hooks(endpoint.id), { key })).body).toMatchObject({ url: endpoint.url, event_types: [], status: "active" });
  });

  it("enabled false disables it and parks its pending deliveries; enabled true makes it active with reason and failing_since cleared", async () => {
    const endpoint = await createEndpoint();
    const pending = await insertDelivery(endpoint.id, { status: "pending" });
    const running = await insertDelivery(endpoint.id, { status: "running", attempts: 1 });
    const done = await insertDelivery(endpoint.id, { status: "done", attempts: 1 });
    const other = await createEndpoint();
    const otherPending = await insertDelivery(other.id, { status: "pending" });

    const disabled = await patch(endpoint.id, { enabled: false });
    expect(disabled.status, disabled.text).toBe(200);
    expect(disabled.body).toMatchObject({ status: "disabled", disabled_reason: "disabled by the tenant" });
    expect(await statusOf(pending.id)).toBe("parked");
    expect(await statusOf(running.id)).toBe("running");
    expect(await statusOf(done.id)).toBe("done");
    expect(await statusOf(otherPending.id)).toBe("pending");
    const parked = await svc.call(deliveryPath(endpoint.id, pending.id), { key });
    expect(parked.body).toMatchObject({ status: "parked", next_attempt_at: null });

    await svc.db.webhookEndpoint.update({ where: { id: endpoint.id }, data: { failingSince: new Date("2026-01-01T00:00:00Z") } });
    expect((await svc.call(hooks(endpoint.id), { key })).body.failing_since).toBe("2026-01-01T00:00:00.000Z");
    const enabled = await patch(endpoint.id, { enabled: true });
    expect(enabled.body).toMatchObject({ status: "active", disabled_reason: null, failing_since: null });
    // Parked deliveries stay parked: the tenant retries what it wants.
    expect(await statusOf(pending.id)).toBe("parked");
    // enabled true on an active endpoint changes nothing.
    expect((await patch(endpoint.id, { enabled: true })).body).toMatchObject({ status: "active" });
  });
});

describe("DELETE /v1/webhooks/{webhook_id}", () => {
  it("deletes the endpoint with its deliveries and their attempts (204); then 404", async () => {
    const endpoint = await createEndpoint();
    const delivery = await insertDelivery(endpoint.id, { status: "parked", attempts: 8 });
    await svc.db.webhookAttempt.create({ data: { deliveryId: BigInt(delivery.id), attempt: 1, startedAt: new Date(), durationMs: 5, statusCode: 500, error: "HTTP 500" } });
    const kept = await createEndpoint();
    const keptDelivery = await insertDelivery(kept.id, { status: "done" });

    const answer = await svc.call(hooks(endpoint.id), { key, method: "DELETE" });
    expect(answer.status).toBe(204);
    expect(answer.text).toBe("");
    expect(await svc.db.webhookDelivery.count({ where: { endpointId: endpoint.id } })).toBe(0);
    expect(await svc.db.webhookAttempt.count({ where: { deliveryId: BigInt(delivery.id) } })).toBe(0);
    expect(await statusOf(keptDelivery.id)).toBe("done");
    expect((await svc.call(hooks(endpoint.id), { key })).status).toBe(404);
    expect((await svc.call(hooks(endpoint.id), { key, method: "DELETE" })).status).toBe(404);
  });
});

describe("POST /v1/webhooks/{webhook_id}/rotate-secret", () => {
  it("answers a new secret once and replaces the sealed one", async () => {
    const endpoint = await createEndpoint();
    const before = await sealedSecretOf(endpoint.id);
    const answer = await post(`${hooks(endpoint.id)}/rotate-secret`);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.headers.get("cache-control")).toBe("no-store");
    expect(Object.keys(answer.body)).toEqual(["secret"]);
    expect(answer.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(answer.body.secret).not.toBe(endpoint.secret);
    const after = await sealedSecretOf(endpoint.id);
    expect(after).not.toBe(before);
    expect(sealer.open(after)).toBe(answer.body.secret);
    expect((await svc.call(hooks(endpoint.id), { key })).text).not.toContain(answer.body.secret);
  });
});

describe("POST /v1/webhooks/{webhook_id}/test", () => {
  it("without a body queues one webhook.test delivery for this endpoint only, with test: true (202 + Location)", async () => {
    const endpoint = await createEndpoint({ event_types: ["tag.created"] });
    const sibling = await createEndpoint();
    const outboxBefore = await svc.db.outboxEvent.count();
    const answer = await post(`${hooks(endpoint.id)}/test`);
    expect(answer.status, answer.text).toBe(202);
    const delivery = answer.body;
    expect(answer.headers.get("location")).toBe(deliveryPath(endpoint.id, delivery.id));
    expect(delivery).toMatchObject({ event_type: "webhook.test", status: "pending", attempts: 0, replay_of: null, attempt_history: [], delivered_at: null });
    expect(delivery.payload).toEqual({ id: delivery.event_id, type: "webhook.test", timestamp: expect.any(String), data: { endpoint_id: endpoint.id }, test: true });

    const rows = await svc.db.webhookDelivery.findMany({ where: { endpointId: { in: [endpoint.id, sibling.id] } }, select: { id: true, body: true, userId: true } });
    expect(rows).toHaveLength(1);
    expect(JSON.parse(rows[0]!.body)).toEqual(delivery.payload);
    expect(rows[0]!.userId).toBeNull();
    expect(await queuedDeliveryIds()).toContain(String(delivery.id));
    expect(await svc.db.outboxEvent.count()).toBe(outboxBefore);
    expect((await svc.call(answer.headers.get("location")!, { key })).body).toEqual(delivery);
  });

  it("with event_type sends that type's sample about the all-zero user, ignoring the endpoint's event_types", async () => {
    const endpoint = await createEndpoint({ event_types: ["tag.created"] });
    const answer = await post(`${hooks(endpoint.id)}/test`, key, { event_type: "data.written" });
    expect(answer.status, answer.text).toBe(202);
    expect(answer.body.event_type).toBe("data.written");
    expect(answer.body.payload).toEqual({
      id: answer.body.event_id,
      type: "data.written",
      timestamp: expect.any(String),
      data: EVENT_CATALOG["data.written"].sample,
      test: true,
    });
    expect(answer.body.payload.data).toMatchObject({ user_id: "00000000-0000-0000-0000-000000000000", external_ref: "sample-user" });
    const again = await post(`${hooks(endpoint.id)}/test`, key, { event_type: "share.revoked" });
    expect(again.body.payload.data).toEqual(EVENT_CATALOG["share.revoked"].sample);
    expect(again.body.event_id).not.toBe(answer.body.event_id);
  });

  it("refuses an unknown event type (400) and a disabled endpoint (409)", async () => {
    const endpoint = await createEndpoint();
    expectBadRequest(await post(`${hooks(endpoint.id)}/test`, key, { event_type: "data.exploded" }), "event_type");
    await patch(endpoint.id, { enabled: false });
    expect((await post(`${hooks(endpoint.id)}/test`)).status).toBe(409);
    expect(await svc.db.webhookDelivery.count({ where: { endpointId: endpoint.id } })).toBe(0);
  });
});

describe("GET /v1/webhooks/{webhook_id}/deliveries", () => {
  it("lists newest first, filters by status, pages with the cursor, and leaves out payload and attempt_history", async () => {
    const endpoint = await createEndpoint();
    const states = ["done", "parked", "pending", "done", "running", "done", "parked"] as const;
    const ids: number[] = [];
    for (const status of states) ids.push((await insertDelivery(endpoint.id, { status })).id);
    await insertDelivery((await createEndpoint()).id, { status: "done" });

    const first = await svc.call(deliveriesOf(endpoint.id), { key });
    expect(first.status, first.text).toBe(200);
    expect(first.body.data.map((delivery: Delivery) => delivery.id)).toEqual([...ids].reverse());
    expect(first.body.next_cursor).toBeNull();
    expect(Object.keys(first.body.data[0]).sort()).toEqual(
      ["id", "event_id", "event_type", "status", "attempts", "last_status_code", "last_error", "next_attempt_at", "delivered_at", "created_at", "replay_of"].sort(),
    );

    const paged = await readAllPages<Delivery>(svc, deliveriesOf(endpoint.id), key, 2);
    expect(paged.map((delivery) => delivery.id)).toEqual([...ids].reverse());
    const done = await readAllPages<Delivery>(svc, `${deliveriesOf(endpoint.id)}?status=done`, key, 2);
    expect(done.map((delivery) => delivery.id)).toEqual(ids.filter((_, i) => states[i] === "done").reverse());
    const parked = await svc.call(`${deliveriesOf(endpoint.id)}?status=parked`, { key });
    expect(parked.body.data.map((delivery: Delivery) => delivery.id)).toEqual([ids[6], ids[1]]);

    expectBadRequest(await svc.call(`${deliveriesOf(endpoint.id)}?status=lost`, { key }), "status");
    expectBadRequest(await svc.call(`${deliveriesOf(endpoint.id)}?limit=1001`, { key }), "limit");
    expectBadRequest(await svc.call(`${deliveriesOf(endpoint.id)}?cursor=nonsense`, { key }), "cursor");
  });
});

describe("GET /v1/webhooks/{webhook_id}/deliveries/{delivery_id}", () => {
  it("answers the delivery with its exact payload and the last 20 attempts, oldest first", async () => {
    const endpoint = await createEndpoint();
    const delivery = await insertDelivery(endpoint.id, { status: "parked", attempts: 8, attemptsMade: 25, lastStatusCode: 503, lastError: "HTTP 503" });
    for (let attempt = 1; attempt <= 25; attempt++) {
      await svc.db.webhookAttempt.create({
        data: {
          deliveryId: BigInt(delivery.id),
          attempt,
          startedAt: new Date(Date.UTC(2026, 0, 1, 0, attempt)),
          durationMs: attempt * 10,
          statusCode: attempt === 25 ? null : 503,
          error: attempt === 25 ? "connection refused" : "HTTP 503",
          responseBodyExcerpt: attempt === 25 ? null : "busy",
        },
      });
    }
    const answer = await svc.call(deliveryPath(endpoint.id, delivery.id), { key });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toMatchObject({ id: delivery.id, event_id: delivery.eventId, event_type: "tag.created", status: "parked", attempts: 8, last_status_code: 503, last_error: "HTTP 503", replay_of: null });
    expect(answer.body.payload).toEqual(JSON.parse(delivery.body));
    const history = answer.body.attempt_history;
    expect(history.map((attempt: { attempt: number }) => attempt.attempt)).toEqual(Array.from({ length: 20 }, (_, i) => i + 6));
    expect(history[0]).toEqual({ id: expect.any(Number), attempt: 6, started_at: "2026-01-01T00:06:00.000Z", duration_ms: 60, status_code: 503, error: "HTTP 503", response_body_excerpt: "busy" });
    expect(history[19]).toMatchObject({ attempt: 25, status_code: null, error: "connection refused", response_body_excerpt: null });
  });

  it("is 404 for a delivery of another endpoint of the tenant and an unknown id; 400 for an id that is not a positive integer", async () => {
    const endpoint = await createEndpoint();
    const other = await createEndpoint();
    const delivery = await insertDelivery(other.id, { status: "done" });
    expect((await svc.call(deliveryPath(endpoint.id, delivery.id), { key })).status).toBe(404);
    expect((await post(`${deliveryPath(endpoint.id, delivery.id)}/retry`)).status).toBe(404);
    expect((await post(`${deliveryPath(endpoint.id, delivery.id)}/replay`)).status).toBe(404);
    expect((await svc.call(deliveryPath(endpoint.id, 999_999_999), { key })).status).toBe(404);
    for (const id of ["abc", "0", "-3", "1.5"]) {
      expectBadRequest(await svc.call(`${deliveriesOf(endpoint.id)}/${id}`, { key }), "delivery_id");
    }
  });
});

describe("POST .../deliveries/{delivery_id}/retry", () => {
  it("is 409 while the delivery is pending or running, changing nothing", async () => {
    const endpoint = await createEndpoint();
    for (const status of ["pending", "running"] as const) {
      const delivery = await insertDelivery(endpoint.id, { status, attempts: 2 });
      const answer = await post(`${deliveryPath(endpoint.id, delivery.id)}/retry`);
      expect(answer.status, answer.text).toBe(409);
      expect(await statusOf(delivery.id)).toBe(status);
      expect(await queuedDeliveryIds()).not.toContain(String(delivery.id));
    }
  });

  it("queues a done or parked delivery from its first attempt (202): counters start over, history and attempts_made go on, a job is sent", async () => {
    const endpoint = await createEndpoint();
    for (const status of ["done", "parked"] as const) {
      const delivery = await insertDelivery(endpoint.id, {
        status,
        attempts: 8,
        attemptsMade: 8,
        lastStatusCode: status === "done" ? 204 : 500,
        lastError: status === "done" ? null : "HTTP 500",
        deliveredAt: status === "done" ? new Date() : null,
      });
      await svc.db.webhookAttempt.create({ data: { deliveryId: BigInt(delivery.id), attempt: 8, startedAt: new Date(), durationMs: 3, statusCode: 500, error: "HTTP 500" } });
      const answer = await post(`${deliveryPath(endpoint.id, delivery.id)}/retry`);
      expect(answer.status, answer.text).toBe(202);
      expect(answer.body).toMatchObject({
        id: delivery.id,
        event_id: delivery.eventId,
        status: "pending",
        attempts: 0,
        last_status_code: null,
        last_error: null,
        delivered_at: null,
        next_attempt_at: expect.any(String),
      });
      expect(answer.body.payload).toEqual(JSON.parse(delivery.body));
      expect(answer.body.attempt_history.map((attempt: { attempt: number }) => attempt.attempt)).toEqual([8]);
      const row = await svc.db.webhookDelivery.findUniqueOrThrow({ where: { id: BigInt(delivery.id) }, select: { attemptsMade: true, body: true } });
      expect(row).toEqual({ attemptsMade: 8, body: delivery.body });
      expect(await queuedDeliveryIds()).toContain(String(delivery.id));
      // Now pending: a second retry is 409.
      expect((await post(`${deliveryPath(endpoint.id, delivery.id)}/retry`)).status).toBe(409);
    }
  });

  it("is 409 while the endpoint is disabled", async () => {
    const endpoint = await createEndpoint();
    const delivery = await insertDelivery(endpoint.id, { status: "parked" });
    await patch(endpoint.id, { enabled: false });
    expect((await post(`${deliveryPath(endpoint.id, delivery.id)}/retry`)).status).toBe(409);
    expect((await post(`${deliveryPath(endpoint.id, delivery.id)}/replay`)).status).toBe(409);
    expect(await statusOf(delivery.id)).toBe("parked");
  });
});

describe("POST .../deliveries/{delivery_id}/replay", () => {
  it("queues a new delivery of the same event id and body with replay_of (202 + Location)", async () => {
    const endpoint = await createEndpoint();
    const original = await insertDelivery(endpoint.id, { status: "done", attempts: 1, attemptsMade: 1, lastStatusCode: 200, deliveredAt: new Date() });
    const answer = await post(`${deliveryPath(endpoint.id, original.id)}/replay`);
    expect(answer.status, answer.text).toBe(202);
    const replay = answer.body;
    expect(replay.id).not.toBe(original.id);
    expect(answer.headers.get("location")).toBe(deliveryPath(endpoint.id, replay.id));
    expect(replay).toMatchObject({ event_id: original.eventId, event_type: "tag.created", status: "pending", attempts: 0, replay_of: original.id, attempt_history: [], delivered_at: null });
    expect(replay.payload).toEqual(JSON.parse(original.body));
    const row = await svc.db.webhookDelivery.findUniqueOrThrow({ where: { id: BigInt(replay.id) }, select: { body: true } });
    expect(row.body).toBe(original.body);
    expect(await queuedDeliveryIds()).toContain(String(replay.id));
    expect((await svc.call(answer.headers.get("location")!, { key })).body).toEqual(replay);
    // The original is untouched.
    expect(await statusOf(original.id)).toBe("done");
    const listed = await svc.call(deliveriesOf(endpoint.id), { key });
    expect(listed.body.data.map((delivery: Delivery) => [delivery.id, delivery.replay_of])).toEqual([[replay.id, original.id], [original.id, null]]);
  });

  it("is 409 while the original is pending or running", async () => {
    const endpoint = await createEndpoint();
    for (const status of ["pending", "running"] as const) {
      const original = await insertDelivery(endpoint.id, { status });
      expect((await post(`${deliveryPath(endpoint.id, original.id)}/replay`)).status).toBe(409);
    }
    expect(await svc.db.webhookDelivery.count({ where: { endpointId: endpoint.id, replayOf: { not: null } } })).toBe(0);
  });

  it("answers 429 with Retry-After at an eleventh waiting replay of the endpoint; a finished replay frees a place", async () => {
    const endpoint = await createEndpoint();
    const original = await insertDelivery(endpoint.id, { status: "parked", attempts: 8 });
    const replays: number[] = [];
    for (let i = 0; i < 10; i++) {
      const answer = await post(`${deliveryPath(endpoint.id, original.id)}/replay`);
      expect(answer.status, answer.text).toBe(202);
      replays.push(answer.body.id);
    }
    const refused = await post(`${deliveryPath(endpoint.id, original.id)}/replay`);
    expect(refused.status, refused.text).toBe(429);
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(refused.body.detail).toContain("10");
    // Replays of another endpoint do not count.
    const other = await createEndpoint();
    const otherOriginal = await insertDelivery(other.id, { status: "done" });
    expect((await post(`${deliveryPath(other.id, otherOriginal.id)}/replay`)).status).toBe(202);

    await svc.db.webhookDelivery.update({ where: { id: BigInt(replays[0]!) }, data: { status: "done" } });
    expect((await post(`${deliveryPath(endpoint.id, original.id)}/replay`)).status).toBe(202);
    expect((await post(`${deliveryPath(endpoint.id, original.id)}/replay`)).status).toBe(429);
    expect(await svc.db.webhookDelivery.count({ where: { endpointId: endpoint.id, replayOf: BigInt(original.id) } })).toBe(11);
  });
});
