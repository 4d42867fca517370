import { randomUUID } from "node:crypto";
import { createConfig, lintFromString } from "@redocly/openapi-core";
import { eventComponentName, OPENAPI_COMPONENTS } from "@svc/api";
import { EVENT_CATALOG, EVENT_TYPES, eventBody } from "@svc/core";
import addFormats from "ajv-formats";
import { OpenAPIBackend } from "openapi-backend";
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

  it("is a valid OpenAPI 3.1 document (Redocly's recommended rules, no errors and no warnings)", async () => {
    const config = await createConfig({ extends: ["recommended"] });
    const problems = await lintFromString({ source: text, absoluteRef: `${svc.url}/openapi.yaml`, config });
    expect(problems.map((problem) => `${problem.severity} ${problem.ruleId}: ${problem.message} at ${problem.location[0]?.pointer}`)).toEqual([]);
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
        "GET /v1/fhir/metadata",
        "GET /v1/fhir/Patient",
        "GET /v1/fhir/Patient/{id}",
        "GET /v1/fhir/Patient/{id}/Observation",
        "GET /v1/fhir/Observation",
        "GET /v1/fhir/Observation/{id}",
        "GET /v1/fhir/Patient/$export",
        "GET /v1/fhir/Patient/{id}/$export",
        "GET /v1/fhir/bulk-status/{export_id}",
        "DELETE /v1/fhir/bulk-status/{export_id}",
        "GET /v1/fhir/bulk-files/{export_id}/{file_number}",
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

  it("errors are Problems; under /v1/fhir also the OperationOutcome a FHIR client gets (application/fhir+json)", () => {
    const fhir = operations().filter(({ route }) => route.split(" ")[1]!.startsWith("/v1/fhir/"));
    expect(fhir.length).toBeGreaterThanOrEqual(6);
    for (const { route, responses } of operations()) {
      for (const [status, response] of Object.entries(responses).filter(([status]) => Number(status) >= 400)) {
        const types = fhir.some((op) => op.route === route) ? ["application/fhir+json", "application/problem+json"] : ["application/problem+json"];
        expect(Object.keys(response.content ?? {}), `${route} ${status}`).toEqual(types);
        expect(response.content["application/problem+json"].schema.$ref).toBe("#/components/schemas/Problem");
        if (types.length > 1) expect(response.content["application/fhir+json"].schema.$ref).toBe("#/components/schemas/FhirOperationOutcome");
      }
    }
    expect(parse(text).components.schemas.FhirOperationOutcome).toMatchObject({ required: ["resourceType", "issue"], properties: { resourceType: { const: "OperationOutcome" } } });
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

type Media = Record<string, { schema?: { $ref?: string; type?: string; format?: string } }>;
type Operation = { parameters?: Array<{ name: string; description?: string }>; requestBody?: { required?: boolean; content: Media }; responses: Record<string, { content?: Media }> };

describe("schemas for client generators", () => {
  const document = () => parse(text);
  const operations = () =>
    Object.entries(document().paths as Record<string, Record<string, Operation>>).flatMap(([path, item]) =>
      Object.entries(item).map(([method, operation]) => ({ route: `${method.toUpperCase()} ${path}`, operation })),
    );

  it("every parameter has a description, the webhooks' headers too", () => {
    const webhooks = Object.entries(document().webhooks as Record<string, { post: Operation }>).map(([type, item]) => ({ route: `webhook ${type}`, operation: item.post }));
    for (const { route, operation } of [...operations(), ...webhooks]) {
      for (const parameter of operation.parameters ?? []) expect(parameter.description, `${route} ${parameter.name}`).toMatch(/\S/);
    }
  });

  it("every JSON body, asked or answered, is a named schema: no generator has to name one", () => {
    for (const { route, operation } of operations()) {
      const answers = Object.entries(operation.responses).filter(([status]) => status.startsWith("2"));
      const bodies = [operation.requestBody?.content, ...answers.map(([, response]) => response.content)];
      for (const content of bodies) {
        for (const [type, media] of Object.entries(content ?? {})) {
          if (/^application\/(\w+\+)?json$/.test(type)) expect(media.schema?.$ref, `${route} ${type}`).toMatch(/^#\/components\/schemas\/[A-Z][A-Za-z]+$/);
        }
      }
    }
  });

  it("names the records, pages, problems and FHIR resources once, with stable readable names", () => {
    const { components, paths } = document();
    const names = Object.keys(components.schemas);
    for (const name of names) expect(name, "a readable type name, no generator's suffix").toMatch(/^[A-Z][A-Za-z]+$/);
    for (const name of names) expect(name).not.toMatch(/Output$/);
    expect(names).toEqual(expect.arrayContaining([...Object.keys(OPENAPI_COMPONENTS), "Problem", "UploadAccepted"]));
    const answer = (path: string, status = "200", type = "application/json") => paths[path].get.responses[status].content[type].schema.$ref;
    expect(answer("/v1/users/{id}/samples")).toBe("#/components/schemas/QuantitySamplePage");
    expect(answer("/v1/admin/tenants/{tenant_id}/users/{id}/samples")).toBe("#/components/schemas/QuantitySamplePage");
    expect(components.schemas.QuantitySamplePage.properties.data.items.$ref).toBe("#/components/schemas/QuantitySample");
    expect(answer("/v1/users/{id}/fhir/Observation", "200", "application/fhir+json")).toBe("#/components/schemas/FhirObservationBundle");
    expect(components.schemas.FhirBundleEntry.properties.resource.$ref).toBe("#/components/schemas/FhirObservation");
    // One schema per shape: two named schemas alike would be two types of one thing in a client.
    const seen = new Map<string, string>();
    for (const [name, schema] of Object.entries(components.schemas as Record<string, unknown>)) {
      // Alike by design: the data of tag.created, tag.updated and tag.deleted; the bodies of grant and revoke consent.
      if (name.endsWith("EventData") || name.endsWith("Request")) continue;
      const shape = JSON.stringify(schema);
      expect(seen.get(shape), `${name} is the same as ${seen.get(shape)}`).toBeUndefined();
      seen.set(shape, name);
    }
  });

  it("upload routes take their bodies as application/octet-stream too, beside their own media types", () => {
    const uploads = operations().filter(({ route }) => /^POST \/v1\/ingest\/[a-z-]+$/.test(route));
    expect(uploads).toHaveLength(5);
    for (const { route, operation } of uploads) {
      const content = operation.requestBody!.content;
      expect(content["application/octet-stream"]?.schema, route).toMatchObject({ type: "string", format: "binary" });
      expect(Object.keys(content).length, route).toBeGreaterThan(1);
      expect(operation.responses["202"]!.content!["application/json"]!.schema!.$ref).toBe("#/components/schemas/UploadAccepted");
    }
  });

  it("a body that {} satisfies is optional (the server reads no body as {}); one with a required field is not", () => {
    const paths = document().paths;
    expect(paths["/v1/webhooks/{webhook_id}/test"].post.requestBody.required).toBe(false);
    expect(paths["/v1/users"].post.requestBody.required).toBe(false);
    expect(paths["/v1/webhooks"].post.requestBody.required).toBe(true);
    expect(paths["/v1/users/{id}/self-reports"].post.requestBody.required).toBe(true);
  });

  it("describes each event in webhooks, and each event's schema takes the bodies svc sends and no other", async () => {
    const { webhooks, components, info } = document();
    expect(Object.keys(webhooks).sort()).toEqual([...EVENT_TYPES].sort());
    const definition = {
      openapi: "3.1.0",
      info,
      paths: Object.fromEntries(
        EVENT_TYPES.map((type) => {
          const schema = webhooks[type].post.requestBody.content["application/json"].schema;
          expect(schema.$ref).toBe(`#/components/schemas/${eventComponentName(type)}`);
          const responses = { "200": { description: "The event", content: { "application/json": { schema } } } };
          return [`/${type}`, { post: { operationId: type, responses } }];
        }),
      ),
      components,
    };
    const api = new OpenAPIBackend({ definition, strict: true, quick: true, validate: true, customizeAjv: (ajv) => (addFormats.default(ajv), ajv) });
    await api.init();
    const errorsOf = (type: string, body: unknown) => api.validateResponse(body, type, 200).errors ?? [];
    for (const type of EVENT_TYPES) {
      const sent = (test: boolean) => JSON.parse(eventBody({ id: randomUUID(), type, timestamp: new Date(), data: EVENT_CATALOG[type].sample, test }));
      expect(errorsOf(type, sent(false)), type).toEqual([]);
      expect(errorsOf(type, sent(true)), type).toEqual([]);
      expect(errorsOf(type, { ...sent(false), type: "other.type" }), type).not.toEqual([]);
      expect(errorsOf(type, { ...sent(false), data: { ...EVENT_CATALOG[type].sample, value: 72 } }), type).not.toEqual([]);
    }
  });
});
