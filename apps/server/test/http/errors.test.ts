import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestService, type TestService } from "../helpers/test-service.ts";

let svc: TestService;
let key: string;

beforeAll(async () => {
  svc = await startTestService();
  key = (await svc.createTenant()).api_key;
});
afterAll(() => svc?.stop());

function expectProblem(answer: { status: number; headers: Headers; body: any }, status: number) {
  expect(answer.status).toBe(status);
  expect(answer.headers.get("content-type")).toMatch(/^application\/problem\+json/);
  expect(answer.body).toEqual({
    type: "about:blank",
    title: expect.any(String),
    status,
    detail: expect.any(String),
    request_id: answer.headers.get("x-request-id"),
  });
  expect(JSON.stringify(answer.body)).not.toMatch(/at .*\.ts:|stack|SELECT|prisma/i);
}

describe("problem answers", () => {
  it("malformed JSON is a 400 and creates nothing", async () => {
    const before = await svc.db.user.count();
    expectProblem(await svc.call("/v1/users", { key, rawBody: '{"external_ref": ', headers: { "content-type": "application/json" } }), 400);
    expect(await svc.db.user.count()).toBe(before);
  });

  it("a body over 1 MiB is a 413", async () => {
    const big = JSON.stringify({ external_ref: "x".repeat(1_100_000) });
    expectProblem(await svc.call("/v1/users", { key, rawBody: big, headers: { "content-type": "application/json" } }), 413);
  });

  it("a body that is not JSON is a 415", async () => {
    expectProblem(await svc.call("/v1/users", { key, rawBody: "external_ref=a", headers: { "content-type": "text/plain" } }), 415);
  });

  it("text with a NUL character (which PostgreSQL cannot store) is a 400 on any route, never quoted, and changes nothing", async () => {
    const before = await svc.db.user.count();
    const created = await svc.call("/v1/users", { key, body: { external_ref: "secret\u0000ref" } });
    expectProblem(created, 400);
    expect(created.text).not.toContain("secret");
    expect(await svc.db.user.count()).toBe(before);
    const user = (await svc.call("/v1/users", { key, body: { external_ref: "nul-check" } })).body.id;
    expectProblem(await svc.call(`/v1/users/${user}/tags`, { key, body: { kind: "custom", label: "a\u0000b", start_at: "2026-01-01T00:00:00Z" } }), 400);
    expectProblem(await svc.call(`/v1/users/${user}/samples?type=heart%00rate`, { key }), 400);
  });

  it("a JSON body that is not an object is a 400", async () => {
    expectProblem(await svc.call("/v1/users", { key, rawBody: "[1,2]", headers: { "content-type": "application/json" } }), 400);
  });

  it("a JSON body nested more than 32 levels deep is a 400 (10 000 levels overflowed a stack: a 500), and creates nothing", async () => {
    const before = await svc.db.user.count();
    const deep = await svc.call("/v1/users", { key, rawBody: `{"external_ref":${"[".repeat(10_000)}${"]".repeat(10_000)}}`, headers: { "content-type": "application/json" } });
    expectProblem(deep, 400);
    expect(deep.body.detail).toBe("The body is nested more than 32 levels deep.");
    const justOver = await svc.call("/v1/users", { key, rawBody: `{"x":${'{"a":'.repeat(32)}1${"}".repeat(32)}}`, headers: { "content-type": "application/json" } });
    expect(justOver.body.detail).toBe("The body is nested more than 32 levels deep.");
    expect(await svc.db.user.count()).toBe(before);
  });

  it("unknown routes and methods are 404, inside and outside /v1", async () => {
    expectProblem(await svc.call("/v1/nothing-here", { key }), 404);
    expectProblem(await svc.call("/v1/users", { key, method: "PUT", body: {} }), 404);
    expectProblem(await svc.call("/elsewhere"), 404);
  });
});

describe("unexpected errors", () => {
  it("are a 500 with a generic detail; the cause goes to the log under the request id", async () => {
    const broken = await startTestService();
    try {
      const { api_key } = await broken.createTenant();
      await broken.db.$executeRawUnsafe('ALTER TABLE "users" RENAME TO "users_gone"');
      const answer = await broken.call("/v1/users", { key: api_key, headers: { "x-request-id": "boom-1" } });
      expectProblem(answer, 500);
      expect(answer.body.detail).toContain("request_id");
      const logged = broken.logs.filter((line) => line.includes("boom-1") && line.includes('"level":50'));
      expect(logged.join("\n")).toContain("PrismaClientKnownRequestError");
      // The cause is logged by type and last message line, without Prisma's query printout.
      expect(logged.join("\n")).not.toContain("invocation");
    } finally {
      await broken.stop();
    }
  });
});

describe("X-Request-Id", () => {
  it("keeps a valid client value on success and in problems", async () => {
    const ok = await svc.call("/v1/users", { key, headers: { "x-request-id": "abc-123_X.y" } });
    expect(ok.headers.get("x-request-id")).toBe("abc-123_X.y");
    const problem = await svc.call("/v1/users?limit=0", { key, headers: { "x-request-id": "trace.42" } });
    expect(problem.headers.get("x-request-id")).toBe("trace.42");
    expect(problem.body.request_id).toBe("trace.42");
    expect((await svc.call("/openapi.yaml", { headers: { "x-request-id": "y" } })).headers.get("x-request-id")).toBe("y");
  });

  it.each(["has space", "x".repeat(129), "semi;colon", "ünïcode"])("replaces the invalid value %j", async (value) => {
    const answer = await fetch(`${svc.url}/v1/users`, {
      headers: { authorization: `Bearer ${key}`, "x-request-id": encodeURI(value) === value ? value : "bad%value" },
    });
    const id = answer.headers.get("x-request-id");
    expect(id).not.toBe(value);
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
  });
});
