import { createConfig, lintFromString } from "@redocly/openapi-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { ContractChecker } from "../helpers/contract.ts";
import { startTestService, type TestService } from "../helpers/test-service.ts";

let svc: TestService;
let text: string;
let response: Response;

beforeAll(async () => {
  svc = await startTestService();
  response = await fetch(`${svc.url}/openapi.yaml`);
  text = await response.text();
});
afterAll(() => svc?.stop());

describe("GET /openapi.yaml", () => {
  it("is served without credentials to any origin", () => {
    expect(response.status).toBe(200);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(response.headers.get("content-type")).toContain("yaml");
  });

  it("is a valid OpenAPI 3.1 document (Redocly's recommended rules, no errors)", async () => {
    const config = await createConfig({ extends: ["recommended"] });
    const problems = await lintFromString({ source: text, absoluteRef: `${svc.url}/openapi.yaml`, config });
    const errors = problems.filter((problem) => problem.severity === "error");
    expect(errors.map((problem) => `${problem.ruleId}: ${problem.message}`)).toEqual([]);
  });

  it("describes version 0.1.0, every /v1 route, bearer security and problem answers", () => {
    const document = parse(text);
    expect(document.openapi).toBe("3.1.0");
    expect(document.info.version).toBe("0.1.0");
    expect(document.components.securitySchemes.bearer).toMatchObject({ type: "http", scheme: "bearer" });
    const routes = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.keys(item as object).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(routes.sort()).toEqual(
      [
        "POST /v1/users",
        "GET /v1/users",
        "GET /v1/users/{id}",
        "DELETE /v1/users/{id}",
        "POST /v1/users/{id}/tokens",
        "GET /v1/deletions/{job_id}",
        "GET /v1/users/{id}/samples",
        "GET /v1/users/{id}/samples/stats",
        "GET /v1/users/{id}/source-orders",
        "PUT /v1/users/{id}/source-orders/{scope}",
        "DELETE /v1/users/{id}/source-orders/{scope}",
        "GET /v1/users/{id}/source-ranking",
        "GET /v1/users/{id}/category-samples",
        "GET /v1/users/{id}/sleep",
        "GET /v1/users/{id}/sleep/{session_id}/phases",
        "GET /v1/users/{id}/workouts",
        "GET /v1/users/{id}/workouts/{workout_id}/route",
        "GET /v1/users/{id}/menstrual-cycles",
        "GET /v1/users/{id}/coverage",
        "POST /v1/ingest/apple-health",
        "POST /v1/ingest/health-connect",
        "POST /v1/ingest/xiaomi",
        "POST /v1/ingest/activity-files",
        "POST /v1/ingest/bluetooth",
        "GET /v1/ingest/uploads/{upload_id}",
        "GET /v1/users/{id}/nutrition",
        "GET /v1/users/{id}/daily",
        "GET /v1/users/{id}/rr-intervals",
        "GET /v1/users/{id}/hrv",
        "GET /v1/users/{id}/ecg",
        "GET /v1/users/{id}/ecg/{ecg_id}",
        "POST /v1/users/{id}/tags",
        "GET /v1/users/{id}/tags",
        "GET /v1/users/{id}/tags/{tag_id}",
        "PATCH /v1/users/{id}/tags/{tag_id}",
        "DELETE /v1/users/{id}/tags/{tag_id}",
        "POST /v1/users/{id}/shares",
        "GET /v1/users/{id}/shares",
        "GET /v1/users/{id}/shares/{share_id}",
        "POST /v1/users/{id}/shares/{share_id}/revoke",
        "POST /v1/users/{id}/self-reports",
        "POST /v1/webhooks",
        "GET /v1/webhooks",
        "GET /v1/webhooks/{webhook_id}",
        "PATCH /v1/webhooks/{webhook_id}",
        "DELETE /v1/webhooks/{webhook_id}",
        "POST /v1/webhooks/{webhook_id}/rotate-secret",
        "POST /v1/webhooks/{webhook_id}/test",
        "GET /v1/webhooks/{webhook_id}/deliveries",
        "GET /v1/webhooks/{webhook_id}/deliveries/{delivery_id}",
        "POST /v1/webhooks/{webhook_id}/deliveries/{delivery_id}/retry",
        "POST /v1/webhooks/{webhook_id}/deliveries/{delivery_id}/replay",
        "GET /v1/providers",
        "DELETE /v1/users/{id}/data/{provider}",
        "GET /v1/admin/tenants/{tenant_id}/providers",
        "PATCH /v1/admin/tenants/{tenant_id}/providers/{provider}",
        "GET /v1/admin/tenants/{tenant_id}/providers/{provider}/keys",
        "PUT /v1/admin/tenants/{tenant_id}/providers/{provider}/keys",
        "DELETE /v1/admin/tenants/{tenant_id}/providers/{provider}/keys",
        "GET /v1/admin/providers",
        "GET /v1/admin/providers/{provider}",
        "PATCH /v1/admin/providers/{provider}",
        "DELETE /v1/admin/providers/{provider}",
        "PUT /v1/admin/providers/{provider}/keys",
        "POST /v1/users/{id}/connections/{provider}/sync",
        "GET /v1/users/{id}/sync-runs",
        "GET /v1/users/{id}/sync-runs/{run_id}",
        "GET /v1/users/{id}/freshness",
        "POST /v1/users/{id}/connections/{provider}",
        "GET /v1/users/{id}/connections",
        "DELETE /v1/users/{id}/connections/{provider}",
        "POST /v1/users/{id}/connect-sessions",
        "GET /v1/users/{id}/fhir/Observation",
        "GET /v1/pipeline",
        "GET /v1/audit-log",
        "GET /v1/admin/audit-log",
        "GET /v1/admin/tenants/{tenant_id}/audit-log",
        "GET /v1/admin/tenants/{tenant_id}/webhooks/{webhook_id}",
        "POST /v1/admin/tenants/{tenant_id}/webhooks/{webhook_id}/rotate-secret",
        "GET /v1/admin/tenants/{tenant_id}/users/{id}/samples",
        "GET /v1/admin/tenants/{tenant_id}/users/{id}/samples/stats",
        "GET /v1/admin/tenants/{tenant_id}/users/{id}/connections",
        "GET /v1/admin/tenants/{tenant_id}/users/{id}/sync-runs/{run_id}",
        "GET /v1/admin/tenants/{tenant_id}/deletions/{job_id}",
        "GET /v1/admin/tenants/{tenant_id}/pipeline",
        "GET /v1/admin/tenants",
        "POST /v1/admin/tenants",
        "GET /v1/admin/tenants/{tenant_id}",
        "DELETE /v1/admin/tenants/{tenant_id}",
        "GET /v1/admin/tenant-deletions/{job_id}",
        "GET /v1/admin/tenants/{tenant_id}/users",
        "GET /v1/admin/tenants/{tenant_id}/users/{id}",
        "GET /v1/admin/tenants/{tenant_id}/users/{id}/shares",
        "GET /v1/admin/tenants/{tenant_id}/users/{id}/consents",
        "GET /v1/admin/tenants/{tenant_id}/users/{id}/sample-types",
        "GET /v1/admin/tenants/{tenant_id}/users/{id}/sync-runs",
        "GET /v1/admin/tenants/{tenant_id}/webhooks",
        "GET /v1/admin/tenants/{tenant_id}/webhooks/{webhook_id}/deliveries",
        "GET /v1/admin/tenants/{tenant_id}/webhooks/{webhook_id}/deliveries/{delivery_id}",
        "POST /v1/admin/tenants/{tenant_id}/webhooks/{webhook_id}/deliveries/{delivery_id}/retry",
        "GET /v1/users/{id}/consents",
        "POST /v1/users/{id}/consents/{provider}/grant",
        "POST /v1/users/{id}/consents/{provider}/revoke",
      ].sort(),
    );
    expect(document.paths["/v1/users"].post.responses["201"]).toBeDefined();
    expect(document.paths["/v1/users/{id}"].delete.responses["202"]).toBeDefined();
    const unauthorized = document.paths["/v1/users"].get.responses["401"];
    expect(unauthorized.content["application/problem+json"].schema.$ref).toBe("#/components/schemas/Problem");
    expect(unauthorized.headers["WWW-Authenticate"]).toBeDefined();
  });

  it("the contract checker refuses answers the document does not allow", async () => {
    const checker = await ContractChecker.load(`${svc.url}/openapi.yaml`);
    const json = new Headers({ "content-type": "application/json" });
    expect(() => checker.check("GET", "/v1/users", { status: 200, headers: json, body: { data: [{ id: 1 }] } })).toThrow();
    expect(() => checker.check("GET", "/v1/users", { status: 418, headers: json, body: {} })).toThrow();
    expect(() => checker.check("GET", "/v1/users", { status: 401, headers: json, body: {} })).toThrow();
    expect(() => checker.check("GET", "/v1/users", { status: 200, headers: json, body: { data: [], next_cursor: null } })).not.toThrow();
    const tag = "/v1/users/00000000-0000-4000-8000-000000000000/tags/00000000-0000-4000-8000-000000000001";
    expect(() => checker.check("DELETE", tag, { status: 204, headers: json, body: undefined, text: "" })).toThrow(/Content-Type/);
    expect(() => checker.check("DELETE", tag, { status: 204, headers: new Headers(), body: undefined, text: "{}" })).toThrow(/body/);
    expect(() => checker.check("DELETE", tag, { status: 204, headers: new Headers(), body: undefined, text: "" })).not.toThrow();
    // Named by its template, an operation is checked even when the path sent matches no template.
    expect(() => checker.check("GET", "/v1/users//x", { status: 418, headers: json, body: {} }, "/v1/users/{id}")).toThrow(/418/);
    expect(() => checker.check("GET", "/v1/nothing", { status: 200, headers: json, body: {} }, "/v1/nothing")).toThrow(/not an operation/);
  });
});

describe("statuses every operation declares", () => {
  const operations = () =>
    Object.entries(parse(text).paths as Record<string, Record<string, { responses: Record<string, any> }>>).flatMap(([path, item]) =>
      Object.entries(item).map(([method, operation]) => ({ route: `${method.toUpperCase()} ${path}`, responses: operation.responses })),
    );

  it("400, 401, 403, 429, 500 and 503 on every operation (input, secret, rate limit, database), Retry-After on 429 and 503", () => {
    for (const { route, responses } of operations()) {
      expect(Object.keys(responses), route).toEqual(expect.arrayContaining(["400", "401", "403", "429", "500", "503"]));
      for (const status of ["429", "503"]) expect(responses[status].headers?.["Retry-After"], `${route} ${status}`).toBeDefined();
    }
  });

  it("a 204 has no content, on exactly the operations that answer one", () => {
    const noContent = operations().filter(({ responses }) => responses["204"]);
    expect(noContent.map(({ route }) => route).sort()).toEqual([
      "DELETE /v1/users/{id}/connections/{provider}",
      "DELETE /v1/users/{id}/source-orders/{scope}",
      "DELETE /v1/users/{id}/tags/{tag_id}",
      "DELETE /v1/webhooks/{webhook_id}",
    ]);
    for (const { route, responses } of noContent) {
      expect(responses["204"].content, route).toBeUndefined();
      expect(responses["204"].description, route).toEqual(expect.any(String));
    }
  });
});

describe("error response descriptions", () => {
  it("each operation describes its own errors, not the first procedure's wording for that status", () => {
    const document = parse(text);
    const createUserConflict = document.paths["/v1/users"].post.responses["409"].description;
    const eraseConflict = document.paths["/v1/users/{id}/data/{provider}"].delete.responses["409"].description;
    expect(createUserConflict).toBe(
      "external_ref already used in the tenant, or the same Idempotency-Key is still being processed",
    );
    expect(eraseConflict).toBe("The user is still connected to the provider");
    const adminProviderMissing = document.paths["/v1/admin/providers/{provider}"].get.responses["404"].description;
    const tenantMissing = document.paths["/v1/admin/tenants/{tenant_id}/providers"].get.responses["404"].description;
    expect(adminProviderMissing).toBe("A provider unknown to this build");
    expect(tenantMissing).toBe("No such tenant");
  });
});
