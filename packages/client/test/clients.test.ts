// Both typed clients against the real service: calls and their types, problems, paging,
// Idempotency-Key replays, and an upload with a binary body.
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import {
  createRestClient,
  paginate,
  problemOf,
  SvcError,
  unwrap,
  upload,
  type Fetch,
  type RestClient,
} from "../src/index.ts";
import { createTrpcClient, type TrpcClient } from "../src/trpc-client.ts";
import { startLiveService, type LiveService } from "./helpers/live-service.ts";

let svc: LiveService;
let rest: RestClient;
let trpc: TrpcClient;
/** Every request the clients sent, with its headers. */
const sent: Request[] = [];
const recording: Fetch = async (input, init) => {
  const request = new Request(input, init);
  sent.push(request.clone());
  return fetch(request);
};

beforeAll(async () => {
  svc = await startLiveService();
  rest = createRestClient({ baseUrl: `${svc.url}/`, token: svc.apiKey, fetch: recording });
  trpc = createTrpcClient({ baseUrl: svc.url, token: svc.apiKey, fetch: recording });
});
afterAll(() => svc?.stop());

describe("the tRPC client", () => {
  it("calls procedures with their input and output types, through superjson", async () => {
    const created = await trpc.users.createUser.mutate({ external_ref: "trpc-1" });
    expectTypeOf(created.external_ref).toEqualTypeOf<string | null>();
    expect(created).toMatchObject({ id: expect.any(String), external_ref: "trpc-1", status: "active" });
    const read = await trpc.users.getUser.query({ id: created.id });
    expect(read).toEqual(created);
  });

  it("turns a refusal into a TRPCClientError whose problem problemOf reads", async () => {
    const missing = await trpc.users.getUser.query({ id: crypto.randomUUID() }).catch((error: unknown) => error);
    expect(problemOf(missing)).toMatchObject({ status: 404, title: expect.any(String), request_id: expect.any(String) });
  });
});

describe("the REST client", () => {
  it("calls /v1 routes with path, query and body types from /openapi.yaml", async () => {
    const created = await rest.POST("/v1/users", { body: { external_ref: "rest-1" } });
    expect(created.response.status).toBe(201);
    const user = await unwrap(created);
    expectTypeOf(user.status).toEqualTypeOf<"active" | "deleting">();
    const read = await unwrap(rest.GET("/v1/users/{id}", { params: { path: { id: user.id } } }));
    expect(read).toEqual(user);
  });

  it("throws SvcError with the problem from unwrap", async () => {
    const missing = await unwrap(rest.GET("/v1/users/{id}", { params: { path: { id: crypto.randomUUID() } } })).catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(SvcError);
    expect(missing).toMatchObject({ status: 404, problem: { status: 404, type: "about:blank" } });
    expect(problemOf(missing)?.request_id).toEqual(expect.any(String));
  });
});

describe("paginate", () => {
  it("walks every page of a list with either client, in the same order", async () => {
    for (let i = 0; i < 5; i++) await trpc.users.createUser.mutate({ external_ref: `page-${i}` });
    const all = await unwrap(rest.GET("/v1/users", { params: { query: { limit: 1000 } } }));
    expect(all.data.length).toBeGreaterThanOrEqual(7);

    let restPages = 0;
    const overRest: string[] = [];
    for await (const user of paginate((cursor) => {
      restPages++;
      return unwrap(rest.GET("/v1/users", { params: { query: { cursor, limit: 2 } } }));
    })) {
      expectTypeOf(user.id).toBeString();
      overRest.push(user.id);
    }
    let trpcPages = 0;
    const overTrpc: string[] = [];
    for await (const user of paginate((cursor) => {
      trpcPages++;
      return trpc.users.listUsers.query({ cursor, limit: 2 });
    })) {
      overTrpc.push(user.id);
    }

    expect(overRest).toEqual(all.data.map((user) => user.id));
    expect(overTrpc).toEqual(overRest);
    expect(restPages).toBeGreaterThanOrEqual(Math.ceil(all.data.length / 2));
    expect(trpcPages).toBe(restPages);
  });

  it("stops when the caller breaks out", async () => {
    let pages = 0;
    for await (const _ of paginate((cursor) => {
      pages++;
      return trpc.users.listUsers.query({ cursor, limit: 1 });
    })) {
      break;
    }
    expect(pages).toBe(1);
  });
});

describe("idempotency keys", () => {
  it("are added to POSTs of routes that take them, fresh per call, and not to others", async () => {
    sent.length = 0;
    await unwrap(rest.POST("/v1/users", { body: {} }));
    await trpc.users.createUser.mutate({});
    const user = await trpc.users.createUser.mutate({});
    sent.length = 2;
    await unwrap(rest.POST("/v1/users/{id}/tokens", { params: { path: { id: user.id } }, body: { scopes: ["read"] } }));
    const keys = sent.map((request) => request.headers.get("idempotency-key"));
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).not.toBe(keys[0]);
    expect(keys[2]).toBeNull();
  });

  it("replay the first answer when a REST call repeats the caller's key", async () => {
    const key = crypto.randomUUID();
    const call = () => rest.POST("/v1/users", { body: { external_ref: "replayed-rest" }, params: { header: { "Idempotency-Key": key } } });
    const first = await call();
    const again = await call();
    expect(first.response.status).toBe(201);
    expect(again.response.status).toBe(201);
    expect(again.response.headers.get("idempotent-replayed")).toBe("true");
    expect(again.data).toEqual(first.data);
  });

  it("replay the first answer when a tRPC mutation repeats the caller's key", async () => {
    const context = { idempotencyKey: crypto.randomUUID() };
    const first = await trpc.users.createUser.mutate({ external_ref: "replayed-trpc" }, { context });
    const again = await trpc.users.createUser.mutate({ external_ref: "replayed-trpc" }, { context });
    expect(again).toEqual(first);
    const other = await trpc.users.createUser.mutate({ external_ref: "replayed-trpc" }, { context: { idempotencyKey: crypto.randomUUID() } }).catch((error: unknown) => error);
    expect(problemOf(other)?.status).toBe(409);
  });
});

describe("upload", () => {
  it("sends a gzip body as is with a user token, and a repeat with the same key replays", async () => {
    const user = await trpc.users.createUser.mutate({});
    const { token } = await unwrap(rest.POST("/v1/users/{id}/tokens", { params: { path: { id: user.id } }, body: { scopes: ["upload"] } }));
    const asUser = createRestClient({ baseUrl: svc.url, token });
    const line = JSON.stringify({ characteristic: "2a37", value: "0048", received_at: "2026-03-01T10:00:00Z" });
    const body = new Uint8Array(gzipSync(line));
    const key = crypto.randomUUID();

    const first = await upload(asUser, "bluetooth", body, { contentType: "application/x-ndjson", idempotencyKey: key });
    expect(first).toMatchObject({ status: "accepted", byte_size: body.byteLength });
    const again = await upload(asUser, "bluetooth", body, { contentType: "application/x-ndjson", idempotencyKey: key });
    expect(again).toEqual(first);

    const refused = await upload(asUser, "bluetooth", "not json", { contentType: "application/x-ndjson" }).catch((error: unknown) => error);
    expect(refused).toMatchObject({ status: 400 });
  });
});
