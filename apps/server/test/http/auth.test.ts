import { generateSecret } from "@svc/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAdminKey } from "@svc/core";
import { startTestService, type TestService } from "../helpers/test-service.ts";

let svc: TestService;
let tenantKey: string;
let userToken: string;
let adminKey: string;
let userId: string;

beforeAll(async () => {
  svc = await startTestService();
  tenantKey = (await svc.createTenant()).api_key;
  userId = (await svc.call("/v1/users", { key: tenantKey, body: {} })).body.id;
  userToken = (await svc.call(`/v1/users/${userId}/tokens`, { key: tenantKey, body: { scopes: ["read", "upload"] } })).body.token;
  adminKey = (await createAdminKey(svc.db, "test")).admin_key;
});
afterAll(() => svc?.stop());

const tenantRoutes = () => [
  ["POST", "/v1/users", {}],
  ["GET", "/v1/users", undefined],
  ["GET", `/v1/users/${userId}`, undefined],
  ["POST", `/v1/users/${userId}/tokens`, { scopes: ["read"] }],
  ["DELETE", `/v1/users/${userId}`, undefined],
  ["GET", "/v1/deletions/5b0e1d1c-0000-4000-8000-000000000000", undefined],
] as const;

describe("bearer rules on every tenant route", () => {
  it("401 with WWW-Authenticate: Bearer for missing, malformed, unknown and revoked secrets", async () => {
    const revoked = await svc.createTenant();
    await svc.db.tenantApiKey.updateMany({ where: { tenantId: revoked.tenant_id }, data: { revokedAt: new Date() } });
    const badHeaders: Array<Record<string, string>> = [
      {},
      { authorization: "" },
      { authorization: "Basic dXNlcjpwYXNz" },
      { authorization: "Bearer" },
      { authorization: "Bearer svc_sk_tooshort" },
      { authorization: `Bearer ${generateSecret("tenantKey")}` },
      { authorization: `Bearer ${generateSecret("userToken")}` },
      { authorization: `Bearer ${generateSecret("adminKey")}` },
      { authorization: `Bearer ${revoked.api_key}` },
    ];
    for (const [method, path, body] of tenantRoutes()) {
      for (const headers of badHeaders) {
        const answer = await svc.call(path, { method, headers, ...(body && { body }) });
        expect(answer.status, `${method} ${path} ${JSON.stringify(headers)}`).toBe(401);
        expect(answer.headers.get("www-authenticate")).toBe("Bearer");
        expect(answer.body.title).toBe("Unauthorized");
      }
    }
  });

  it("403 for a user token or an admin key on a tenant route", async () => {
    for (const [method, path, body] of tenantRoutes()) {
      for (const key of [userToken, adminKey]) {
        const answer = await svc.call(path, { method, key, ...(body && { body }) });
        expect(answer.status, `${method} ${path}`).toBe(403);
        expect(answer.headers.get("www-authenticate")).toBeNull();
      }
    }
    expect((await svc.call(`/v1/users/${userId}`, { key: tenantKey })).status).toBe(200);
  });

  it("401 for an expired user token", async () => {
    const minted = (await svc.call(`/v1/users/${userId}/tokens`, { key: tenantKey, body: { scopes: ["read"] } })).body;
    await svc.db.userToken.updateMany({ where: { expiresAt: new Date(minted.expires_at) }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const answer = await svc.call("/v1/users", { key: minted.token });
    expect(answer.status).toBe(401);
  });
});
