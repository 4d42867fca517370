import { CapabilityTool, Client, RESPONSE_KEY } from "fhir-kit-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import type { TestService } from "../helpers/test-service.ts";
import { fhirProblems } from "../helpers/fhir-validator.ts";
import { at, createUser, mintToken, startWithTwoTenants, writeDaily, writeEcg, writeNutrition, writeSamples, writeSleep, writeWorkoutRecords } from "../helpers/records.ts";
import { withingsSample } from "../helpers/fhir-records.ts";

// The FHIR base /v1/fhir as a FHIR client library drives it: fhir-kit-client reads the
// CapabilityStatement, reads and searches Patients and Observations and pages through next
// links with no svc-specific code. Every resource it gets validates as FHIR R4.

let svc: TestService;
let key: string;
let otherKey: string;
let tenantId: string;
let alice: string;
let bob: string;
let carol: string;

type Resource = Record<string, any> & { resourceType: string; id?: string };
type Bundle = Resource & { link: Array<{ relation: string; url: string }>; entry?: Array<{ fullUrl: string; resource: Resource; search: { mode: string } }> };


async function createUserWithRef(apiKey: string, externalRef?: string): Promise<string> {
  const answer = await svc.call("/v1/users", { key: apiKey, body: externalRef ? { external_ref: externalRef } : {} });
  expect(answer.status).toBe(201);
  return answer.body.id as string;
}

beforeAll(async () => {
  ({ svc, key, otherKey } = await startWithTwoTenants());
  tenantId = (await svc.db.tenantApiKey.findFirstOrThrow({ select: { tenantId: true } })).tenantId;
  alice = await createUserWithRef(key, "alice-7");
  bob = await createUserWithRef(key, "bob-8");
  carol = await createUserWithRef(otherKey, "alice-7");
  await createUser(svc, key);
  await writeSamples(svc, alice, "withings", [
    withingsSample("heart_rate", 61, "2026-03-01T07:00:00Z", { device: "ScanWatch", on_body: true }),
    withingsSample("blood_pressure_systolic", 121, "2026-03-01T07:05:00Z"),
    withingsSample("blood_pressure_diastolic", 79, "2026-03-01T07:05:00Z"),
    withingsSample("body_mass", 72.4, "2026-03-01T07:10:00Z"),
    withingsSample("blood_glucose", 92, "2026-03-01T07:14:00Z"),
    withingsSample("step_count", 420, "2026-03-01T09:00:00Z", { end_date: at("2026-03-01T09:10:00Z") }),
    ...Array.from({ length: 30 }, (_, i) => withingsSample("heart_rate", 60 + i, `2026-03-02T${String(i % 24).padStart(2, "0")}:30:00Z`, { device: "ScanWatch", on_body: true })),
  ]);
  await writeSleep(svc, alice, "oura", [
    { bedtime_start: at("2026-02-28T22:00:00Z"), bedtime_end: at("2026-03-01T06:00:00Z"), total_sleep_seconds: 25_200, source: "oura", device: "Oura Ring 4", on_body: true },
  ]);
  await writeWorkoutRecords(svc, alice, "garmin", [
    { activity_type: "running", start_date: at("2026-03-01T07:00:00Z"), end_date: at("2026-03-01T07:45:00Z"), distance_meters: 8000, source: "garmin" },
  ]);
  await writeDaily(svc, alice, "garmin", [{ date: "2026-03-01", steps: 11_000, resting_heart_rate: 52, source: "garmin" }]);
  await writeEcg(svc, alice, "apple_health", [
    { start_date: at("2026-03-01T12:00:00Z"), classification: "sinusRhythm", sampling_frequency_hz: 512, voltages: [12.5, -3, 40.25, 7], source: "apple", device: "Apple Watch" },
  ]);
  await writeNutrition(svc, alice, "cronometer", [{ start_date: at("2026-03-01T12:30:00Z"), meal_type: "lunch", name: "Pasta", energy_kcal: 640, source: "cronometer" }]);
  await writeSamples(svc, bob, "withings", [withingsSample("body_mass", 80, "2026-03-01T08:00:00Z")]);
});
afterAll(() => svc?.stop());

const baseUrl = () => `${svc.url}/v1/fhir`;
const client = (secret?: string) => new Client({ baseUrl: baseUrl(), ...(secret && { bearerToken: secret }) });

/** Every resource of a search, following next links with the library's own paging. */
async function everyPage(fhir: Client, first: Bundle): Promise<{ resources: Resource[]; pages: Bundle[] }> {
  const pages = [first];
  for (let next = (await fhir.nextPage({ bundle: first as never })) as Bundle | undefined; next; next = (await fhir.nextPage({ bundle: next as never })) as Bundle | undefined) {
    pages.push(next);
    if (pages.length > 500) throw new Error("too many pages");
  }
  return { resources: pages.flatMap((page) => page.entry?.map((e) => e.resource) ?? []), pages };
}

/** The error a library call ends with: status, body, headers. */
async function failure(call: Promise<unknown>): Promise<{ status: number; body: Resource; contentType: string | null; headers: Headers }> {
  try {
    await call;
  } catch (error) {
    const { response, config } = error as { response: { status: number; data: Resource }; config: { headers: Headers } };
    return { status: response.status, body: response.data, contentType: config.headers.get("content-type"), headers: config.headers };
  }
  throw new Error("the call succeeded");
}

const contentTypeOf = (resource: object) => (resource as { [RESPONSE_KEY]: Response })[RESPONSE_KEY].headers.get("content-type");
const valid = (resource: object) => expect({ id: (resource as Resource).id, problems: fhirProblems(resource) }).toEqual({ id: (resource as Resource).id, problems: [] });

/** Every Observation the spec's route lists for a user (query in its own parameters). */
async function specObservations(user: string, query = ""): Promise<string[]> {
  const ids: string[] = [];
  let url: string | undefined = `/v1/users/${user}/fhir/Observation?limit=1000${query ? `&${query}` : ""}`;
  while (url) {
    const answer = await svc.call(url, { key });
    expect(answer.status, answer.text).toBe(200);
    ids.push(...(answer.body.entry ?? []).map((e: { resource: Resource }) => e.resource.id));
    const next = answer.body.link.find((l: { relation: string }) => l.relation === "next")?.url as string | undefined;
    url = next?.slice(new URL(next).origin.length);
  }
  return ids;
}

describe("GET /v1/fhir/metadata", () => {
  it("tells a client without credentials what the base supports, as a valid R4 CapabilityStatement", async () => {
    const statement = (await client().capabilityStatement()) as Resource;
    expect(contentTypeOf(statement)).toContain("application/fhir+json");
    valid(statement);
    expect(statement).toMatchObject({ resourceType: "CapabilityStatement", fhirVersion: "4.0.1", kind: "instance", implementation: { url: baseUrl() } });
    const tool = new CapabilityTool(statement as never);
    for (const resourceType of ["Patient", "Observation"]) {
      for (const code of ["read", "search-type"]) expect(tool.supportFor({ resourceType, capabilityType: "interaction", where: { code } })).toBe(true);
      for (const code of ["create", "update", "delete", "history-instance"]) expect(tool.supportFor({ resourceType, capabilityType: "interaction", where: { code } })).toBe(false);
    }
    for (const name of ["patient", "subject", "code", "category", "date", "_lastUpdated", "view"]) expect(tool.resourceSearch("Observation", name)).toBe(true);
    for (const name of ["_id", "identifier"]) expect(tool.resourceSearch("Patient", name)).toBe(true);
    expect(statement.rest[0].compartment).toEqual(["http://hl7.org/fhir/CompartmentDefinition/patient"]);
    for (const name of ["value-quantity", "_text", "_has"]) expect(tool.resourceSearch("Observation", name)).toBe(false);
    // Nothing claimed that is not served: no system-level operation (Patient's $export: fhir-export.test.ts).
    expect(statement.rest[0].operation).toBeUndefined();
  });
});

describe("Patient", () => {
  const system = () => `${svc.url}/fhir/CodeSystem/external-ref/${tenantId}`;

  it("reads a user as a Patient: id = the user id, identifier = external_ref under the tenant's system", async () => {
    const patient = (await client(key).read({ resourceType: "Patient", id: alice })) as Resource;
    expect(contentTypeOf(patient)).toContain("application/fhir+json");
    valid(patient);
    expect({ ...patient }).toEqual({ resourceType: "Patient", id: alice, identifier: [{ system: system(), value: "alice-7" }], active: true });
  });

  it("searches by identifier (with or without its system) and _id, and lists every user of the tenant page by page", async () => {
    const fhir = client(key);
    const ids = async (searchParams: Record<string, string | string[]>) => {
      const bundle = (await fhir.search({ resourceType: "Patient", searchParams })) as Bundle;
      valid(bundle);
      return (await everyPage(fhir, bundle)).resources.map((p) => p.id);
    };
    expect(await ids({ identifier: `${system()}|alice-7` })).toEqual([alice]);
    expect(await ids({ identifier: "alice-7" })).toEqual([alice]);
    expect(await ids({ identifier: "alice-7,bob-8" })).toEqual([alice, bob]);
    expect(await ids({ identifier: "https://elsewhere.example/ids|alice-7" })).toEqual([]);
    expect(await ids({ _id: `${bob},${carol}` })).toEqual([bob]);
    expect(await ids({ _id: alice, identifier: "bob-8" })).toEqual([]);
    const first = (await fhir.search({ resourceType: "Patient", searchParams: { _count: 1 } })) as Bundle;
    const { resources, pages } = await everyPage(fhir, first);
    expect(pages.length).toBe(3);
    expect(resources.map((p) => p.id).slice(0, 2)).toEqual([alice, bob]);
    expect(resources).toHaveLength(3);
    for (const page of pages) valid(page);
    expect(resources.map((p) => p.id)).not.toContain(carol);
  });

  it("keeps tenants and users apart: another tenant's Patient is a 404, a user token reads its own Patient only", async () => {
    const other = await failure(client(otherKey).read({ resourceType: "Patient", id: alice }));
    expect(other.status).toBe(404);
    expect(other.body).toEqual({ resourceType: "OperationOutcome", issue: [{ severity: "error", code: "not-found", diagnostics: "No such Patient." }] });
    valid(other.body);
    const token = await mintToken(svc, key, alice, ["read"]);
    expect(((await client(token).read({ resourceType: "Patient", id: alice })) as Resource).id).toBe(alice);
    expect((await failure(client(token).read({ resourceType: "Patient", id: bob }))).status).toBe(404);
    const own = (await client(token).search({ resourceType: "Patient", searchParams: {} })) as Bundle;
    expect(own.entry?.map((e) => e.resource.id)).toEqual([alice]);
    const upload = await mintToken(svc, key, alice, ["upload"]);
    expect((await failure(client(upload).read({ resourceType: "Patient", id: alice }))).status).toBe(403);
    const none = await failure(client().read({ resourceType: "Patient", id: alice }));
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toBe("Bearer");
    expect(none.body.issue[0].code).toBe("login");
  });
});

describe("Observation", () => {
  let every: Resource[];

  beforeAll(async () => {
    const fhir = client(key);
    const first = (await fhir.search({ resourceType: "Observation", searchParams: { patient: `Patient/${alice}`, _count: 7 } })) as Bundle;
    every = (await everyPage(fhir, first)).resources;
  });

  it("searches a patient's Observations page by page: the spec route's Observations, in its order, each valid", async () => {
    expect(every.map((o) => o.id)).toEqual(await specObservations(alice));
    expect(new Set(every.map((o) => o.id!.split("-")[0]))).toEqual(new Set(["qs", "bp", "sleep", "workout", "daily", "ecg", "nutrition"]));
    for (const observation of every) {
      valid(observation);
      expect(observation.subject).toEqual({ reference: `Patient/${alice}` });
      expect(observation.meta.lastUpdated).toBe(observation.issued);
    }
  });

  it("reads each Observation by the id (and fullUrl) the search answers", async () => {
    const fhir = client(key);
    const bundle = (await fhir.search({ resourceType: "Observation", searchParams: { patient: alice, _count: 1000 } })) as Bundle;
    for (const entry of bundle.entry!) {
      expect(entry.fullUrl).toBe(`${baseUrl()}/Observation/${entry.resource.id}`);
      const read = (await fhir.read({ resourceType: "Observation", id: entry.resource.id! })) as Resource;
      expect(contentTypeOf(read)).toContain("application/fhir+json");
      expect({ ...read }).toEqual(entry.resource);
    }
    for (const id of ["qs-999999999", "bp-s1-d2", `sleep-${alice}`, "patient-1", "qs-1x"]) {
      const missing = await failure(fhir.read({ resourceType: "Observation", id }));
      expect(missing.status).toBe(404);
      expect(missing.contentType).toContain("application/fhir+json");
    }
  });

  it("takes date with prefixes for a range, as start and end bound the spec's route", async () => {
    const fhir = client(key);
    const ids = async (searchParams: Record<string, string | string[]>) => {
      const bundle = (await fhir.search({ resourceType: "Observation", searchParams: { subject: `Patient/${alice}`, ...searchParams } })) as Bundle;
      return (await everyPage(fhir, bundle)).resources.map((o) => o.id);
    };
    const range = await ids({ date: ["ge2026-03-01T07:00:00Z", "lt2026-03-01T12:00:00Z"], _count: "2" });
    expect(range).toEqual(await specObservations(alice, "start=2026-03-01T07:00:00Z&end=2026-03-01T12:00:00Z"));
    expect(range.length).toBeGreaterThan(3);
    expect(await ids({ date: "2026-03-01" })).toEqual(await specObservations(alice, "start=2026-03-01&end=2026-03-02"));
    expect(await ids({ date: "gt2026-03-01" })).toEqual(await specObservations(alice, "start=2026-03-02"));
    expect(await ids({ date: "le2026-03-01T07:05:00Z" })).toEqual(await specObservations(alice, "end=2026-03-01T07:05:01Z"));
    expect(await ids({ date: "eq2026-03-01T09:00+00:00" })).toEqual(await specObservations(alice, "start=2026-03-01T09:00:00Z&end=2026-03-01T09:01:00Z"));
    expect(await ids({ date: "lt2026-03-01T07:00:00Z" })).toEqual(await specObservations(alice, "end=2026-03-01T07:00:00Z"));
    expect(await ids({ date: ["ge2026-03-02", "lt2026-03-01"] })).toEqual([]);
  });

  it("sorts newest first with _sort=-date, paging back through next links", async () => {
    const fhir = client(key);
    const newest = async (searchParams: Record<string, string | number | string[]>) => {
      const first = (await fhir.search({ resourceType: "Observation", searchParams: { patient: alice, _sort: "-date", ...searchParams } })) as Bundle;
      return (await everyPage(fhir, first)).resources.map((o) => o.id);
    };
    const oldestFirst = every.map((o) => o.id);
    expect(await newest({ _count: 4 })).toEqual([...oldestFirst].reverse());
    expect(await newest({ _count: 1000 })).toEqual([...oldestFirst].reverse());
    const latest = (await fhir.search({ resourceType: "Observation", searchParams: { patient: alice, _sort: "-date", _count: 1, code: "8867-4" } })) as Bundle;
    expect(latest.entry?.map((e) => e.resource.valueQuantity.value)).toEqual([83]); // 2026-03-02T23:30
    const window = await specObservations(alice, "start=2026-03-01T07:00:00Z&end=2026-03-01T12:00:00Z");
    expect(await newest({ date: ["ge2026-03-01T07:00:00Z", "lt2026-03-01T12:00:00Z"], _count: 3 })).toEqual([...window].reverse());
  });

  it("filters by code and category tokens: commas match any, repeats match all", async () => {
    const fhir = client(key);
    const ids = async (searchParams: Record<string, string | string[]>) =>
      ((await fhir.search({ resourceType: "Observation", searchParams: { patient: alice, _count: 1000, ...searchParams } })) as Bundle).entry?.map((e) => e.resource.id) ?? [];
    expect(await ids({ code: "http://loinc.org|8867-4" })).toEqual(await specObservations(alice, "code=http://loinc.org|8867-4"));
    const weightOrSleep = await ids({ code: "http://loinc.org|29463-7,93832-4" });
    expect(weightOrSleep.map((id) => id!.split("-")[0]).sort()).toEqual(["qs", "sleep"]);
    expect(await ids({ category: "vital-signs" })).toEqual(await specObservations(alice, "category=vital-signs"));
    expect(await ids({ category: ["vital-signs", "laboratory"] })).toEqual([]);
    expect((await ids({ category: "vital-signs,laboratory" })).length).toBe((await ids({ category: "vital-signs" })).length + 1);
  });

  it("takes _lastUpdated and view, spells out what it applied in self, and leaves unknown parameters out (lenient)", async () => {
    const fhir = client(key);
    const search = async (searchParams: Record<string, string | number | string[]>) =>
      (await fhir.search({ resourceType: "Observation", searchParams: { patient: `Patient/${alice}`, ...searchParams } })) as Bundle;
    expect((await search({ _lastUpdated: "gt2099-01-01" })).entry).toBeUndefined();
    expect((await search({ _lastUpdated: "ge2000-01-01", _count: 1000 })).entry).toHaveLength(every.length);
    const lenient = await search({ _count: 2, code: "8867-4", _summary: "count", banana: "1", _sort: "date", view: "all" });
    const self = new URL(lenient.link.find((l) => l.relation === "self")!.url);
    expect([...self.searchParams.keys()]).toEqual(["patient", "code", "_sort", "view", "_count"]);
    expect(lenient.entry).toHaveLength(2);
    const next = new URL(lenient.link.find((l) => l.relation === "next")!.url);
    expect(next.searchParams.get("cursor")).toBeTruthy();
  });

  it("answers errors as OperationOutcomes with their status: strict handling, a tenant key without patient, bad values", async () => {
    const fhir = client(key);
    const strict = await failure(fhir.search({ resourceType: "Observation", searchParams: { patient: alice, banana: "1" }, options: { headers: { Prefer: "handling=strict" } } }));
    expect(strict.status).toBe(400);
    expect(strict.contentType).toContain("application/fhir+json");
    expect(strict.body).toEqual({ resourceType: "OperationOutcome", issue: [{ severity: "error", code: "invalid", diagnostics: expect.stringContaining("banana") }] });
    valid(strict.body);
    const cases: Array<[Record<string, string | string[]>, string]> = [
      [{}, "patient"],
      [{ patient: [alice, bob] }, "one patient"],
      [{ patient: alice, date: "ne2026-03-01" }, "ne"],
      [{ patient: alice, date: "2026-13-01" }, "date"],
      [{ patient: alice, _sort: "value" }, "_sort"],
      [{ patient: alice, _count: "0" }, "_count"],
      [{ patient: alice, code: "https://elsewhere.example|1" }, "code system"],
      [{ patient: alice, "code:text": "pulse" }, ":text"],
      [{ patient: alice, view: "best" }, "view"],
      [{ patient: alice, cursor: "nope" }, "cursor"],
    ];
    for (const [searchParams, detail] of cases) {
      const answer = await failure(fhir.search({ resourceType: "Observation", searchParams }));
      expect({ searchParams, status: answer.status, type: answer.contentType }).toEqual({ searchParams, status: 400, type: expect.stringContaining("application/fhir+json") });
      expect(answer.body.issue[0].diagnostics).toContain(detail);
    }
    const unknownType = await failure(fhir.search({ resourceType: "Condition", searchParams: { patient: alice } }));
    expect(unknownType.status).toBe(404);
    expect(unknownType.body.resourceType).toBe("OperationOutcome");
    const xml = await failure(fhir.read({ resourceType: "Patient", id: alice, options: { headers: { Accept: "application/fhir+xml" } } }));
    expect(xml.status).toBe(406);
    const format = await fetch(`${baseUrl()}/Patient/${alice}?_format=xml`, { headers: { authorization: `Bearer ${key}` } });
    expect(format.status).toBe(406);
    expect((await fetch(`${baseUrl()}/Patient/${alice}?_format=json`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
  });

  it("answers a caller that does not ask for FHIR with the problem every route answers, which also reads as an OperationOutcome", async () => {
    const answer = await fetch(`${baseUrl()}/Observation?patient=${alice}&date=ne2026`, { headers: { authorization: `Bearer ${key}` } });
    expect(answer.status).toBe(400);
    expect(answer.headers.get("content-type")).toContain("application/problem+json");
    const body = (await answer.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ status: 400, title: "Bad Request", request_id: answer.headers.get("x-request-id"), resourceType: "OperationOutcome", issue: [{ code: "invalid" }] });
  });

  it("keeps tenants and users apart: another tenant sees nothing of a patient, a user token searches its own", async () => {
    const other = client(otherKey);
    expect(((await other.search({ resourceType: "Observation", searchParams: { patient: alice } })) as Bundle).entry).toBeUndefined();
    expect((await failure(other.read({ resourceType: "Observation", id: every[0]!.id! }))).status).toBe(404);
    const token = await mintToken(svc, key, alice, ["read"]);
    const own = client(token);
    expect(((await own.search({ resourceType: "Observation", searchParams: { _count: 1000 } })) as Bundle).entry?.map((e) => e.resource.id)).toEqual(every.map((o) => o.id));
    expect(((await own.search({ resourceType: "Observation", searchParams: { patient: bob } })) as Bundle).entry).toBeUndefined();
    const bobs = ((await client(key).search({ resourceType: "Observation", searchParams: { patient: bob } })) as Bundle).entry!;
    expect((await failure(own.read({ resourceType: "Observation", id: bobs[0]!.resource.id! }))).status).toBe(404);
    expect(((await own.read({ resourceType: "Observation", id: every[0]!.id! })) as Resource).id).toBe(every[0]!.id);
  });
});

describe("Patient compartment: GET /v1/fhir/Patient/{id}/Observation", () => {
  const inCompartment = (fhir: Client, id: string, searchParams: Record<string, string | number | string[]> = {}, headers?: Record<string, string>) =>
    fhir.compartmentSearch({ resourceType: "Observation", compartment: { resourceType: "Patient", id }, searchParams, ...(headers && { options: { headers } }) }) as Promise<Bundle>;
  /** The ids of a search and of its compartment form, every page of each, and every page of the compartment form. */
  async function bothForms(searchParams: Record<string, string | number | string[]>) {
    const fhir = client(key);
    const typeLevel = await everyPage(fhir, (await fhir.search({ resourceType: "Observation", searchParams: { patient: alice, ...searchParams } })) as Bundle);
    const compartment = await everyPage(fhir, await inCompartment(fhir, alice, searchParams));
    return { typeIds: typeLevel.resources.map((o) => o.id), ids: compartment.resources.map((o) => o.id), pages: compartment.pages, resources: compartment.resources };
  }

  it("is the Observation search with the patient from the path: same Observations, same order, page by page, each valid", async () => {
    const searches: Array<Record<string, string | number | string[]>> = [
      { _count: 7 },
      { _count: 3, _sort: "-date" },
      { _count: 2, date: ["ge2026-03-01T07:00:00Z", "lt2026-03-01T12:00:00Z"] },
      { _count: 1000, code: "http://loinc.org|8867-4,29463-7" },
      { _count: 4, category: "vital-signs", view: "all" },
      { _count: 5, _lastUpdated: "ge2000-01-01" },
    ];
    for (const searchParams of searches) {
      const { typeIds, ids, pages, resources } = await bothForms(searchParams);
      expect(ids, JSON.stringify(searchParams)).toEqual(typeIds);
      expect(ids.length, JSON.stringify(searchParams)).toBeGreaterThan(0);
      for (const page of pages) {
        valid(page);
        for (const link of page.link) expect(link.url.startsWith(`${baseUrl()}/Patient/${alice}/Observation?`), link.url).toBe(true);
      }
      for (const observation of resources) valid(observation);
    }
    const { pages } = await bothForms({ _count: 7 });
    expect(pages.length).toBeGreaterThan(2);
    expect(contentTypeOf(pages[0]!)).toContain("application/fhir+json");
    const entry = pages[0]!.entry![0]!;
    expect(entry.fullUrl).toBe(`${baseUrl()}/Observation/${entry.resource.id}`);
  });

  it("takes patient or subject naming the compartment's patient; another patient matches nothing", async () => {
    const fhir = client(key);
    const all = (await inCompartment(fhir, alice, { _count: 1000 })).entry!.map((e) => e.resource.id);
    expect((await inCompartment(fhir, alice, { _count: 1000, patient: `Patient/${alice}` })).entry!.map((e) => e.resource.id)).toEqual(all);
    expect((await inCompartment(fhir, alice, { _count: 1000, subject: alice })).entry!.map((e) => e.resource.id)).toEqual(all);
    const other = await inCompartment(fhir, alice, { patient: bob });
    valid(other);
    expect(other.entry).toBeUndefined();
    expect(new URL(other.link[0]!.url).pathname).toBe(`/v1/fhir/Patient/${alice}/Observation`);
  });

  it("keeps lenient and strict handling, and answers errors as OperationOutcomes", async () => {
    const fhir = client(key);
    const lenient = await inCompartment(fhir, alice, { _count: 2, banana: "1", code: "8867-4" });
    expect([...new URL(lenient.link.find((l) => l.relation === "self")!.url).searchParams.keys()]).toEqual(["code", "view", "_count"]);
    expect(lenient.entry).toHaveLength(2);
    const strict = await failure(inCompartment(fhir, alice, { banana: "1" }, { Prefer: "handling=strict" }));
    expect(strict.status).toBe(400);
    expect(strict.contentType).toContain("application/fhir+json");
    expect(strict.body).toEqual({ resourceType: "OperationOutcome", issue: [{ severity: "error", code: "invalid", diagnostics: expect.stringContaining("banana") }] });
    valid(strict.body);
    for (const [searchParams, detail] of [
      [{ date: "ne2026-03-01" }, "ne"],
      [{ _sort: "value" }, "_sort"],
      [{ patient: [alice, bob] }, "one patient"],
      [{ cursor: "nope" }, "cursor"],
    ] as const) {
      const answer = await failure(inCompartment(fhir, alice, searchParams as Record<string, string | string[]>));
      expect({ status: answer.status, type: answer.contentType }).toEqual({ status: 400, type: expect.stringContaining("application/fhir+json") });
      expect(answer.body.issue[0].diagnostics).toContain(detail);
    }
    for (const id of [carol, "not-a-user", "00000000-0000-4000-8000-000000000000"]) {
      const missing = await failure(inCompartment(fhir, id));
      expect({ id, status: missing.status }).toEqual({ id, status: 404 });
      expect(missing.body).toEqual({ resourceType: "OperationOutcome", issue: [{ severity: "error", code: "not-found", diagnostics: "No such Patient." }] });
    }
  });

  it("keeps tenants and users apart: another tenant's key and another user's token get a 404, a user token searches its own compartment", async () => {
    expect((await failure(inCompartment(client(otherKey), alice))).status).toBe(404);
    const token = client(await mintToken(svc, key, alice, ["read"]));
    const own = (await inCompartment(token, alice, { _count: 1000 })).entry!.map((e) => e.resource.id);
    expect(own).toEqual((await inCompartment(client(key), alice, { _count: 1000 })).entry!.map((e) => e.resource.id));
    const bobs = await failure(inCompartment(token, bob));
    expect(bobs.status).toBe(404);
    expect(bobs.body.issue[0].code).toBe("not-found");
    expect((await failure(inCompartment(client(await mintToken(svc, key, alice, ["upload"])), alice))).status).toBe(403);
    expect((await failure(inCompartment(client(), alice))).status).toBe(401);
  });
});

describe("/openapi.yaml", () => {
  it("documents the base's errors in both forms: the OperationOutcome a FHIR client gets, and the problem any other caller gets", async () => {
    const document = parse(await (await fetch(`${svc.url}/openapi.yaml`)).text());
    const outcomeSchema = document.components.schemas.FhirOperationOutcome;
    const fhirAnswer = await failure(client(key).compartmentSearch({ resourceType: "Observation", compartment: { resourceType: "Patient", id: alice }, searchParams: { date: "ne2026" } }));
    const documented = document.paths["/v1/fhir/Patient/{id}/Observation"].get.responses[String(fhirAnswer.status)].content;
    expect(Object.keys(documented)).toEqual(["application/fhir+json", "application/problem+json"]);
    expect(fhirAnswer.contentType).toContain("application/fhir+json");
    // The answer has exactly the members the documented schema names, and its required ones.
    expect(Object.keys(fhirAnswer.body).sort()).toEqual(Object.keys(outcomeSchema.properties).sort());
    for (const issue of fhirAnswer.body.issue) {
      for (const name of outcomeSchema.properties.issue.items.required) expect(issue).toHaveProperty(name);
      expect(Object.keys(issue).every((name) => name in outcomeSchema.properties.issue.items.properties)).toBe(true);
      expect(outcomeSchema.properties.issue.items.properties.severity.enum).toContain(issue.severity);
    }
    // Answers to a caller that does not ask for FHIR are checked against the document by svc.call.
    for (const path of [
      "/v1/fhir/metadata",
      `/v1/fhir/Patient/${alice}`,
      "/v1/fhir/Patient?identifier=alice-7",
      `/v1/fhir/Observation?patient=${alice}&_count=3&date=ge2026-03-01`,
      `/v1/fhir/Observation?patient=${alice}&date=ne2026-03-01`,
      `/v1/fhir/Patient/${alice}/Observation?_count=3&date=ge2026-03-01`,
      `/v1/fhir/Patient/${alice}/Observation?date=ne2026-03-01`,
      `/v1/fhir/Patient/${bob}x/Observation`,
      "/v1/fhir/Observation/qs-1",
    ]) {
      const answer = await svc.call(path, { key });
      expect(answer.status).toBeLessThan(500);
    }
    const read = await svc.call(`/v1/fhir/Observation/${(await svc.call(`/v1/fhir/Observation?patient=${alice}&_count=1`, { key })).body.entry[0].resource.id}`, { key });
    expect(read.status).toBe(200);
  });
});
