// Retries of 429 and 503 through a real local proxy in front of the real service: which
// calls are repeated, that a repeat carries the same Idempotency-Key, Retry-After read in
// both forms, and the bound on attempts.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createRestClient, unwrap, type RestClient } from "../src/index.ts";
import { createTrpcClient, type TrpcClient } from "../src/trpc-client.ts";
import { startFlakyProxy, type FlakyProxy } from "./helpers/flaky-proxy.ts";
import { startLiveService, type LiveService } from "./helpers/live-service.ts";

let svc: LiveService;
let proxy: FlakyProxy;
let rest: RestClient;
let trpc: TrpcClient;
// Backoff without Retry-After stays short; maxDelayMs 60 s is above every Retry-After queued below but 120.
const retry = { maxAttempts: 3, baseDelayMs: 20, maxDelayMs: 60_000 };

beforeAll(async () => {
  svc = await startLiveService();
  proxy = await startFlakyProxy(svc.url);
  rest = createRestClient({ baseUrl: proxy.url, token: svc.apiKey, retry });
  trpc = createTrpcClient({ baseUrl: proxy.url, token: svc.apiKey, retry });
});
afterAll(async () => {
  await proxy?.close();
  await svc?.stop();
});
afterEach(() => {
  proxy.requests.length = 0;
});

const statuses = () => proxy.requests.map((request) => request.failedWith?.status ?? "passed");
const keys = () => proxy.requests.map((request) => request.headers["idempotency-key"]);

describe("a POST that takes Idempotency-Key", () => {
  it("is retried after 429 and 503 with the same key, and the user is made once", async () => {
    proxy.fail({ status: 429, retryAfter: "0" }, { status: 503, retryAfter: new Date(Date.now() - 1000).toUTCString() });
    const user = await unwrap(rest.POST("/v1/users", { body: { external_ref: "retried" } }));

    expect(statuses()).toEqual([429, 503, "passed"]);
    const [key] = keys();
    expect(key).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys()).toEqual([key, key, key]);
    const users = await unwrap(rest.GET("/v1/users", { params: { query: { limit: 1000 } } }));
    expect(users.data.filter((listed) => listed.external_ref === "retried")).toEqual([user]);
  });

  it("is retried over tRPC too, keeping the caller's key", async () => {
    proxy.fail({ status: 503 });
    const context = { idempotencyKey: crypto.randomUUID() };
    const user = await trpc.users.createUser.mutate({ external_ref: "retried-trpc" }, { context });

    expect(user.external_ref).toBe("retried-trpc");
    expect(statuses()).toEqual([503, "passed"]);
    expect(keys()).toEqual([context.idempotencyKey, context.idempotencyKey]);
  });
});

describe("reads", () => {
  it("are retried after a 503 without Retry-After (backoff)", async () => {
    proxy.fail({ status: 503 }, { status: 503 });
    const users = await trpc.users.listUsers.query({ limit: 1 });

    expect(users.data).toHaveLength(1);
    expect(statuses()).toEqual([503, 503, "passed"]);
  });

  it("stop after maxAttempts and answer the last failure", async () => {
    proxy.fail({ status: 429, retryAfter: "0" }, { status: 429, retryAfter: "0" }, { status: 429, retryAfter: "0" });
    const answer = await rest.GET("/v1/users", {});

    // A fourth attempt would have reached the service.
    expect(answer.response.status).toBe(429);
    expect(statuses()).toEqual([429, 429, 429]);
  });

  it("are not retried when Retry-After asks for more than maxDelayMs", async () => {
    proxy.fail({ status: 429, retryAfter: "120" });
    const answer = await rest.GET("/v1/users", {});

    expect(answer.response.status).toBe(429);
    expect(answer.response.headers.get("retry-after")).toBe("120");
    expect(statuses()).toEqual([429]);
  });
});

describe("a POST that does not take Idempotency-Key", () => {
  it("is sent once, without a key, and its 503 is the answer", async () => {
    const user = await unwrap(rest.POST("/v1/users", { body: {} }));
    proxy.requests.length = 0;
    proxy.fail({ status: 503, retryAfter: "0" });
    const answer = await rest.POST("/v1/users/{id}/tokens", { params: { path: { id: user.id } }, body: { scopes: ["read"] } });

    expect(answer.response.status).toBe(503);
    expect(statuses()).toEqual([503]);
    expect(keys()).toEqual([undefined]);
  });
});

describe("retry: false", () => {
  it("sends every request once", async () => {
    const once = createRestClient({ baseUrl: proxy.url, token: svc.apiKey, retry: false });
    proxy.fail({ status: 503, retryAfter: "0" });
    const answer = await once.GET("/v1/users", {});

    expect(answer.response.status).toBe(503);
    expect(statuses()).toEqual([503]);
  });
});
