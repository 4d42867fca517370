import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestService, type TestService } from "../helpers/test-service.ts";

let svc: TestService;
let key: string;
let otherKey: string;

beforeAll(async () => {
  svc = await startTestService();
  key = (await svc.createTenant()).api_key;
  otherKey = (await svc.createTenant()).api_key;
});
afterAll(() => svc?.stop());

describe("POST /v1/users", () => {
  it("creates a user (201) with or without external_ref", async () => {
    const withRef = await svc.call("/v1/users", { key, body: { external_ref: "crm-1" } });
    expect(withRef.status).toBe(201);
    expect(withRef.body).toMatchObject({ external_ref: "crm-1", status: "active" });
    expect(withRef.body.id).toMatch(/^[0-9a-f-]{36}$/);

    const bare = await svc.call("/v1/users", { key, method: "POST" });
    expect(bare.status).toBe(201);
    expect(bare.body.external_ref).toBeNull();
  });

  it("answers 409 for an external_ref taken in the tenant, and allows it in another tenant", async () => {
    await svc.call("/v1/users", { key, body: { external_ref: "dup" } });
    const again = await svc.call("/v1/users", { key, body: { external_ref: "dup" } });
    expect(again.status).toBe(409);
    expect(again.body.detail).toContain("external_ref");
    const elsewhere = await svc.call("/v1/users", { key: otherKey, body: { external_ref: "dup" } });
    expect(elsewhere.status).toBe(201);
  });

  it.each([
    [{ external_ref: 42 }, "external_ref"],
    [{ external_ref: "" }, "external_ref"],
    [{ external_ref: "x".repeat(256) }, "external_ref"],
    [{ external_ref: "ok", externalRef: "typo" }, "externalRef"],
  ])("refuses %j with a 400 and creates nothing", async (body, field) => {
    const before = await svc.db.user.count();
    const answer = await svc.call("/v1/users", { key, body });
    expect(answer.status).toBe(400);
    expect(answer.body.detail).toContain(field);
    expect(await svc.db.user.count()).toBe(before);
  });
});

describe("GET /v1/users and /v1/users/{id}", () => {
  it("pages through every user oldest first with opaque cursors", async () => {
    const tenant = (await svc.createTenant()).api_key;
    const created: string[] = [];
    for (let i = 0; i < 5; i++) created.push((await svc.call("/v1/users", { key: tenant, body: { external_ref: `p${i}` } })).body.id);

    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const query: string = cursor ? `?limit=2&cursor=${encodeURIComponent(cursor)}` : "?limit=2";
      const page = await svc.call(`/v1/users${query}`, { key: tenant });
      expect(page.status).toBe(200);
      expect(page.body.data.length).toBeLessThanOrEqual(2);
      seen.push(...page.body.data.map((user: { id: string }) => user.id));
      cursor = page.body.next_cursor;
    } while (cursor);
    expect(seen).toEqual(created);

    const all = await svc.call("/v1/users", { key: tenant });
    expect(all.body.data).toHaveLength(5);
    expect(all.body.next_cursor).toBeNull();
  });

  it.each(["?limit=1001", "?limit=0", "?limit=abc", "?limit=1.5", "?cursor=garbage"])("answers 400 for %s", async (query) => {
    const answer = await svc.call(`/v1/users${query}`, { key });
    expect(answer.status).toBe(400);
    expect(answer.headers.get("content-type")).toContain("application/problem+json");
  });

  it("reads one user; another tenant's user is 404, never 403", async () => {
    const user = (await svc.call("/v1/users", { key, body: { external_ref: "one" } })).body;
    const read = await svc.call(`/v1/users/${user.id}`, { key });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(user);

    expect((await svc.call(`/v1/users/${user.id}`, { key: otherKey })).status).toBe(404);
    expect((await svc.call("/v1/users/3f0d0a7e-4c57-4b9f-8f67-4c2a8b8e7a10", { key })).status).toBe(404);
    expect((await svc.call("/v1/users/not-a-uuid", { key })).status).toBe(400);
    const list = await svc.call("/v1/users?limit=1000", { key: otherKey });
    expect(list.body.data.map((u: { id: string }) => u.id)).not.toContain(user.id);
  });
});

describe("DELETE /v1/users/{id}", () => {
  async function waitForJob(jobId: string, tenantKey: string) {
    for (let i = 0; i < 100; i++) {
      const job = await svc.call(`/v1/deletions/${jobId}`, { key: tenantKey });
      if (job.body.status === "done" || job.body.status === "failed") return job.body;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error("deletion job did not finish");
  }

  it("answers 202 with a job, hides the user at once, and the job deletes every row", async () => {
    const user = (await svc.call("/v1/users", { key, body: { external_ref: "leaving" } })).body;
    const token = (await svc.call(`/v1/users/${user.id}/tokens`, { key, body: { scopes: ["read"] } })).body.token;
    // Reads of the user are remembered for a short while (readableUserCache): the deletion forgets them.
    expect((await svc.call(`/v1/users/${user.id}/sleep`, { key })).status).toBe(200);

    const answer = await svc.call(`/v1/users/${user.id}`, { key, method: "DELETE" });
    expect(answer.status).toBe(202);
    expect(answer.body).toEqual({ job_id: expect.stringMatching(/^[0-9a-f-]{36}$/) });

    expect((await svc.call(`/v1/users/${user.id}`, { key })).status).toBe(404);
    expect((await svc.call(`/v1/users/${user.id}/sleep`, { key })).status).toBe(404);
    expect((await svc.call(`/v1/users/${user.id}`, { key, method: "DELETE" })).status).toBe(404);
    // The token of a user being deleted stops at once (401, not 403).
    expect((await svc.call("/v1/users", { key: token })).status).toBe(401);
    // Its external_ref is free again.
    expect((await svc.call("/v1/users", { key, body: { external_ref: "leaving" } })).status).toBe(201);

    const job = await waitForJob(answer.body.job_id, key);
    expect(job).toMatchObject({ job_id: answer.body.job_id, user_id: user.id, provider: null, status: "done" });
    expect(job.finished_at).not.toBeNull();
    expect(await svc.db.user.findUnique({ where: { id: user.id } })).toBeNull();
    expect(await svc.db.userToken.count({ where: { userId: user.id } })).toBe(0);

    const events = await svc.db.outboxEvent.findMany({ where: { userId: user.id } });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: "user.deleted", data: { user_id: user.id, external_ref: "leaving" } });
  });

  it("keeps another tenant's deletion job and user out of reach (404)", async () => {
    const user = (await svc.call("/v1/users", { key, body: {} })).body;
    expect((await svc.call(`/v1/users/${user.id}`, { key: otherKey, method: "DELETE" })).status).toBe(404);
    const { job_id } = (await svc.call(`/v1/users/${user.id}`, { key, method: "DELETE" })).body;
    expect((await svc.call(`/v1/deletions/${job_id}`, { key: otherKey })).status).toBe(404);
    expect((await svc.call(`/v1/deletions/${job_id}`, { key })).status).toBe(200);
    expect((await svc.call("/v1/deletions/not-a-uuid", { key })).status).toBe(400);
  });
});
