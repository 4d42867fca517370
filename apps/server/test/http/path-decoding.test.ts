import { createAdminKey } from "@svc/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../helpers/records.ts";
import { startTestService, type TestService } from "../helpers/test-service.ts";

// A client may percent-encode any character of a path value (RFC 3986 allows it): the value
// the route sees is the decoded one, decoded exactly once, as query values are.

let svc: TestService;
let adminKey: string;
let key: string;
let user: string;

beforeAll(async () => {
  svc = await startTestService({ SVC_ROLE: "api" });
  adminKey = (await createAdminKey(svc.db, "decoding")).admin_key;
  key = (await svc.createTenant()).api_key;
  user = await createUser(svc, key);
});
afterAll(() => svc?.stop());

const provider = (encoded: string) => svc.call(`/v1/admin/providers/${encoded}`, { key: adminKey });
const putOrder = (scope: string) => svc.call(`/v1/users/${user}/source-orders/${scope}`, { key, method: "PUT", body: { sources: ["oura", "garmin"] } });

describe("percent-encoded path values", () => {
  it("an encoded character reads as itself: source-orders/%2A is source-orders/*", async () => {
    const encoded = await putOrder("%2A");
    expect(encoded.status, encoded.text).toBe(200);
    expect(encoded.body).toMatchObject({ scope: "*", sources: ["oura", "garmin"] });
    const plain = await putOrder("*");
    expect(plain.status, plain.text).toBe(200);
    expect(plain.body).toMatchObject({ scope: "*" });
    const removed = await svc.call(`/v1/users/${user}/source-orders/%2a`, { key, method: "DELETE" });
    expect(removed.status, removed.text).toBe(204);
  });

  it("admin/providers/apple%5Fhealth answers exactly as admin/providers/apple_health", async () => {
    const plain = await provider("apple_health");
    expect(plain.status, plain.text).toBe(200);
    const encoded = await provider("apple%5Fhealth");
    expect(encoded.status, encoded.text).toBe(200);
    expect(encoded.body).toEqual(plain.body);
  });

  it("an encoded slash stays inside its value: it never splits the path into another route", async () => {
    const answer = await provider("apple%2Fhealth");
    expect(answer.status, answer.text).toBe(404);
    expect(answer.body.detail).toBe("This build knows no provider apple/health.");
  });

  it("is decoded once: %252A is the text %2A, not *", async () => {
    const answer = await provider("x%252A");
    expect(answer.status, answer.text).toBe(404);
    expect(answer.body.detail).toBe("This build knows no provider x%2A.");
  });

  it("a malformed escape is a 400 problem naming the parameter", async () => {
    for (const bad of ["%E0%A4%A", "%FF", "%C3%28", "%"]) {
      const answer = await provider(bad);
      expect(answer.status, `${bad}: ${answer.text}`).toBe(400);
      expect(answer.headers.get("content-type")).toMatch(/^application\/problem\+json/);
      expect(answer.body).toMatchObject({ status: 400, detail: "The path parameter provider is not valid percent-encoded UTF-8.", request_id: answer.headers.get("x-request-id") });
    }
  });
});
