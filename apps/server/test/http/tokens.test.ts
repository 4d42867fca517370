import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestService, type TestService } from "../helpers/test-service.ts";

let svc: TestService;
let key: string;
let userId: string;

beforeAll(async () => {
  svc = await startTestService();
  key = (await svc.createTenant()).api_key;
  userId = (await svc.call("/v1/users", { key, body: {} })).body.id;
});
afterAll(() => svc?.stop());

const HOUR_MS = 3600_000;

describe("POST /v1/users/{id}/tokens", () => {
  it("mints a token shown once, default 3600 s, with Cache-Control: no-store", async () => {
    const before = Date.now();
    const answer = await svc.call(`/v1/users/${userId}/tokens`, { key, body: { scopes: ["upload", "read"] } });
    expect(answer.status).toBe(201);
    expect(answer.headers.get("cache-control")).toBe("no-store");
    expect(answer.body.token).toMatch(/^svc_ut_[0-9A-Za-z]{43}$/);
    expect(answer.body.scopes).toEqual(["upload", "read"]);
    const ttl = new Date(answer.body.expires_at).getTime() - before;
    expect(ttl).toBeGreaterThan(HOUR_MS - 5000);
    expect(ttl).toBeLessThan(HOUR_MS + 5000);
    const stored = await svc.db.userToken.findMany({ where: { userId } });
    expect(stored.map((row) => row.tokenHash)).not.toContain(answer.body.token);
  });

  it("accepts up to 86400 s, and up to 2592000 s for a read-only token", async () => {
    expect((await svc.call(`/v1/users/${userId}/tokens`, { key, body: { scopes: ["upload"], ttl_seconds: 86_400 } })).status).toBe(201);
    const longRead = await svc.call(`/v1/users/${userId}/tokens`, { key, body: { scopes: ["read"], ttl_seconds: 2_592_000 } });
    expect(longRead.status).toBe(201);
    expect(new Date(longRead.body.expires_at).getTime() - Date.now()).toBeGreaterThan(2_592_000_000 - 10_000);
  });

  it.each([
    [{ scopes: ["upload"], ttl_seconds: 86_401 }, "ttl_seconds"],
    [{ scopes: ["read", "upload"], ttl_seconds: 100_000 }, "ttl_seconds"],
    [{ scopes: ["read"], ttl_seconds: 2_592_001 }, "ttl_seconds"],
    [{ scopes: ["read"], ttl_seconds: 0 }, "ttl_seconds"],
    [{ scopes: ["read"], ttl_seconds: 1.5 }, "ttl_seconds"],
    // JSON bodies keep their types: a number sent as a string is refused, not coerced.
    [{ scopes: ["read"], ttl_seconds: "3600" }, "ttl_seconds"],
    [{ scopes: [] }, "scopes"],
    [{ scopes: ["admin"] }, "scopes"],
    [{}, "scopes"],
  ])("refuses %j with a 400 naming %s", async (body, field) => {
    const before = await svc.db.userToken.count();
    const answer = await svc.call(`/v1/users/${userId}/tokens`, { key, body });
    expect(answer.status).toBe(400);
    expect(answer.body.detail).toContain(field);
    expect(await svc.db.userToken.count()).toBe(before);
  });

  it("is 404 for an unknown user or another tenant's user", async () => {
    const other = (await svc.createTenant()).api_key;
    expect((await svc.call(`/v1/users/${userId}/tokens`, { key: other, body: { scopes: ["read"] } })).status).toBe(404);
    const unknown = "5b0e1d1c-0000-4000-8000-000000000000";
    expect((await svc.call(`/v1/users/${unknown}/tokens`, { key, body: { scopes: ["read"] } })).status).toBe(404);
  });
});
