import { existsSync, rmSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fileRawStore, sweepFhirExports } from "@svc/core";
import { waitUntil } from "@svc/testing";
import type { TestService } from "../helpers/test-service.ts";
import { fhirProblems } from "../helpers/fhir-validator.ts";
import { download, kickOff, type Manifest, runExport, statusUrlOf } from "../helpers/bulk-data-client.ts";
import { at, createUser, mintToken, startWithTwoTenants, writeSamples } from "../helpers/records.ts";
import { withingsSample, writeEveryObservationKind } from "../helpers/fhir-records.ts";

// FHIR Bulk Data export (IG v2) of the base /v1/fhir, driven as an IG client drives it
// (helpers/bulk-data-client.ts: plain HTTP, by the IG's steps) while the service's own worker
// runs the fhir-export job. Every NDJSON line validates as FHIR R4.

let svc: TestService;
let key: string;
let otherKey: string;
let alice: string;
let bob: string;
let quiet: string;

type Resource = Record<string, any>;

const base = () => `${svc.url}/v1/fhir`;
const MANIFEST_FIELDS = ["transactionTime", "request", "requiresAccessToken", "output", "error"];



/** The checks every complete export passes: the manifest's fields, its files' types and counts, every line valid FHIR R4. */
function checkExport(result: Awaited<ReturnType<typeof runExport>>, kickOffUrl: string): { patients: Resource[]; observations: Resource[] } {
  const { manifest, files, complete } = result;
  expect(Object.keys(manifest).sort()).toEqual([...MANIFEST_FIELDS].sort());
  expect(manifest.requiresAccessToken).toBe(true);
  expect(manifest.request).toBe(kickOffUrl);
  expect(manifest.transactionTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
  expect(manifest.error).toEqual([]);
  expect(new Date(complete.headers.get("expires") ?? "").getTime()).toBeGreaterThan(Date.now());
  // Patient files first, then Observation files.
  const types = files.map((file) => file.type);
  expect(types).toEqual([...types].sort((a, b) => (a === b ? 0 : a === "Patient" ? -1 : 1)));
  for (const item of manifest.output) expect(item.url.startsWith(`${base()}/bulk-files/`)).toBe(true);
  const ids = new Set<string>();
  for (const file of files) {
    expect(file.count).toBe(file.resources.length);
    for (const resource of file.resources) {
      expect(resource.resourceType).toBe(file.type);
      expect(fhirProblems(resource), JSON.stringify(resource).slice(0, 300)).toEqual([]);
      const id = `${resource.resourceType}/${resource.id}`;
      expect(ids.has(id), `${id} twice`).toBe(false);
      ids.add(id);
    }
  }
  const all = files.flatMap((file) => file.resources);
  return { patients: all.filter((r) => r.resourceType === "Patient"), observations: all.filter((r) => r.resourceType === "Observation") };
}

/** The export's id from its status URL. */
const exportIdOf = (statusUrl: string) => statusUrl.split("/").pop()!;

/** The raw store's files of an export, as recorded. */
async function storedFiles(exportId: string): Promise<string[]> {
  const rows = await svc.db.$queryRaw<Array<{ storage_key: string }>>`SELECT storage_key FROM fhir_export_files WHERE export_id = ${exportId}::uuid`;
  return rows.map((row) => path.join(svc.dataDir, "raw", row.storage_key));
}

const exportRows = async (exportId: string) => (await svc.db.$queryRaw<Array<{ id: string }>>`SELECT id FROM fhir_exports WHERE id = ${exportId}::uuid`).length;

/** A request with the given key asking for FHIR JSON, as an IG client's. */
const fhirGet = (url: string, secret: string, method = "GET") => fetch(url, { method, headers: { accept: "application/fhir+json", authorization: `Bearer ${secret}` } });

async function expectOutcome(response: Response, status: number, code?: string): Promise<void> {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  expect(response.headers.get("content-type")).toMatch(/^application\/fhir\+json/);
  const outcome = JSON.parse(text);
  expect(outcome.resourceType).toBe("OperationOutcome");
  expect(fhirProblems(outcome)).toEqual([]);
  if (code) expect(outcome.issue[0].code).toBe(code);
}

/** Cancels an accepted export so that it leaves the tenant's limit of exports in flight. */
async function cancel(statusUrl: string, secret: string): Promise<void> {
  const response = await fhirGet(statusUrl, secret, "DELETE");
  expect(response.status, await response.text()).toBe(202);
}

let allPatients: { manifest: Manifest; statusUrl: string; observations: Resource[] };

beforeAll(async () => {
  ({ svc, key, otherKey } = await startWithTwoTenants());
  alice = await createUser(svc, key);
  bob = await createUser(svc, key);
  quiet = await createUser(svc, key);
  await writeEveryObservationKind(svc, alice);
  await writeSamples(svc, bob, "withings", [withingsSample("body_mass", 80, "2026-03-01T08:00:00Z")]);
  await createUser(svc, otherKey);
});
afterAll(() => svc?.stop());

describe("an IG client's export of every Patient", () => {
  it("kicks off, polls while 202, reads the manifest and downloads every file with the same token", async () => {
    const url = `${base()}/Patient/$export`;
    const result = await runExport(url, key);
    const { patients, observations } = checkExport(result, url);
    expect(patients.map((p) => p.id).sort()).toEqual([alice, bob, quiet].sort());
    expect(new Set(observations.map((o) => o.subject.reference))).toEqual(new Set([`Patient/${alice}`, `Patient/${bob}`]));
    // Every kind of record the base serves.
    const kinds = new Set(observations.filter((o) => o.subject.reference === `Patient/${alice}`).map((o) => String(o.id).split("-")[0]));
    for (const kind of ["qs", "bp", "sleep", "workout", "daily", "ecg", "nutrition"]) expect(kinds, kind).toContain(kind);
    // The same Observations as the base's search of each patient.
    for (const patient of [alice, bob]) {
      const search = await fetch(`${base()}/Observation?patient=${patient}&_count=1000`, { headers: { authorization: `Bearer ${key}` } });
      const searched = ((await search.json()) as { entry?: Array<{ resource: Resource }> }).entry?.map((e) => e.resource.id) ?? [];
      const exported = observations.filter((o) => o.subject.reference === `Patient/${patient}`).map((o) => o.id);
      expect(exported.sort()).toEqual(searched.sort());
    }
    allPatients = { manifest: result.manifest, statusUrl: result.statusUrl, observations };
  });

  it("answers the status URL again with the same manifest, and takes $ sent as %24", async () => {
    const again = await fetch(allPatients.statusUrl, { headers: { accept: "application/json", authorization: `Bearer ${key}` } });
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual(allPatients.manifest);
    const encoded = await kickOff(`${base()}/Patient/%24export?_type=Patient`, key);
    await cancel(await statusUrlOf(encoded), key);
  });
});

describe("one Patient's export", () => {
  it("a user token exports its own Patient and Observations only", async () => {
    const token = await mintToken(svc, key, alice, ["read"]);
    const url = `${base()}/Patient/${alice}/$export?_type=Patient,Observation`;
    const { patients, observations } = checkExport(await runExport(url, token), url);
    expect(patients.map((p) => p.id)).toEqual([alice]);
    expect(observations.length).toBeGreaterThan(0);
    expect(observations.every((o) => o.subject.reference === `Patient/${alice}`)).toBe(true);
  });

  it("a user token may not export every Patient, another user, or follow exports not of its user", async () => {
    const token = await mintToken(svc, key, alice, ["read"]);
    await expectOutcome(await kickOff(`${base()}/Patient/$export`, token), 403, "forbidden");
    await expectOutcome(await kickOff(`${base()}/Patient/${bob}/$export`, token), 404, "not-found");
    await expectOutcome(await fhirGet(allPatients.statusUrl, token), 404, "not-found");
    await expectOutcome(await fhirGet(allPatients.manifest.output[0]!.url, token), 404, "not-found");
    await expectOutcome(await fhirGet(allPatients.statusUrl, token, "DELETE"), 404, "not-found");
    const uploadOnly = await mintToken(svc, key, alice, ["upload"]);
    await expectOutcome(await kickOff(`${base()}/Patient/${alice}/$export`, uploadOnly), 403, "forbidden");
    await expectOutcome(await kickOff(`${base()}/Patient/not-a-user/$export`, key), 404, "not-found");
  });
});

describe("tenant isolation and credentials", () => {
  it("another tenant's key finds neither the status URL nor the files; no key is a 401", async () => {
    await expectOutcome(await fhirGet(allPatients.statusUrl, otherKey), 404, "not-found");
    await expectOutcome(await fhirGet(allPatients.statusUrl, otherKey, "DELETE"), 404, "not-found");
    for (const item of allPatients.manifest.output) await expectOutcome(await fhirGet(item.url, otherKey), 404, "not-found");
    const anonymous = await fetch(allPatients.manifest.output[0]!.url, { headers: { accept: "application/fhir+ndjson" } });
    expect(anonymous.status).toBe(401);
    const noStatus = await fetch(allPatients.statusUrl);
    expect(noStatus.status).toBe(401);
    await expectOutcome(await kickOff(`${base()}/Patient/${alice}/$export`, otherKey), 404, "not-found");
    await expectOutcome(await fhirGet(`${base()}/bulk-status/not-an-id`, key), 404, "not-found");
    await expectOutcome(await fhirGet(`${base()}/bulk-files/${exportIdOf(allPatients.statusUrl)}/999`, key), 404, "not-found");
    await expectOutcome(await fhirGet(`${base()}/bulk-files/${exportIdOf(allPatients.statusUrl)}/x1`, key), 404, "not-found");
  });
});

describe("kick-off parameters", () => {
  it("_type narrows the files to its types; _outputFormat takes the IG's three NDJSON spellings", async () => {
    const url = `${base()}/Patient/$export?_type=Observation&_outputFormat=application%2Ffhir%2Bndjson`;
    const { manifest } = await runExport(url, key);
    expect(manifest.output.length).toBeGreaterThan(0);
    expect(manifest.output.every((item) => item.type === "Observation")).toBe(true);
    for (const format of ["application/ndjson", "ndjson"]) {
      await cancel(await statusUrlOf(await kickOff(`${base()}/Patient/$export?_type=Patient&_outputFormat=${encodeURIComponent(format)}`, key)), key);
    }
  });

  it("refuses other types, formats, a _since that is no instant and the IG's parameters svc does not support, keeping nothing", async () => {
    const before = await svc.db.$queryRaw<Array<{ count: bigint }>>`SELECT count(*) AS count FROM fhir_exports`;
    for (const query of [
      "_type=Condition",
      "_type=Patient,Encounter",
      "_outputFormat=text%2Fcsv",
      "_outputFormat=ndjson&_outputFormat=ndjson",
      "_since=yesterday",
      "_since=2026-01-01",
      "_since=2026-01-01T00:00:00",
      "_elements=id",
      "_typeFilter=Observation%3Fcode%3Dx",
      "includeAssociatedData=LatestProvenanceResources",
    ]) {
      await expectOutcome(await kickOff(`${base()}/Patient/$export?${query}`, key), 400, "invalid");
    }
    await expectOutcome(await kickOff(`${base()}/Patient/$export?unknown=1`, key, { prefer: "respond-async, handling=strict" }), 400, "invalid");
    await expectOutcome(await kickOff(`${base()}/Patient/$export?_format=xml`, key), 406);
    const after = await svc.db.$queryRaw<Array<{ count: bigint }>>`SELECT count(*) AS count FROM fhir_exports`;
    expect(after[0]!.count).toBe(before[0]!.count);
  });

  it("tolerates a kick-off without Prefer: respond-async", async () => {
    const response = await fetch(`${base()}/Patient/$export?_type=Patient`, { headers: { accept: "application/fhir+json", authorization: `Bearer ${key}` } });
    await cancel(await statusUrlOf(response), key);
  });

  it("_since keeps only resources stored after it", async () => {
    const since = allPatients.manifest.transactionTime;
    await waitUntil(async () => Date.now() > new Date(since).getTime() + 5, 1000, "the clock past the first export");
    await writeSamples(svc, alice, "withings", [withingsSample("body_mass", 71.9, "2026-03-05T07:10:00Z")]);
    const url = `${base()}/Patient/$export?_type=Observation&_since=${encodeURIComponent(since)}`;
    const { observations } = checkExport(await runExport(url, key), url);
    expect(observations.length).toBeGreaterThan(0);
    for (const observation of observations) expect(new Date(observation.meta.lastUpdated).getTime()).toBeGreaterThan(new Date(since).getTime());
    expect(observations.length).toBeLessThan(allPatients.observations.length);
    // An unencoded + of a zone arrives as a space and is read as +.
    const future = await runExport(`${base()}/Patient/$export?_type=Observation&_since=2100-01-01T00:00:00+02:00`, key);
    expect(future.manifest.output).toEqual([]);
  });
});

describe("limits", () => {
  it("a tenant's 4th export in flight is a 429 with Retry-After", async () => {
    const tenant = await svc.createTenant("busy");
    const user = await createUser(svc, tenant.api_key);
    const running = [];
    for (let i = 0; i < 3; i++) {
      const rows = await svc.db.$queryRaw<Array<{ id: string }>>`
        INSERT INTO fhir_exports (tenant_id, user_id, resource_types, transaction_time, request_url, state)
        VALUES (${tenant.tenant_id}::uuid, ${user}::uuid, ARRAY['Patient'], now(), 'x', 'running') RETURNING id`;
      running.push(rows[0]!.id);
    }
    const refused = await kickOff(`${base()}/Patient/$export`, tenant.api_key);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    await expectOutcome(refused, 429, "throttled");
    // Another tenant is not held back by it.
    await cancel(await statusUrlOf(await kickOff(`${base()}/Patient/$export?_type=Patient`, key)), key);
    await svc.db.$executeRaw`UPDATE fhir_exports SET state = 'cancelled' WHERE id = ANY(${running}::uuid[])`;
    await cancel(await statusUrlOf(await kickOff(`${base()}/Patient/$export`, tenant.api_key)), tenant.api_key);
  });
});

describe("cancel, failure and expiry", () => {
  it("DELETE of a completed export deletes its files; the status URL and the files then answer 404", async () => {
    const { statusUrl, manifest } = await runExport(`${base()}/Patient/$export`, key);
    const files = await storedFiles(exportIdOf(statusUrl));
    expect(files.length).toBe(manifest.output.length);
    for (const file of files) expect(existsSync(file), file).toBe(true);
    const cancelled = await fhirGet(statusUrl, key, "DELETE");
    expect(cancelled.status).toBe(202);
    expect(((await cancelled.json()) as Resource).resourceType).toBe("OperationOutcome");
    for (const file of files) expect(existsSync(file), file).toBe(false);
    await expectOutcome(await fhirGet(statusUrl, key), 404, "not-found");
    for (const item of manifest.output) await expectOutcome(await fhirGet(item.url, key), 404, "not-found");
    await expectOutcome(await fhirGet(statusUrl, key, "DELETE"), 404, "not-found");
  });

  it("DELETE of an export in flight cancels it: it ends without files", async () => {
    const statusUrl = await statusUrlOf(await kickOff(`${base()}/Patient/$export`, key));
    await cancel(statusUrl, key);
    await expectOutcome(await fhirGet(statusUrl, key), 404, "not-found");
    const exportId = exportIdOf(statusUrl);
    // A run that was under way stops at its next file and keeps none.
    await waitUntil(async () => (await svc.db.$queryRaw<Array<{ n: bigint }>>`SELECT count(*) AS n FROM pgboss.job WHERE name = 'fhir-export' AND data->>'fhir_export_id' = ${exportId} AND state IN ('created', 'retry', 'active')`)[0]!.n === 0n, 60_000, "the job to end");
    expect(await storedFiles(exportId)).toEqual([]);
    // The sweep deletes a cancelled export's row.
    await sweepFhirExports({ db: svc.db, rawStore: fileRawStore(path.join(svc.dataDir, "raw")) });
    expect(await exportRows(exportId)).toBe(0);
  });

  it("an export in progress answers 202 with X-Progress and Retry-After", async () => {
    const rows = await svc.db.$queryRaw<Array<{ id: string }>>`
      INSERT INTO fhir_exports (tenant_id, user_id, resource_types, transaction_time, request_url)
      SELECT tenant_id, id, ARRAY['Patient'], now(), 'x' FROM users WHERE id = ${bob}::uuid RETURNING id`;
    const statusUrl = `${base()}/bulk-status/${rows[0]!.id}`;
    const queued = await fetch(statusUrl, { headers: { accept: "application/json", authorization: `Bearer ${key}` } });
    expect(queued.status).toBe(202);
    expect(queued.headers.get("x-progress")).toBe("queued");
    expect(queued.headers.get("retry-after")).toBe("2");
    await svc.db.$executeRaw`UPDATE fhir_exports SET state = 'running', resources_written = 1234 WHERE id = ${rows[0]!.id}::uuid`;
    const running = await svc.call(`/v1/fhir/bulk-status/${rows[0]!.id}`, { key, headers: { accept: "application/json" } });
    expect(running.status).toBe(202);
    expect(running.headers.get("x-progress")).toBe("1234 resources written");
    expect(running.body.resourceType).toBe("OperationOutcome");
    await cancel(statusUrl, key);
  });

  it("a failed export answers the IG's error status: 500 with an OperationOutcome, to FHIR and JSON clients", async () => {
    const rows = await svc.db.$queryRaw<Array<{ id: string }>>`
      INSERT INTO fhir_exports (tenant_id, resource_types, transaction_time, request_url, state, error_code, finished_at, expires_at)
      SELECT tenant_id, ARRAY['Patient'], now(), 'x', 'failed', 'raw_store_unavailable', now(), now() + interval '1 hour'
      FROM users WHERE id = ${alice}::uuid RETURNING id`;
    const statusUrl = `${base()}/bulk-status/${rows[0]!.id}`;
    await expectOutcome(await fhirGet(statusUrl, key), 500, "exception");
    const asJson = await svc.call(`/v1/fhir/bulk-status/${rows[0]!.id}`, { key, headers: { accept: "application/json" } });
    expect(asJson.status).toBe(500);
    expect(asJson.body.resourceType).toBe("OperationOutcome");
    expect(asJson.body.detail).toContain("raw_store_unavailable");
    await cancel(statusUrl, key);
  });

  it("an expired export answers 404 at once, and the sweep deletes its files and row", async () => {
    const { statusUrl, manifest } = await runExport(`${base()}/Patient/$export?_type=Patient`, key);
    const exportId = exportIdOf(statusUrl);
    const files = await storedFiles(exportId);
    // A file the sweep deleted a moment before its row is a 404 too, not a failure.
    rmSync(files[0]!);
    await expectOutcome(await fhirGet(manifest.output[0]!.url, key), 404, "not-found");
    await svc.db.$executeRaw`UPDATE fhir_exports SET expires_at = now() - interval '1 second' WHERE id = ${exportId}::uuid`;
    await expectOutcome(await fhirGet(statusUrl, key), 404, "not-found");
    await expectOutcome(await fhirGet(manifest.output[0]!.url, key), 404, "not-found");
    await sweepFhirExports({ db: svc.db, rawStore: fileRawStore(path.join(svc.dataDir, "raw")) });
    expect(await exportRows(exportId)).toBe(0);
    for (const file of files) expect(existsSync(file), file).toBe(false);
    // The etl role runs the sweep every 15 minutes.
    const scheduled = await svc.db.$queryRaw<Array<{ name: string; cron: string }>>`SELECT name, cron FROM pgboss.schedule`;
    expect(scheduled).toContainEqual({ name: "fhir-export-sweep", cron: "7,22,37,52 * * * *" });
  });
});

describe("erasure", () => {
  it("deleting a user deletes its exports and the all-patients exports that hold it; others stay", async () => {
    const tenant = await svc.createTenant("erasure");
    const dave = await createUser(svc, tenant.api_key);
    const erin = await createUser(svc, tenant.api_key);
    await writeSamples(svc, dave, "withings", [withingsSample("body_mass", 90, "2026-03-01T08:00:00Z")]);
    await writeSamples(svc, erin, "withings", [withingsSample("body_mass", 60, "2026-03-01T08:00:00Z")]);
    const everyone = await runExport(`${base()}/Patient/$export`, tenant.api_key);
    const daves = await runExport(`${base()}/Patient/${dave}/$export`, tenant.api_key);
    const erins = await runExport(`${base()}/Patient/${erin}/$export`, tenant.api_key);
    const everyoneFiles = await storedFiles(exportIdOf(everyone.statusUrl));
    const daveFiles = await storedFiles(exportIdOf(daves.statusUrl));
    expect(everyoneFiles.length).toBeGreaterThan(0);

    const deletion = await svc.call(`/v1/users/${dave}`, { method: "DELETE", key: tenant.api_key });
    expect(deletion.status).toBe(202);
    await waitUntil(async () => (await svc.call(`/v1/deletions/${deletion.body.job_id}`, { key: tenant.api_key })).body.status === "done", 60_000, "the user deletion");

    for (const file of [...everyoneFiles, ...daveFiles]) expect(existsSync(file), file).toBe(false);
    await expectOutcome(await fhirGet(everyone.statusUrl, tenant.api_key), 404, "not-found");
    expect(await exportRows(exportIdOf(daves.statusUrl))).toBe(0);
    const stays = await fetch(erins.statusUrl, { headers: { accept: "application/json", authorization: `Bearer ${tenant.api_key}` } });
    expect(stays.status).toBe(200);
    expect((await download(erins.manifest.output[0]!.url, tenant.api_key)).length).toBeGreaterThan(0);
  });
});

describe("CapabilityStatement", () => {
  it("lists Patient's $export and instantiates the Bulk Data capabilities", async () => {
    const statement = (await (await fetch(`${base()}/metadata`)).json()) as Resource;
    expect(statement.instantiates).toEqual(["http://hl7.org/fhir/uv/bulkdata/CapabilityStatement/bulk-data"]);
    const patient = statement.rest[0].resource.find((r: Resource) => r.type === "Patient");
    expect(patient.operation).toEqual([expect.objectContaining({ name: "export", definition: "http://hl7.org/fhir/uv/bulkdata/OperationDefinition/patient-export" })]);
    expect(fhirProblems(statement)).toEqual([]);
  });
});
