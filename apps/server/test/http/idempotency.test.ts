import { hashIdempotentRequest } from "@svc/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestService, type TestService } from "../helpers/test-service.ts";

let svc: TestService;
let key: string;
let tenantId: string;

beforeAll(async () => {
  svc = await startTestService();
  const tenant = await svc.createTenant();
  key = tenant.api_key;
  tenantId = tenant.tenant_id;
});
afterAll(() => svc?.stop());

const create = (idempotencyKey: string, body: unknown, tenantKey = key) =>
  svc.call("/v1/users", { key: tenantKey, body, headers: { "Idempotency-Key": idempotencyKey } });

describe("Idempotency-Key on POST /v1/users", () => {
  it("replays the first answer with Idempotent-Replayed: true and creates one user", async () => {
    const first = await create("k-replay", { external_ref: "idem-1" });
    expect(first.status).toBe(201);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    const second = await create("k-replay", { external_ref: "idem-1" });
    expect(second.status).toBe(201);
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    expect(second.body).toEqual(first.body);
    expect(await svc.db.user.count({ where: { externalRef: "idem-1" } })).toBe(1);
  });

  it("answers 422 for the same key with a different request, changing nothing", async () => {
    await create("k-mismatch", { external_ref: "idem-2" });
    const other = await create("k-mismatch", { external_ref: "idem-3" });
    expect(other.status).toBe(422);
    expect(await svc.db.user.count({ where: { externalRef: "idem-3" } })).toBe(0);
  });

  it("answers 409 while the first call with the key still runs", async () => {
    // The first call holds the key in state running (as it does mid-flight).
    await svc.db.idempotencyRecord.create({
      data: {
        tenantId,
        scope: `tenant:${tenantId}`,
        operation: "POST /v1/users",
        key: "k-running",
        requestHash: hashIdempotentRequest({ external_ref: "idem-4" }),
        expiresAt: new Date(Date.now() + 86_400_000),
      },
    });
    const answer = await create("k-running", { external_ref: "idem-4" });
    expect(answer.status).toBe(409);
    expect(answer.body.detail).toContain("still being processed");
    expect(await svc.db.user.count({ where: { externalRef: "idem-4" } })).toBe(0);
  });

  it("answers 409 to concurrent retries and creates the user once", async () => {
    const answers = await Promise.all(Array.from({ length: 8 }, () => create("k-race", { external_ref: "race" })));
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.every((status) => status === 201 || status === 409)).toBe(true);
    expect(statuses.filter((status) => status === 201).length).toBeGreaterThanOrEqual(1);
    const ids = new Set(answers.filter((a) => a.status === 201).map((a) => a.body.id));
    expect(ids.size).toBe(1);
    expect(await svc.db.user.count({ where: { externalRef: "race" } })).toBe(1);
  });

  it("keeps keys apart per tenant, and a failed first call can be retried with its key", async () => {
    const other = (await svc.createTenant()).api_key;
    expect((await create("k-shared", { external_ref: "a" })).status).toBe(201);
    const elsewhere = await create("k-shared", { external_ref: "b" }, other);
    expect(elsewhere.status).toBe(201);
    expect(elsewhere.headers.get("idempotent-replayed")).toBeNull();

    expect((await create("k-fail", { external_ref: "a" })).status).toBe(409); // external_ref taken
    await svc.db.user.updateMany({ where: { externalRef: "a" }, data: { externalRef: "a-moved" } });
    expect((await create("k-fail", { external_ref: "a" })).status).toBe(201);
  });

  it("refuses a key longer than 255 characters with a 400", async () => {
    const answer = await create("k".repeat(256), {});
    expect(answer.status).toBe(400);
    expect(answer.body.detail).toContain("Idempotency-Key");
  });

  it("forgets the stored answer when the user it created is deleted", async () => {
    const created = await create("k-deleted", { external_ref: "gone" });
    await svc.call(`/v1/users/${created.body.id}`, { key, method: "DELETE" });
    expect(await svc.db.idempotencyRecord.count({ where: { key: "k-deleted" } })).toBe(0);
    const again = await create("k-deleted", { external_ref: "gone" });
    expect(again.status).toBe(201);
    expect(again.body.id).not.toBe(created.body.id);
  });
});
