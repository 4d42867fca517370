// Tenant isolation on every route of /openapi.yaml: tenant A has data of every kind; each
// operation with a path parameter is called with A's ids by tenant B's key and by a user token
// of a user of B. The answer is 404 (or 403: admin routes, user routes), never a 2xx, and A's
// rows stay exactly as they were. List routes of B never name A's objects. A route whose path
// parameter this test cannot fill fails the test, so a new route cannot slip past it.
import { createAdminKey, type CreatedTenant } from "@svc/core";
import { JobQueue } from "@svc/jobs";
import { waitUntil } from "@svc/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { createUser, mintToken, writeEcg, writeSamples, writeSleep, writeWorkoutRecords } from "../helpers/records.ts";
import { startTestService, type TestService } from "../helpers/test-service.ts";
import { heartRateLine, processed, uploadNdjson, waitForDeletionJob } from "../helpers/uploads.ts";
import { emit, insertEndpoint, startTestQueue, TEST_ENCRYPTION_KEY, testSealer } from "../helpers/webhooks.ts";

const METHODS = ["get", "post", "put", "patch", "delete"] as const;
const t0 = Date.parse("2026-03-01T08:00:00Z");
const at = (ms: number) => new Date(t0 + ms);

/** Values of required query parameters, so a refusal cannot come from a missing filter. */
const QUERY: Record<string, string> = { type: "heart_rate", metric: "heart_rate", start: "2026-03-01", end: "2026-03-02" };

/** Valid request bodies of the writing routes (a 400 for a bad body would hide an ownership check). */
const BODIES: Record<string, unknown> = {
  "POST /v1/users/{id}/tokens": { scopes: ["read"] },
  "PUT /v1/users/{id}/source-orders/{scope}": { sources: ["apple"] },
  "POST /v1/users/{id}/tags": { kind: "custom", label: "from tenant B", start_at: "2026-03-01T00:00:00Z" },
  "PATCH /v1/users/{id}/tags/{tag_id}": { label: "changed by tenant B" },
  "POST /v1/users/{id}/shares": {
    label: "B",
    categories: ["heart"],
    start: "2026-02-25T00:00:00Z",
    end: "2026-03-05T00:00:00Z",
    expires_at: new Date(Date.now() + 7 * 86_400_000).toISOString(),
  },
  "POST /v1/users/{id}/self-reports": { reports: [{ kind: "feeling", value: 4, start_at: "2026-03-01T08:00:00Z" }] },
  "PATCH /v1/webhooks/{webhook_id}": { description: "changed by tenant B" },
  "POST /v1/users/{id}/consents/{provider}/grant": { categories: ["heart"] },
  "POST /v1/users/{id}/consents/{provider}/revoke": { categories: ["heart"] },
  "PATCH /v1/admin/tenants/{tenant_id}/providers/{provider}": { enabled: false },
  "PUT /v1/admin/tenants/{tenant_id}/providers/{provider}/keys": { keys: { CLIENT_ID: "x", CLIENT_SECRET: "y" } },
  "PATCH /v1/admin/providers/{provider}": { enabled: false },
  "PUT /v1/admin/providers/{provider}/keys": { keys: { CLIENT_ID: "x", CLIENT_SECRET: "y" } },
};

interface Operation {
  method: string;
  template: string;
  requiredQuery: string[];
}

let svc: TestService;
let jobs: JobQueue;
let a: CreatedTenant;
let b: CreatedTenant;
let bUserToken: string;
let fill: Record<string, string>;
/** Where a route's names mean something else: the FHIR base names an Observation `{id}`, and its search names the patient. */
let fillOfRoute: Record<string, Record<string, string>>;
let queryOfRoute: Record<string, string>;
let operations: Operation[];

beforeAll(async () => {
  svc = await startTestService({ SVC_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY });
  jobs = await startTestQueue(svc);
  a = await svc.createTenant("tenant-a");
  b = await svc.createTenant("tenant-b");
  await createAdminKey(svc.db, "isolation"); // an admin exists: admin routes must still refuse tenant keys
  const bUser = await createUser(svc, b.api_key);
  bUserToken = await mintToken(svc, b.api_key, bUser, ["read", "upload", "connect"]);

  const user = await createUser(svc, a.api_key);
  await writeSamples(svc, user, "garmin", [{ type: "heart_rate", value: 61, unit: "count/min", start_date: at(0), source: "garmin", device: "Forerunner" }]);
  await writeSleep(svc, user, "oura", [
    { bedtime_start: at(-10 * 3_600_000), bedtime_end: at(-2 * 3_600_000), source: "oura", on_body: true, phases: [{ stage: "deep", start_date: at(-9 * 3_600_000), end_date: at(-8 * 3_600_000) }] },
  ]);
  await writeWorkoutRecords(svc, user, "garmin", [
    { activity_type: "running", start_date: at(0), end_date: at(3_600_000), source: "garmin", on_body: true, route: [{ timestamp: at(10_000), latitude: 52.5, longitude: 13.4 }] },
  ]);
  await writeEcg(svc, user, "apple_health", [
    { start_date: at(0), classification: "sinusRhythm", sampling_frequency_hz: 512, voltages: [1, 2, 3], source: "apple", device: "Apple Watch", on_body: true },
  ]);
  const selfReport = await svc.call(`/v1/users/${user}/self-reports`, { key: a.api_key, body: BODIES["POST /v1/users/{id}/self-reports"] });
  expect(selfReport.status, selfReport.text).toBe(202);
  const tag = await svc.call(`/v1/users/${user}/tags`, { key: a.api_key, body: { kind: "custom", label: "A's tag", start_at: "2026-03-01T00:00:00Z" } });
  expect(tag.status, tag.text).toBe(201);
  const share = await svc.call(`/v1/users/${user}/shares`, { key: a.api_key, body: BODIES["POST /v1/users/{id}/shares"] });
  expect(share.status, share.text).toBe(201);
  const order = await svc.call(`/v1/users/${user}/source-orders/heart_rate`, { key: a.api_key, method: "PUT", body: { sources: ["garmin"] } });
  expect(order.status, order.text).toBe(200);

  const connection = await svc.db.connection.create({
    data: {
      userId: user,
      provider: "oura",
      keySource: "instance",
      applicationId: "instance",
      sealedTokens: testSealer().seal(JSON.stringify({ access_token: "a-oura-token", refresh_token: "a-oura-refresh", token_type: "bearer" })),
      nextPullAt: new Date(Date.now() + 86_400_000),
    },
  });
  const run = await svc.db.syncRun.create({
    data: { connectionId: connection.id, userId: user, provider: "oura", trigger: "manual", status: "failed", error: "The provider answered 500.", windowStart: at(0), windowEnd: at(3_600_000) },
  });
  const endpoint = await insertEndpoint(svc, a.tenant_id, "https://hooks.example.com/a");
  await emit(svc, jobs, { tenantId: a.tenant_id, type: "webhook.test", data: { endpoint_id: endpoint.id } });
  const delivery = await svc.db.webhookDelivery.findFirstOrThrow({ where: { endpointId: endpoint.id } });
  // Processed before the snapshots: its ETL writes a sample and an event.
  const upload = await uploadNdjson(svc, await mintToken(svc, a.api_key, user, ["upload"]), "bluetooth", [heartRateLine(61, "2026-03-01T09:00:00Z")]);
  await processed(svc, upload);
  const leaving = await createUser(svc, a.api_key);
  const deletion = await svc.call(`/v1/users/${leaving}`, { method: "DELETE", key: a.api_key });
  expect(deletion.status, deletion.text).toBe(202);
  expect((await waitForDeletionJob(svc, a.api_key, deletion.body.job_id)).body.status).toBe("done");

  fill = {
    id: user,
    tenant_id: a.tenant_id,
    job_id: deletion.body.job_id,
    session_id: (await svc.db.sleepSession.findFirstOrThrow({ where: { userId: user } })).id.toString(),
    workout_id: (await svc.db.workout.findFirstOrThrow({ where: { userId: user } })).id.toString(),
    ecg_id: (await svc.db.ecgRecording.findFirstOrThrow({ where: { userId: user } })).id.toString(),
    tag_id: tag.body.tag_id,
    share_id: share.body.id,
    webhook_id: endpoint.id,
    delivery_id: delivery.id.toString(),
    run_id: run.id.toString(),
    provider: "oura",
    scope: "heart_rate",
    upload_id: upload.body.upload_id,
  };

  // A completed FHIR Bulk Data export of A's user, run by the service's worker.
  const kickOff = await svc.call(`/v1/fhir/Patient/${user}/$export?_type=Patient`, { key: a.api_key });
  expect(kickOff.status, kickOff.text).toBe(202);
  const exportId = kickOff.headers.get("content-location")!.split("/").pop()!;
  await waitUntil(async () => (await svc.call(`/v1/fhir/bulk-status/${exportId}`, { key: a.api_key })).status === 200, 60_000, "A's export");
  fill.export_id = exportId;
  fill.file_number = "1";

  const observations = await svc.call(`/v1/fhir/Observation?patient=Patient/${user}&_count=1`, { key: a.api_key });
  expect(observations.status, observations.text).toBe(200);
  fillOfRoute = { "/v1/fhir/Observation/{id}": { id: observations.body.entry[0].resource.id } };
  queryOfRoute = { "/v1/fhir/Observation": `patient=Patient/${user}` };

  const document = parse(await (await fetch(`${svc.url}/openapi.yaml`)).text());
  operations = [];
  for (const [template, item] of Object.entries<Record<string, any>>(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const parameters: any[] = [...(item.parameters ?? []), ...(operation.parameters ?? [])];
      const requiredQuery = parameters.filter((p) => p.in === "query" && p.required).map((p) => p.name as string);
      operations.push({ method: method.toUpperCase(), template, requiredQuery });
    }
  }
});
afterAll(async () => {
  await jobs?.stop();
  await svc?.stop();
});

const pathParameters = (template: string) => [...template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);

function urlOf(operation: Operation): string {
  const values = { ...fill, ...fillOfRoute[operation.template] };
  const path = operation.template.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(values[name]!));
  const query = [
    ...operation.requiredQuery.map((name) => `${name}=${encodeURIComponent(QUERY[name] ?? "")}`),
    ...(queryOfRoute[operation.template] ? [queryOfRoute[operation.template]!] : []),
  ].join("&");
  return query ? `${path}?${query}` : path;
}

/** Every row of tenant A that a call could change, as JSON (bigint as text). */
async function snapshotOfA(): Promise<string> {
  const tenantId = a.tenant_id;
  const user = { user: { tenantId } };
  const rows = await Promise.all([
    svc.db.user.findMany({ where: { tenantId }, orderBy: { id: "asc" } }),
    svc.db.userToken.count({ where: user }),
    svc.db.tenantApiKey.findMany({ where: { tenantId }, select: { id: true, revokedAt: true } }),
    svc.db.deletionJob.findMany({ where: { tenantId }, orderBy: { id: "asc" } }),
    svc.db.timeTag.findMany({ where: user, orderBy: { id: "asc" } }),
    svc.db.share.findMany({ where: user, orderBy: { id: "asc" }, omit: { file: true } }),
    svc.db.sourceOrder.findMany({ where: user }),
    svc.db.sourceConsent.findMany({ where: user }),
    svc.db.connection.findMany({ where: user, orderBy: { id: "asc" } }),
    svc.db.syncRun.findMany({ where: user, orderBy: { id: "asc" } }),
    // Delivery attempts to the unreachable endpoint go on in the background: their bookkeeping is left out.
    svc.db.webhookEndpoint.findMany({ where: { tenantId }, orderBy: { id: "asc" }, omit: { failingSince: true, updatedAt: true } }),
    svc.db.webhookDelivery.findMany({ where: { endpoint: { tenantId } }, orderBy: { id: "asc" }, select: { id: true, eventId: true, body: true, replayOf: true } }),
    svc.db.tenantProvider.findMany({ where: { tenantId } }),
    svc.db.tenantProviderKeys.findMany({ where: { tenantId } }),
    svc.db.quantitySample.count({ where: user }),
    svc.db.sleepSession.count({ where: user }),
    svc.db.workout.count({ where: user }),
    svc.db.ecgRecording.count({ where: user }),
    svc.db.outboxEvent.count({ where: { tenantId } }),
    svc.db.fhirExport.findMany({ where: { tenantId }, orderBy: { id: "asc" } }),
  ]);
  return JSON.stringify(rows, (_key, value) => (typeof value === "bigint" ? value.toString() : value));
}

describe("every route of /openapi.yaml with a path parameter", () => {
  it("can fill every path parameter and required query parameter (a new route needs an entry in fill or QUERY)", () => {
    const unknown = operations.flatMap((op) => [
      ...pathParameters(op.template).filter((name) => !(name in fill)).map((name) => `${op.method} ${op.template}: {${name}}`),
      ...op.requiredQuery.filter((name) => !(name in QUERY)).map((name) => `${op.method} ${op.template}: ?${name}`),
    ]);
    expect(unknown).toEqual([]);
    expect(operations.filter((op) => pathParameters(op.template).length > 0).length).toBeGreaterThan(60);
  });

  for (const [who, secret] of [
    ["tenant B's key", () => b.api_key],
    ["a user token of a user of B", () => bUserToken],
  ] as const) {
    it(`refuses ${who} with A's ids: 404 or 403, never a 2xx, nothing of A changed`, async () => {
      const before = await snapshotOfA();
      const leaks: string[] = [];
      for (const operation of operations.filter((op) => pathParameters(op.template).length > 0)) {
        const signature = `${operation.method} ${operation.template}`;
        const body = BODIES[signature] ?? (operation.method === "GET" || operation.method === "DELETE" ? undefined : {});
        const answer = await svc.call(urlOf(operation), { method: operation.method, key: secret(), body });
        if (![403, 404].includes(answer.status)) leaks.push(`${signature}: ${answer.status} ${answer.text.slice(0, 200)}`);
        else if (Object.values(fill).some((value) => value.length > 8 && answer.text.includes(value) && !urlOf(operation).includes(value))) {
          leaks.push(`${signature}: the refusal names an id of A: ${answer.text.slice(0, 200)}`);
        }
      }
      expect(leaks).toEqual([]);
      expect(await snapshotOfA()).toBe(before);
    });
  }

  it("answers A's own key with a 2xx on the same reads (the refusals above were about ownership)", async () => {
    const failures: string[] = [];
    for (const operation of operations.filter((op) => op.method === "GET" && pathParameters(op.template).length > 0 && !op.template.startsWith("/v1/admin/"))) {
      const answer = await svc.call(urlOf(operation), { key: a.api_key });
      if (answer.status >= 300) failures.push(`${operation.template}: ${answer.status} ${answer.text.slice(0, 200)}`);
    }
    expect(failures).toEqual([]);
  });
});

describe("admin routes without a path parameter", () => {
  it("refuse tenant B's key and a user token with 403", async () => {
    const admin = operations.filter((op) => op.template.startsWith("/v1/admin/") && pathParameters(op.template).length === 0);
    expect(admin.length).toBeGreaterThan(0);
    for (const operation of admin) {
      for (const secret of [b.api_key, bUserToken]) {
        const body = operation.method === "GET" ? undefined : { name: "from tenant B" };
        const answer = await svc.call(urlOf(operation), { method: operation.method, key: secret, body });
        expect(answer.status, `${operation.method} ${operation.template}: ${answer.text}`).toBe(403);
      }
    }
  });
});

describe("list routes", () => {
  it("never name A's objects to tenant B's key", async () => {
    // Patient/$export is a kick-off (202), not a list.
    const lists = operations.filter((op) => op.method === "GET" && pathParameters(op.template).length === 0 && !op.template.startsWith("/v1/admin/") && !op.template.endsWith("$export"));
    expect(lists.map((op) => op.template)).toEqual(expect.arrayContaining(["/v1/users", "/v1/webhooks", "/v1/pipeline"]));
    const ids = Object.entries(fill).filter(([name]) => !["provider", "scope"].includes(name) && fill[name]!.length > 8);
    for (const operation of lists) {
      const answer = await svc.call(urlOf(operation), { key: b.api_key });
      expect(answer.status, `${operation.template}: ${answer.text}`).toBe(200);
      // An id the request itself named may come back in the answer's own links (a FHIR Bundle's self).
      for (const [name, value] of ids) if (!urlOf(operation).includes(value)) expect(answer.text, `${operation.template} names A's ${name}`).not.toContain(value);
    }
  });
});
