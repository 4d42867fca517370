import { createAdminKey, writeEcgRecordings } from "@svc/core";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { ContractChecker } from "../helpers/contract.ts";
import { TEST_CATALOG } from "../helpers/keyed-connector.ts";
import { at, writeSleep, writeWorkoutRecords } from "../helpers/records.ts";
import { startTestService, type TestService } from "../helpers/test-service.ts";
import { heartRateLine } from "../helpers/uploads.ts";
import { changeWatcher } from "./route-fuzz/change-watcher.ts";
import { loadOperations, type Operation } from "./route-fuzz/operations.ts";
import { describeRequest, edgeRequestsFor, requestFor, type Fixtures, type FuzzRequest } from "./route-fuzz/requests.ts";

// Fuzzing of every operation of /openapi.yaml: random and boundary path, query, header and
// body values under every kind of credential, after fixed edge requests (each value too long,
// malformed escapes, no credential). No answer may be a 5xx or break the contract (a status
// /openapi.yaml does not declare for the route), every refusal is a problem+json, and a
// refused request changes nothing in the database.
// A failure prints fast-check's seed and the request; FUZZ_SEED=<seed> replays it, and
// FUZZ_SEED / FUZZ_RUNS explore further than the fixed seed and 16 runs of CI.
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_121);
const RUNS_PER_OPERATION = Number(process.env.FUZZ_RUNS ?? 16);
const PROPERTY_OPTIONS = { seed: SEED, numRuns: RUNS_PER_OPERATION, endOnFailure: true };

// The api role alone: no worker changes the database between two requests. Rate limits off:
// their counters (table rate_limits) count every call, refused ones too.
const svc = await startTestService({ SVC_ROLE: "api", SVC_RATE_LIMIT_WINDOW_SECONDS: "0" }, { providers: TEST_CATALOG });
afterAll(() => svc.stop());

const contract = await ContractChecker.load(`${svc.url}/openapi.yaml`);
/**
 * Uploads first, deletions and admin changes last: those switch providers off, erase a
 * provider's data or delete users, after which the earlier routes would answer only 403, 404 or 409.
 */
const stage = (o: Operation) => (o.path.startsWith("/v1/ingest/") ? 0 : o.method === "DELETE" || (o.path.startsWith("/v1/admin/") && o.method !== "GET") ? 2 : 1);
const operations = (await loadOperations(`${svc.url}/openapi.yaml`)).sort((a, b) => stage(a) - stage(b));
const fixtures = await prepareFixtures(svc);
const changesSinceLastCall = await changeWatcher(svc);

async function call(path: string, key: string, method = "GET", body?: unknown): Promise<any> {
  const answer = await fetch(`${svc.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await answer.text();
  if (answer.status >= 300) throw new Error(`fixture ${method} ${path} answered ${answer.status}: ${text}`);
  return text ? JSON.parse(text) : undefined;
}

/** Two tenants, users, tokens and one object of each kind a path names, so paths can name real ones. */
async function prepareFixtures(svc: TestService): Promise<Fixtures & { mainUser: string; spareTenant: string }> {
  const tenant = await svc.createTenant("fuzz");
  const other = await svc.createTenant("fuzz-other");
  // DELETE /v1/admin/tenants/{tenant_id} names only the spare one; another one's deletion is there to be read.
  const spare = await svc.createTenant("fuzz-spare");
  const deleted = await svc.createTenant("fuzz-deleted");
  const admin = (await createAdminKey(svc.db, "fuzz")).admin_key;
  const tenantDeletion = (await call(`/v1/admin/tenants/${deleted.tenant_id}`, admin, "DELETE")).job_id as string;
  const key = tenant.api_key;
  const user = (await call("/v1/users", key, "POST", {})).id as string;
  const secondUser = (await call("/v1/users", key, "POST", { external_ref: "fuzz-second" })).id as string;
  const otherUser = (await call("/v1/users", other.api_key, "POST", {})).id as string;
  const reader = (await call(`/v1/users/${user}/tokens`, key, "POST", { scopes: ["read"] })).token as string;
  const writer = (await call(`/v1/users/${user}/tokens`, key, "POST", { scopes: ["upload", "connect"] })).token as string;
  const tag = (await call(`/v1/users/${user}/tags`, key, "POST", { kind: "custom", label: "fuzz", start_at: "2026-03-01T08:00:00Z" })).tag_id as string;
  const webhook = (await call("/v1/webhooks", key, "POST", { url: "https://hooks.example.com/fuzz" })).id as string;
  await call(`/v1/webhooks/${webhook}/test`, key, "POST", {});
  const share = (
    await call(`/v1/users/${user}/shares`, key, "POST", {
      label: "fuzz",
      categories: ["vitals"],
      start: "2026-01-01T00:00:00Z",
      end: "2026-03-01T00:00:00Z",
      expires_at: new Date(Date.now() + 86_400_000).toISOString(),
    })
  ).id as string;
  await call(`/v1/users/${secondUser}/data/oura`, key, "DELETE");
  await writeSleep(svc, user, "oura", [{ bedtime_start: at("2026-03-01T22:00:00Z"), bedtime_end: at("2026-03-02T06:00:00Z"), source: "oura" }]);
  await writeWorkoutRecords(svc, user, "garmin", [{ activity_type: "running", start_date: at("2026-03-01T08:00:00Z"), end_date: at("2026-03-01T09:00:00Z") }]);
  await svc.db.$transaction((tx) => writeEcgRecordings(tx, { userId: user, provider: "apple_health" }, [{ start_date: at("2026-03-01T08:00:00Z"), sampling_frequency_hz: 512, voltages: [1, 2, 3] }]));
  const upload = await fetch(`${svc.url}/v1/ingest/bluetooth`, {
    method: "POST",
    headers: { authorization: `Bearer ${writer}`, "content-type": "application/x-ndjson" },
    body: heartRateLine(70, "2026-03-01T10:00:00Z"),
  });
  if (upload.status !== 202) throw new Error(`fixture upload answered ${upload.status}: ${await upload.text()}`);
  const uploadId = ((await upload.json()) as { upload_id: string }).upload_id;
  const providers = ((await call("/v1/admin/providers", admin)).data as Array<{ provider?: string; slug?: string; id?: string }>).map((p) => p.provider ?? p.slug ?? p.id ?? "");

  const ids = async (rows: Promise<Array<{ id: string | bigint }>>) => (await rows).map((row) => String(row.id));
  return {
    mainUser: user,
    spareTenant: spare.tenant_id,
    credentials: {
      tenant: `Bearer ${key}`,
      "other tenant": `Bearer ${other.api_key}`,
      admin: `Bearer ${admin}`,
      "user read token": `Bearer ${reader}`,
      "user upload+connect token": `Bearer ${writer}`,
      none: undefined,
      "unknown key": "Bearer svc_sk_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
      garbage: "Bearer \u00ff%00;,",
      "basic auth": "Basic dXNlcjpwYXNz",
    },
    known: {
      id: [user, user, secondUser, otherUser],
      tenant_id: [tenant.tenant_id, other.tenant_id],
      provider: providers.filter(Boolean),
      tag_id: [tag],
      webhook_id: [webhook],
      delivery_id: await ids(svc.db.webhookDelivery.findMany({ select: { id: true } })),
      share_id: [share],
      job_id: [...(await ids(svc.db.deletionJob.findMany({ select: { id: true } }))), tenantDeletion],
      session_id: await ids(svc.db.sleepSession.findMany({ select: { id: true } })),
      workout_id: await ids(svc.db.workout.findMany({ select: { id: true } })),
      ecg_id: await ids(svc.db.ecgRecording.findMany({ select: { id: true } })),
      run_id: await ids(svc.db.syncRun.findMany({ select: { id: true } })),
      upload_id: [uploadId],
    },
  };
}

/**
 * Deleting the main user (or a fixture tenant) would leave every later operation only 404s and
 * 401s: those routes name the others (the spare tenant) only.
 */
function fixturesFor(operation: { method: string; path: string }): Fixtures {
  if (operation.method === "DELETE" && operation.path === "/v1/admin/tenants/{tenant_id}") {
    return { ...fixtures, known: { ...fixtures.known, tenant_id: [fixtures.spareTenant] } };
  }
  if (operation.method !== "DELETE" || operation.path !== "/v1/users/{id}") return fixtures;
  return { ...fixtures, known: { ...fixtures.known, id: fixtures.known.id!.filter((id) => id !== fixtures.mainUser) } };
}

interface Answer {
  status: number;
  headers: Headers;
  body: unknown;
  text: string;
}

async function send(request: FuzzRequest): Promise<Answer> {
  const response = await fetch(`${svc.url}${request.url}`, { method: request.method, headers: request.headers, body: request.body });
  const text = await response.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  return { status: response.status, headers: response.headers, body, text };
}

const errorLines = (since: number) => svc.logs.slice(since).filter((line) => (JSON.parse(line) as { level: number }).level >= 50);

/** One request: no 5xx, a problem+json refusal, an answer /openapi.yaml documents, and nothing written when refused. */
async function exercise(operation: Operation, request: FuzzRequest): Promise<void> {
  const mark = svc.logs.length;
  const answer = await send(request);
  const what = `${describeRequest(request)} answered ${answer.status} ${answer.text.slice(0, 500)}`;
  expect(answer.status, what).toBeLessThan(500);
  expect(errorLines(mark), what).toEqual([]);
  if (answer.status >= 400) {
    expect(answer.headers.get("content-type"), what).toMatch(/^application\/problem\+json/);
    expect(answer.body, what).toMatchObject({ type: expect.any(String), title: expect.any(String), status: answer.status, detail: expect.any(String), request_id: answer.headers.get("x-request-id") });
  }
  try {
    contract.check(request.method, request.url, answer, operation.path);
  } catch (error) {
    throw new Error(`${String(error)}\n${what}`, { cause: error });
  }
  const written = await changesSinceLastCall();
  if (answer.status < 200 || answer.status >= 300) expect(written, `a refused request wrote: ${what}`).toEqual([]);
}

describe("every route of /openapi.yaml under fuzzed input: no 5xx, problem+json refusals, no writes when refused", () => {
  it("covers every operation, admin and upload routes included", () => {
    expect(operations.length).toBeGreaterThan(90);
    expect(operations.some((o) => o.path.startsWith("/v1/admin/"))).toBe(true);
    expect(operations.some((o) => o.path.startsWith("/v1/ingest/"))).toBe(true);
  });

  for (const operation of operations) {
    it(`${operation.method} ${operation.path}`, async () => {
      const routeFixtures = fixturesFor(operation);
      const examples = edgeRequestsFor(operation, routeFixtures, SEED).map((request): [FuzzRequest] => [request]);
      const property = fc.asyncProperty(requestFor(operation, routeFixtures), (request) => exercise(operation, request));
      await fc.assert(property, { ...PROPERTY_OPTIONS, examples });
    });
  }
});
