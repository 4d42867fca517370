import { createAdminKey, createUser, mintUserToken } from "@svc/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { uploadNdjson } from "../helpers/uploads.ts";
import { startTestService, type CallResult, type TestService } from "../helpers/test-service.ts";

// Two api processes on one database, with low limits and a window far longer than the
// tests, so that no count resets while a test runs. The window's end has its own service.
const LIMITS = { SVC_ROLE: "api", SVC_RATE_LIMIT_TENANT: "5", SVC_RATE_LIMIT_USER: "3", SVC_RATE_LIMIT_WINDOW_SECONDS: "3600" };

let svc: TestService;
let other: TestService;

beforeAll(async () => {
  svc = await startTestService(LIMITS);
  other = await startTestService(LIMITS, { databaseUrl: svc.databaseUrl });
});
afterAll(async () => {
  await other?.stop();
  await svc?.stop();
});

/** A new tenant with one user and a token of that user (made directly: no call counted). */
async function newTenant() {
  const tenant = await svc.createTenant();
  const user = await createUser(svc.db, tenant.tenant_id, undefined);
  const token = (await mintUserToken(svc.db, tenant.tenant_id, user.id, { scopes: ["read", "upload"] })).token;
  return { key: tenant.api_key, tenantId: tenant.tenant_id, userId: user.id, token };
}

async function callTimes(times: number, call: () => Promise<CallResult>): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < times; i++) statuses.push((await call()).status);
  return statuses;
}

function expectRateLimited(answer: { status: number; headers: Headers }, body: any) {
  expect(answer.status).toBe(429);
  expect(answer.headers.get("retry-after")).toMatch(/^[1-9][0-9]*$/);
  expect(Number(answer.headers.get("retry-after"))).toBeLessThanOrEqual(3600);
  expect(answer.headers.get("content-type")).toMatch(/^application\/problem\+json/);
  expect(body).toMatchObject({ type: "about:blank", title: "Too Many Requests", status: 429, request_id: answer.headers.get("x-request-id") });
}

describe("rate limits per caller", () => {
  it("answers the sixth call of a tenant's keys in the window 429 with Retry-After as a problem; another tenant is unaffected", async () => {
    const a = await newTenant();
    const b = await newTenant();
    expect(await callTimes(5, () => svc.call("/v1/users", { key: a.key }))).toEqual([200, 200, 200, 200, 200]);

    const refused = await svc.call("/v1/users", { key: a.key });
    expectRateLimited(refused, refused.body);
    expect(refused.body.detail).toBe(`Rate limit reached: at most 5 calls of this tenant's API keys in 3600 seconds. Retry after ${refused.headers.get("retry-after")} seconds.`);

    expect((await svc.call("/v1/users", { key: b.key })).status).toBe(200);
    // A bad secret is still 401, not counted and not limited.
    expect((await svc.call("/v1/users", { key: "svc_sk_wrong" })).status).toBe(401);
  });

  it("counts /trpc and /mcp calls too, with the same 429 and Retry-After", async () => {
    const a = await newTenant();
    expect((await callTimes(4, () => svc.call("/v1/users", { key: a.key }))).every((status) => status === 200)).toBe(true);
    const trpc = await fetch(`${svc.url}/trpc/users.listUsers?input=${encodeURIComponent(JSON.stringify({ json: {} }))}`, {
      headers: { authorization: `Bearer ${a.key}` },
    });
    expect(trpc.status).toBe(200);

    const trpcRefused = await fetch(`${svc.url}/trpc/users.listUsers?input=${encodeURIComponent(JSON.stringify({ json: {} }))}`, {
      headers: { authorization: `Bearer ${a.key}` },
    });
    expect(trpcRefused.status).toBe(429);
    expect(trpcRefused.headers.get("retry-after")).toMatch(/^[1-9][0-9]*$/);
    const trpcError = (await trpcRefused.json()) as { error: { json: { data: { problem: unknown } } } };
    expect(trpcError.error.json.data.problem).toMatchObject({ status: 429, title: "Too Many Requests" });

    const mcp = await fetch(`${svc.url}/mcp`, {
      method: "POST",
      headers: { authorization: `Bearer ${a.key}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
    });
    expectRateLimited(mcp, await mcp.json());
  });

  it("gives a user's tokens one bucket of their own: they do not use up the tenant's, and uploads count", async () => {
    const t = await newTenant();
    const second = (await mintUserToken(svc.db, t.tenantId, t.userId, { scopes: ["read"] })).token;
    const read = (token: string) => svc.call(`/v1/users/${t.userId}/workouts`, { key: token });
    expect(await callTimes(2, () => read(t.token))).toEqual([200, 200]);
    expect((await read(second)).status).toBe(200);

    const refused = await read(second);
    expectRateLimited(refused, refused.body);
    expect(refused.body.detail).toContain("at most 3 calls of this user's tokens");
    // Refused before its body is read.
    const upload = await uploadNdjson(svc, t.token, "bluetooth", ["{}"]);
    expectRateLimited(upload, upload.body);
    expect(await svc.db.rawObject.count({ where: { userId: t.userId } })).toBe(0);

    // The tenant's own budget is untouched by its user's calls.
    expect(await callTimes(5, () => svc.call(`/v1/users/${t.userId}/workouts`, { key: t.key }))).toEqual([200, 200, 200, 200, 200]);
  });

  it("gives each instance admin key a bucket of its own, with the tenant limit", async () => {
    const admin = (await createAdminKey(svc.db, "rate-limits")).admin_key;
    const t = await newTenant();
    expect(await callTimes(5, () => svc.call("/v1/admin/providers", { key: admin }))).toEqual([200, 200, 200, 200, 200]);
    const refused = await svc.call("/v1/admin/providers", { key: admin });
    expectRateLimited(refused, refused.body);
    expect(refused.body.detail).toContain("this instance admin key");
    expect((await svc.call("/v1/users", { key: t.key })).status).toBe(200);
  });

  it("changes nothing on a refused call", async () => {
    const t = await newTenant();
    expect(await callTimes(5, () => svc.call("/v1/users", { key: t.key }))).toEqual([200, 200, 200, 200, 200]);
    const refused = await svc.call("/v1/users", { key: t.key, body: { external_ref: "refused" }, headers: { "idempotency-key": "rl-1" } });
    expectRateLimited(refused, refused.body);
    expect(await svc.db.user.count({ where: { tenantId: t.tenantId } })).toBe(1);
    expect(await svc.db.idempotencyRecord.count({ where: { tenantId: t.tenantId } })).toBe(0);
  });

  it("holds across two api processes on one database", async () => {
    const t = await newTenant();
    expect(await callTimes(3, () => svc.call("/v1/users", { key: t.key }))).toEqual([200, 200, 200]);
    expect(await callTimes(2, () => other.call("/v1/users", { key: t.key }))).toEqual([200, 200]);
    const refused = await other.call("/v1/users", { key: t.key });
    expectRateLimited(refused, refused.body);
    expect((await svc.call("/v1/users", { key: t.key })).status).toBe(429);
  });

  it("counts again from zero once the window is over", async () => {
    const short = await startTestService(
      { ...LIMITS, SVC_RATE_LIMIT_TENANT: "1", SVC_RATE_LIMIT_WINDOW_SECONDS: "2" },
      { databaseUrl: svc.databaseUrl },
    );
    try {
      const t = await newTenant();
      expect((await short.call("/v1/users", { key: t.key })).status).toBe(200);
      // On a slow machine the 2 s window may end between two calls; then the next call opens a new one.
      let refused: CallResult | undefined;
      for (let i = 0; i < 10 && !refused; i++) {
        const answer = await short.call("/v1/users", { key: t.key });
        if (answer.status === 429) refused = answer;
        else expect(answer.status).toBe(200);
      }
      expect(refused).toBeDefined();
      const retryAfter = Number(refused!.headers.get("retry-after"));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(2);
      await new Promise((resolve) => setTimeout(resolve, retryAfter * 1000 + 100));
      expect((await short.call("/v1/users", { key: t.key })).status).toBe(200);
    } finally {
      await short.stop();
    }
  });
});

describe("rate limits when the database fails", () => {
  it("keeps counting in the process instead of failing the call", async () => {
    const t = await newTenant();
    await svc.db.$executeRawUnsafe("ALTER TABLE rate_limits RENAME TO rate_limits_away");
    try {
      expect(await callTimes(5, () => svc.call("/v1/users", { key: t.key }))).toEqual([200, 200, 200, 200, 200]);
      expect((await svc.call("/v1/users", { key: t.key })).status).toBe(429);
    } finally {
      await svc.db.$executeRawUnsafe("ALTER TABLE rate_limits_away RENAME TO rate_limits");
    }
  });
});
