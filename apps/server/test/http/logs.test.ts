import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestService, type TestService } from "../helpers/test-service.ts";

let svc: TestService;

beforeAll(async () => {
  svc = await startTestService();
});
afterAll(() => svc?.stop());

describe("logs", () => {
  it("carry the access line but never a secret, a body or a value that passed through", async () => {
    const { api_key: key } = await svc.createTenant();
    const marker = "health-value-7f3a9c";
    const user = (await svc.call(`/v1/users?probe=${marker}`, { key, body: { external_ref: marker } })).body;
    const token = (await svc.call(`/v1/users/${user.id}/tokens`, { key, body: { scopes: ["read"] } })).body.token;
    await svc.call("/v1/users", { key: token });
    await svc.call("/v1/users", { key, rawBody: `{"external_ref": "${marker}`, headers: { "content-type": "application/json" } });
    await svc.call(`/v1/users/${user.id}/tokens`, { key, body: { scopes: ["read"], ttl_seconds: `${marker}` } });

    const logs = svc.logs.join("\n");
    expect(logs).toContain('"path":"/v1/users"');
    expect(logs).toContain('"statusCode":201');
    for (const secret of [key, token, marker, key.slice(7), token.slice(7)]) expect(logs).not.toContain(secret);
    expect(logs.toLowerCase()).not.toContain("authorization");
  });
});
