import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixturePath } from "@svc/testing";
import type { QuantitySampleRecord } from "@svc/core";
import type { TestService } from "../helpers/test-service.ts";
import { fhirProblems } from "../helpers/fhir-validator.ts";
import {
  at,
  createUser,
  mintToken,
  startWithTwoTenants,
  writeDaily,
  writeEcg,
  writeNutrition,
  writeSamples,
  writeSleep,
  writeWorkoutRecords,
} from "../helpers/records.ts";
import { withingsSample } from "../helpers/fhir-records.ts";

let svc: TestService;
let key: string;
let otherKey: string;

beforeAll(async () => {
  ({ svc, key, otherKey } = await startWithTwoTenants());
});
afterAll(() => svc?.stop());

type Observation = Record<string, any> & { id: string };
type Bundle = { resourceType: string; type: string; link: Array<{ relation: string; url: string }>; entry?: Array<{ fullUrl: string; resource: Observation; search: { mode: string } }>; total?: number };

const HL7_CATEGORY = "http://terminology.hl7.org/CodeSystem/observation-category";
const search = (user: string, query = "") => `/v1/users/${user}/fhir/Observation${query ? `?${query}` : ""}`;

async function page(user: string, query = ""): Promise<Bundle> {
  const answer = await svc.call(search(user, query), { key });
  expect(answer.status, answer.text).toBe(200);
  expect(answer.headers.get("content-type")).toContain("application/fhir+json");
  return answer.body as Bundle;
}

/** Follows `next` links from the first page; checks each page's size and returns every Observation. */
async function allPages(user: string, query: string, limit: number): Promise<{ observations: Observation[]; pages: Bundle[] }> {
  const pages: Bundle[] = [];
  let url: string | undefined = search(user, `${query}${query ? "&" : ""}limit=${limit}`);
  while (url) {
    const answer = await svc.call(url, { key });
    expect(answer.status, answer.text).toBe(200);
    const bundle = answer.body as Bundle;
    pages.push(bundle);
    expect(bundle.entry?.length ?? 0).toBeLessThanOrEqual(limit);
    const next = bundle.link.find((l) => l.relation === "next")?.url;
    url = next ? next.slice(new URL(next).origin.length) : undefined;
    if (pages.length > 1000) throw new Error("too many pages");
  }
  return { observations: pages.flatMap((p) => p.entry?.map((e) => e.resource) ?? []), pages };
}


/** Where an Observation sorts: its time, the rank of its kind, its id. */
const KIND_RANK: Record<string, number> = { qs: 0, bp: 1, sleep: 2, workout: 3, daily: 4, ecg: 5, nutrition: 6 };
function timeOf(o: Observation): string {
  const time = o.effectiveDateTime ?? o.effectivePeriod.start;
  return time.length === 10 ? `${time}T00:00:00.000Z` : time;
}

/** A user with one of every kind the search merges. */
async function userWithEveryKind(): Promise<string> {
  const user = await createUser(svc, key);
  await writeSamples(svc, user, "withings", [
    withingsSample("heart_rate", 61, "2026-03-01T07:00:00Z", { device: "ScanWatch", on_body: true, external_id: "hr-1" }),
    withingsSample("blood_pressure_systolic", 121, "2026-03-01T07:05:00Z"),
    withingsSample("blood_pressure_diastolic", 79, "2026-03-01T07:05:00Z"),
    withingsSample("blood_pressure_systolic", 135, "2026-03-01T07:30:00Z"),
    withingsSample("body_mass", 72.4, "2026-03-01T07:10:00Z"),
    withingsSample("height", 178, "2026-03-01T07:10:00Z"),
    withingsSample("body_mass_index", 22.9, "2026-03-01T07:10:00Z"),
    withingsSample("body_temperature", 36.7, "2026-03-01T07:11:00Z"),
    withingsSample("oxygen_saturation", 97, "2026-03-01T07:12:00Z"),
    withingsSample("respiratory_rate", 14, "2026-03-01T07:13:00Z"),
    withingsSample("blood_glucose", 92, "2026-03-01T07:14:00Z"),
    withingsSample("step_count", 420, "2026-03-01T09:00:00Z", { end_date: at("2026-03-01T09:10:00Z") }),
    withingsSample("sleep_score", 81, "2026-03-01T06:00:00Z"),
    withingsSample("reported_mood", 4, "2026-03-01T20:00:00Z", { source: null, device: null }),
  ]);
  await writeSleep(svc, user, "oura", [
    {
      bedtime_start: at("2026-02-28T22:00:00Z"),
      bedtime_end: at("2026-03-01T06:00:00Z"),
      total_sleep_seconds: 25_200,
      deep_seconds: 5400,
      light_seconds: 14_400,
      rem_seconds: 5400,
      awake_seconds: 2314,
      latency_seconds: 600,
      efficiency: 0.875,
      source: "oura",
      device: "Oura Ring 4",
      on_body: true,
    },
  ]);
  await writeWorkoutRecords(svc, user, "garmin", [
    {
      activity_type: "running",
      name: "Morning run",
      start_date: at("2026-03-01T07:00:00Z"),
      end_date: at("2026-03-01T07:45:00Z"),
      distance_meters: 8000,
      average_heart_rate: 151,
      source: "garmin",
      device: "Forerunner 965",
      on_body: true,
    },
  ]);
  await writeDaily(svc, user, "garmin", [{ date: "2026-03-01", steps: 11_000, resting_heart_rate: 52, active_seconds: 3600, source: "garmin" }]);
  await writeEcg(svc, user, "apple_health", [
    {
      start_date: at("2026-03-01T12:00:00Z"),
      classification: "sinusRhythm",
      average_heart_rate: 66,
      sampling_frequency_hz: 512,
      lead_name: "Lead I",
      voltages: [12.5, -3, 40.25, 7],
      source: "apple",
      device: "Apple Watch",
      on_body: true,
    },
  ]);
  await writeNutrition(svc, user, "cronometer", [
    {
      start_date: at("2026-03-01T12:30:00Z"),
      meal_type: "lunch",
      name: "Pasta",
      energy_kcal: 640,
      protein_grams: 22,
      nutrients: { caffeine: { value: 95, unit: "mg" }, vitamin_d: { value: 400, unit: "IU" }, folate: { value: 80, unit: "micrograms" }, salt: { value: 1, unit: "pinch" } },
      source: "cronometer",
    },
  ]);
  return user;
}

describe("GET /v1/users/{id}/fhir/Observation", () => {
  let user: string;
  let everything: Observation[];

  beforeAll(async () => {
    user = await userWithEveryKind();
    everything = (await allPages(user, "", 1000)).observations;
  });

  it("merges every kind into one searchset Bundle, each Observation valid FHIR R4 and vital signs valid against their profiles", async () => {
    const bundle = await page(user);
    expect(bundle.resourceType).toBe("Bundle");
    expect(bundle.type).toBe("searchset");
    expect(bundle.total).toBeUndefined();
    expect(bundle.link.map((l) => l.relation)).toEqual(["self"]);
    expect(bundle.entry!.every((e) => e.search.mode === "match" && e.fullUrl.endsWith(`/fhir/Observation/${e.resource.id}`))).toBe(true);
    expect(fhirProblems(bundle as never)).toEqual([]);

    const prefixes = everything.map((o) => o.id.split("-")[0]);
    expect(new Set(prefixes)).toEqual(new Set(["qs", "bp", "sleep", "workout", "daily", "ecg", "nutrition"]));
    for (const observation of everything) expect({ id: observation.id, problems: fhirProblems(observation) }).toEqual({ id: observation.id, problems: [] });
    // Blood pressure readings are listed only in panels: the pair, and the lone systolic with the diastolic absent.
    expect(everything.filter((o) => o.id.startsWith("qs-") && o.code.text.startsWith("blood_pressure"))).toEqual([]);
    const panels = everything.filter((o) => o.id.startsWith("bp-"));
    expect(panels.map((p) => p.component.map((c: any) => c.valueQuantity?.value ?? c.dataAbsentReason.coding[0].code))).toEqual([[121, 79], [135, "unknown"]]);
    expect(panels[0]!.component.map((c: any) => c.valueQuantity.code)).toEqual(["mm[Hg]", "mm[Hg]"]);
    // The validator checks the profiles: the HL7 examples pass, a panel without its diastolic component does not.
    for (const name of ["bloodpressure", "bloodpressure-dar", "heart-rate", "bmi", "satO2"]) {
      const example = JSON.parse(readFileSync(fixturePath(`fhir_r4_observation-example-${name}.json`), "utf8"));
      expect(fhirProblems({ ...example, meta: { profile: panels[0]!.meta.profile.slice(0, name.startsWith("blood") ? 2 : 1) } })).toEqual([]);
    }
    expect(fhirProblems({ ...panels[0]!, component: [panels[0]!.component[0]] }).join()).toContain("DiastolicBP");
  });

  it("lists in time order, then kind and id", () => {
    const keys = everything.map((o) => [timeOf(o), KIND_RANK[o.id.split("-")[0]!], o.id] as const);
    const sorted = [...keys].sort((a, b) => a[0].localeCompare(b[0]) || a[1]! - b[1]! || 0);
    expect(keys.map((k) => k[2])).toEqual(sorted.map((k) => k[2]));
    // At 07:00 a heart rate sample and a workout start together: the sample's kind sorts first.
    const at7 = everything.filter((o) => timeOf(o) === "2026-03-01T07:00:00.000Z").map((o) => o.id.split("-")[0]);
    expect(at7).toEqual(["qs", "workout"]);
  });

  it("writes each kind's content: codes, categories, profiles, units, provenance", () => {
    const byCode = (text: string) => everything.find((o) => o.code.text === text)!;
    const heartRate = byCode("heart_rate");
    expect(heartRate).toMatchObject({
      status: "final",
      meta: {
        profile: ["http://hl7.org/fhir/StructureDefinition/vitalsigns", "http://hl7.org/fhir/StructureDefinition/heartrate"],
        tag: expect.arrayContaining([expect.objectContaining({ code: "withings" }), expect.objectContaining({ code: "withings" })]),
      },
      category: [{ coding: [{ system: HL7_CATEGORY, code: "vital-signs", display: "Vital Signs" }] }],
      subject: { reference: `Patient/${user}` },
      performer: [{ reference: `Patient/${user}` }],
      effectiveDateTime: "2026-03-01T07:00:00.000Z",
      valueQuantity: { value: 61, system: "http://unitsofmeasure.org", code: "/min" },
      device: { display: "ScanWatch" },
    });
    expect(heartRate.code.coding).toEqual([
      { system: "http://loinc.org", code: "8867-4" },
      expect.objectContaining({ system: expect.stringMatching(/\/fhir\/CodeSystem\/quantity-type$/), code: "heart_rate" }),
    ]);
    expect(heartRate.identifier).toEqual([
      { system: expect.stringMatching(/\/observation-id$/), value: heartRate.id },
      { system: expect.stringMatching(/\/external-id\/withings$/), value: "hr-1" },
    ]);
    expect(typeof heartRate.issued).toBe("string");

    expect(byCode("blood_glucose").category[0].coding[0].code).toBe("laboratory");
    expect(byCode("reported_mood").category[0].coding[0].code).toBe("survey");
    expect(byCode("step_count").category[0].coding[0].code).toBe("activity");
    expect(byCode("step_count").effectivePeriod).toEqual({ start: "2026-03-01T09:00:00.000Z", end: "2026-03-01T09:10:00.000Z" });
    expect(byCode("sleep_score").category).toBeUndefined();
    expect(byCode("sleep_score").meta.profile).toBeUndefined();

    const sleep = everything.find((o) => o.id.startsWith("sleep-"))!;
    expect(sleep.code.coding[0]).toEqual({ system: "http://loinc.org", code: "93832-4", display: "Sleep duration" });
    expect(sleep.valueQuantity).toEqual({ value: 420, unit: "min", system: "http://unitsofmeasure.org", code: "min" });
    expect(sleep.component).toContainEqual(expect.objectContaining({ code: expect.objectContaining({ text: "efficiency" }), valueQuantity: expect.objectContaining({ value: 87.5, code: "%" }) }));

    const workout = everything.find((o) => o.id.startsWith("workout-"))!;
    expect(workout.code.coding[0].code).toBe("55411-3");
    expect(workout.valueQuantity).toMatchObject({ value: 45, code: "min" });
    expect(workout.component[0].valueCodeableConcept).toMatchObject({ coding: [{ code: "running" }], text: "Morning run" });

    const daily = everything.find((o) => o.id.startsWith("daily-"))!;
    expect(daily.effectiveDateTime).toBe("2026-03-01");
    expect(daily.component.map((c: any) => [c.code.text, c.valueQuantity.value])).toEqual([["steps", 11_000], ["active_seconds", 3600], ["resting_heart_rate", 52]]);

    const ecg = everything.find((o) => o.id.startsWith("ecg-"))!;
    expect(ecg.code.coding[0].code).toBe("11524-6");
    expect(ecg.valueCodeableConcept.text).toBe("sinus_rhythm");
    expect(ecg.component[0].valueSampledData).toEqual({
      origin: { value: 0, unit: "uV", system: "http://unitsofmeasure.org", code: "uV" },
      period: 1000 / 512,
      dimensions: 1,
      data: "12.5 -3 40.25 7",
    });

    const meal = everything.find((o) => o.id.startsWith("nutrition-"))!;
    expect(meal.code.text).toBe("Pasta");
    expect(meal.component).toContainEqual(expect.objectContaining({ valueQuantity: expect.objectContaining({ value: 640, code: "kcal" }) }));
  });

  it("gives every quantity a UCUM unit, and durations coded *_seconds in seconds (LOINC for the sleep stages)", () => {
    const sleep = everything.find((o) => o.id.startsWith("sleep-"))!;
    const component = (o: Observation, text: string) => o.component.find((c: any) => c.code.text === text);
    const seconds = { unit: "s", system: "http://unitsofmeasure.org", code: "s" };
    expect(component(sleep, "awake_seconds").valueQuantity).toEqual({ value: 2314, ...seconds });
    expect(component(sleep, "latency_seconds").valueQuantity).toEqual({ value: 600, ...seconds });
    for (const [stage, loinc, value] of [["light_seconds", "93830-8", 14_400], ["deep_seconds", "93831-6", 5400], ["rem_seconds", "93829-0", 5400]] as const) {
      expect(component(sleep, stage)).toMatchObject({ code: { coding: [{ system: "http://loinc.org", code: loinc }, { code: stage }] }, valueQuantity: { value, ...seconds } });
    }
    const daily = everything.find((o) => o.id.startsWith("daily-"))!;
    expect(component(daily, "active_seconds").valueQuantity).toEqual({ value: 3600, ...seconds });

    const meal = everything.find((o) => o.id.startsWith("nutrition-"))!;
    expect(component(meal, "caffeine").valueQuantity).toEqual({ value: 95, unit: "mg", system: "http://unitsofmeasure.org", code: "mg" });
    expect(component(meal, "vitamin_d").valueQuantity).toEqual({ value: 400, unit: "IU", system: "http://unitsofmeasure.org", code: "[IU]" });
    expect(component(meal, "folate").valueQuantity).toEqual({ value: 80, unit: "micrograms", system: "http://unitsofmeasure.org", code: "ug" });
    // A unit outside UCUM stays text only: no code is better than a wrong one.
    expect(component(meal, "salt").valueQuantity).toEqual({ value: 1, unit: "pinch" });

    // A figure named by its unit carries that unit, on every Observation of every kind.
    const UNIT_OF_SUFFIX: Record<string, string> = { seconds: "s", minutes: "min", meters: "m", kcal: "kcal", grams: "g", milligrams: "mg", milliliters: "mL" };
    for (const observation of everything) {
      for (const c of observation.component ?? []) {
        const suffix = /_([a-z]+)$/.exec(c.code.text ?? "")?.[1];
        if (!c.valueQuantity || !suffix || !(suffix in UNIT_OF_SUFFIX)) continue;
        expect({ figure: c.code.text, code: c.valueQuantity.code }).toEqual({ figure: c.code.text, code: UNIT_OF_SUFFIX[suffix] });
      }
      for (const quantity of [observation.valueQuantity, ...(observation.component ?? []).map((c: any) => c.valueQuantity)]) {
        if (quantity && quantity.unit !== "pinch") expect(quantity).toMatchObject({ system: "http://unitsofmeasure.org", code: expect.any(String) });
      }
    }
  });

  it("codes vital signs as the HL7 examples do", () => {
    const examples: Array<[string, string]> = [
      ["heart-rate", "heart_rate"],
      ["respiratory-rate", "respiratory_rate"],
      ["satO2", "oxygen_saturation"],
      ["body-temperature", "body_temperature"],
      ["body-height", "height"],
      ["bmi", "body_mass_index"],
    ];
    for (const [name, type] of examples) {
      const example = JSON.parse(readFileSync(fixturePath(`fhir_r4_observation-example-${name}.json`), "utf8"));
      const ours = everything.find((o) => o.code.text === type)!;
      const loinc = (codings: any[]) => codings.filter((c) => c.system === "http://loinc.org").map((c) => c.code);
      expect(loinc(example.code.coding)).toContain(loinc(ours.code.coding)[0]);
      expect(ours.category[0].coding).toEqual(example.category[0].coding);
      expect(ours.valueQuantity.system).toBe(example.valueQuantity.system);
      // The examples give height in inches and temperature in °F; svc answers its storage units, cm and Cel.
      if (!["body-height", "body-temperature"].includes(name)) expect(ours.valueQuantity.code).toBe(example.valueQuantity.code);
    }
    const bp = JSON.parse(readFileSync(fixturePath("fhir_r4_observation-example-bloodpressure.json"), "utf8"));
    const panel = everything.find((o) => o.id.startsWith("bp-"))!;
    expect(panel.code.coding[0]).toEqual(bp.code.coding[0]);
    expect(panel.component.map((c: any) => c.code.coding[0])).toEqual(bp.component.map((c: any) => ({ system: "http://loinc.org", code: c.code.coding[0].code })));
    const absent = JSON.parse(readFileSync(fixturePath("fhir_r4_observation-example-bloodpressure-dar.json"), "utf8"));
    const lone = everything.filter((o) => o.id.startsWith("bp-")).at(-1)!;
    expect(lone.component[1].dataAbsentReason.coding[0].system).toBe(absent.component[1].dataAbsentReason.coding[0].system);
  });

  it("filters by type, code and category, and combines them", async () => {
    const ids = async (query: string) => ((await page(user, query)).entry ?? []).map((e) => e.resource.id.split("-")[0] + ":" + (e.resource.code.text ?? ""));
    expect(await ids("type=heart_rate")).toEqual(["qs:heart_rate"]);
    expect(await ids("type=blood_pressure_systolic")).toEqual(["bp:Blood pressure", "bp:Blood pressure"]);
    expect(await ids("type=blood_pressure_diastolic")).toEqual(["bp:Blood pressure"]);
    expect(await ids("code=http://loinc.org|8867-4")).toEqual(["qs:heart_rate"]);
    expect(await ids("code=http://loinc.org|85354-9")).toHaveLength(2);
    expect(await ids("code=http://loinc.org|8462-4")).toHaveLength(1);
    expect(await ids("code=http://loinc.org|93832-4")).toEqual(["sleep:Sleep"]);
    expect(await ids("code=http://loinc.org|55411-3")).toEqual(["workout:Workout"]);
    expect(await ids("code=http://loinc.org|11524-6")).toEqual(["ecg:ECG"]);
    const heartRate = everything.find((o) => o.code.text === "heart_rate")!;
    const base = heartRate.code.coding.at(-1).system.replace(/\/quantity-type$/, "");
    expect(await ids(`code=${encodeURIComponent(`${base}/quantity-type|body_mass`)}`)).toEqual(["qs:body_mass"]);
    expect(await ids(`code=${encodeURIComponent(`${base}/record-type|nutrition_log`)}`)).toEqual(["nutrition:Pasta"]);
    expect(await ids(`code=${encodeURIComponent(`${base}/record-type|daily_summary`)}`)).toEqual(["daily:Daily summary"]);
    expect(await ids("code=sleep_session")).toEqual(["sleep:Sleep"]);
    expect(await ids("code=8867-4")).toEqual(["qs:heart_rate"]);
    // A code nobody carries: an empty Bundle, without entry.
    const empty = await page(user, "code=http://loinc.org|1234-5");
    expect(empty.entry).toBeUndefined();
    expect(empty.link.map((l) => l.relation)).toEqual(["self"]);
    expect(await ids(`code=${encodeURIComponent(`${base}/quantity-type|not_a_type`)}`)).toEqual([]);

    const vital = await ids("category=vital-signs");
    expect(vital.sort()).toEqual(
      ["bp:Blood pressure", "bp:Blood pressure", "qs:body_mass", "qs:body_mass_index", "qs:body_temperature", "qs:heart_rate", "qs:height", "qs:oxygen_saturation", "qs:respiratory_rate"].sort(),
    );
    expect(await ids(`category=${encodeURIComponent(`${HL7_CATEGORY}|vital-signs`)}`)).toEqual(await ids("category=vital-signs"));
    expect(await ids("category=laboratory")).toEqual(["qs:blood_glucose"]);
    expect(await ids("category=survey")).toEqual(["qs:reported_mood"]);
    expect((await ids("category=activity")).sort()).toEqual(["daily:Daily summary", "qs:step_count", "workout:Workout"]);
    expect(await ids("category=exam")).toEqual([]);
    // Filters combine: a record is listed when it matches all.
    expect(await ids("category=vital-signs&type=step_count")).toEqual([]);
    expect(await ids("category=vital-signs&code=http://loinc.org|8480-6")).toHaveLength(2);
    expect((await ids("start=2026-03-01T07:05:00Z&end=2026-03-01T07:11:00Z")).sort()).toEqual(["bp:Blood pressure", "qs:body_mass", "qs:body_mass_index", "qs:height"]);
    expect(await ids("start=2026-03-01&end=2026-03-02&category=activity")).toContain("daily:Daily summary");
    expect(await ids("start=2026-03-01T00:00:01Z&category=activity")).not.toContain("daily:Daily summary");
  });

  it("refuses bad queries with a problem a FHIR client reads as an OperationOutcome", async () => {
    for (const query of [
      "type=not_a_type",
      "code=http://snomed.info/sct|271649006",
      "code=|8867-4",
      "category=foo",
      "category=vital-signs,activity",
      "category=http://example.org|vital-signs",
      "end=2026-01-01&start=2026-02-01",
      "limit=1001",
      "cursor=nope",
      "view=best",
    ]) {
      const answer = await svc.call(search(user, query), { key });
      expect(answer.status, query).toBe(400);
      expect(answer.headers.get("content-type")).toContain("application/problem+json");
      expect(answer.body).toMatchObject({ status: 400, resourceType: "OperationOutcome", issue: [{ severity: "error", code: "invalid", diagnostics: answer.body.detail }] });
    }
  });

  it("answers only the tenant key of the user's tenant", async () => {
    const token = await mintToken(svc, key, user, ["read"]);
    expect((await svc.call(search(user), { key: token })).status).toBe(403);
    expect((await svc.call(search(user), { key: otherKey })).status).toBe(404);
    expect((await svc.call(search(user), {})).status).toBe(401);
  });
});

describe("paging", () => {
  it("pages to the end with no duplicates or gaps, never splitting a blood pressure pair", async () => {
    const user = await createUser(svc, key);
    const t = (minute: number) => new Date(Date.parse("2026-04-01T08:00:00Z") + minute * 60_000).toISOString();
    const records: QuantitySampleRecord[] = [];
    for (let i = 0; i < 12; i++) {
      records.push(withingsSample("blood_pressure_systolic", 110 + i, t(i * 2)), withingsSample("blood_pressure_diastolic", 70 + i, t(i * 2)));
      records.push(withingsSample("heart_rate", 60 + i, t(i * 2), { device: "ScanWatch" }));
      records.push(withingsSample("heart_rate", 80 + i, t(i * 2 + 1), { device: "ScanWatch" }));
    }
    // Two devices measured at one instant: two panels at the same time.
    records.push(withingsSample("blood_pressure_systolic", 140, t(6), { device: "Arm cuff", source: "omron" }), withingsSample("blood_pressure_diastolic", 90, t(6), { device: "Arm cuff", source: "omron" }));
    await writeSamples(svc, user, "withings", records);
    await writeSleep(svc, user, "oura", [{ bedtime_start: at(t(5)), bedtime_end: at(t(300)), source: "oura", on_body: true }]);

    const whole = (await allPages(user, "view=all", 1000)).observations.map((o) => o.id);
    expect(whole).toHaveLength(13 + 24 + 1);
    for (const limit of [1, 2, 3, 5]) {
      const { observations, pages } = await allPages(user, "view=all", limit);
      expect(observations.map((o) => o.id)).toEqual(whole);
      expect(pages.at(-1)!.link.some((l) => l.relation === "next")).toBe(false);
      for (const panel of observations.filter((o) => o.id.startsWith("bp-"))) expect(panel.component.every((c: any) => c.valueQuantity)).toBe(true);
    }
  });

  it("pages past instants shared by two devices and past records a page leaves out", async () => {
    const ids = async (user: string, query: string) => (await allPages(user, query, 1)).observations.map((o) => o.id.split("-")[0]);
    // Two devices at 07:00, one at 09:00: every panel, one a page.
    const pairs = await createUser(svc, key);
    const pair = (time: string, device: string) => [withingsSample("blood_pressure_systolic", 120, time, { device }), withingsSample("blood_pressure_diastolic", 80, time, { device })];
    await writeSamples(svc, pairs, "withings", [...pair("2026-07-01T07:00:00Z", "A"), ...pair("2026-07-01T07:00:00Z", "B"), ...pair("2026-07-01T09:00:00Z", "A")]);
    expect(await ids(pairs, "view=all")).toEqual(["bp", "bp", "bp"]);
    // Lone diastolic readings first: the systolic filter leaves them out, and paging goes on to the pair.
    const lone = await createUser(svc, key);
    await writeSamples(svc, lone, "withings", [
      withingsSample("blood_pressure_diastolic", 80, "2026-07-01T07:00:00Z"),
      withingsSample("blood_pressure_diastolic", 81, "2026-07-01T07:10:00Z"),
      ...pair("2026-07-01T09:00:00Z", "A"),
    ]);
    expect(await ids(lone, "code=http://loinc.org|8480-6")).toEqual(["bp"]);
    // Summaries svc derived come first and are left out of the merged view: paging reaches the provider's own.
    const days = await createUser(svc, key);
    await writeSamples(svc, days, "apple_health", [
      withingsSample("step_count", 100, "2026-07-01T09:00:00Z", { end_date: at("2026-07-01T09:10:00Z"), source: "apple" }),
      withingsSample("step_count", 100, "2026-07-02T09:00:00Z", { end_date: at("2026-07-02T09:10:00Z"), source: "apple" }),
    ]);
    await writeDaily(svc, days, "garmin", [{ date: "2026-07-05", steps: 9000, source: "garmin" }]);
    expect(await ids(days, "code=daily_summary")).toEqual(["daily"]);
  });

  it("refuses a cursor that does not fit its kind or time with a 400", async () => {
    const user = await createUser(svc, key);
    const cursor = (c: object) => Buffer.from(JSON.stringify(c)).toString("base64url");
    for (const c of [
      { t: "2026-01-01T00:00:00.000Z", k: "quantity_sample", id: "00000000-0000-4000-8000-000000000000" },
      { t: "2026-01-01T00:00:00.000Z", k: "ecg_recording", id: "12" },
      { t: "2026-01-01T00:00:00.000Z", k: "blood_pressure", id: "9999999999999999999" },
      { t: "0000-01-01T00:00:00.000Z", k: "sleep_session", id: "00000000-0000-4000-8000-000000000000" },
    ]) {
      const answer = await svc.call(search(user, `cursor=${cursor(c)}`), { key });
      expect(answer.status, JSON.stringify(c)).toBe(400);
    }
  });

  it("ends a page at its 100th ECG recording with a next link", async () => {
    const user = await createUser(svc, key);
    const recordings = Array.from({ length: 101 }, (_, i) => ({
      start_date: new Date(Date.parse("2026-05-01T00:00:00Z") + i * 60_000),
      sampling_frequency_hz: 256,
      voltages: [1, 2, 3],
      source: "apple",
      on_body: true,
      external_id: `e-${i}`,
    }));
    await writeEcg(svc, user, "apple_health", recordings);
    await writeSamples(svc, user, "withings", [withingsSample("heart_rate", 70, "2026-05-01T03:00:00Z")]);
    const first = await page(user, "limit=1000");
    expect(first.entry).toHaveLength(100);
    expect(first.entry!.every((e) => e.resource.id.startsWith("ecg-"))).toBe(true);
    const next = first.link.find((l) => l.relation === "next")!.url;
    const second = (await svc.call(next.slice(new URL(next).origin.length), { key })).body as Bundle;
    expect(second.entry!.map((e) => e.resource.id.split("-")[0])).toEqual(["ecg", "qs"]);
    expect(second.link.some((l) => l.relation === "next")).toBe(false);
  });

  it("answers an empty page without entry or next link", async () => {
    const user = await createUser(svc, key);
    const bundle = await page(user);
    expect(bundle).toEqual({ resourceType: "Bundle", type: "searchset", link: [{ relation: "self", url: expect.stringContaining(`/v1/users/${user}/fhir/Observation?`) }] });
  });

  it("lists only the best ranked source in the merged view, and every source with view=all", async () => {
    const user = await createUser(svc, key);
    await writeSamples(svc, user, "apple_health", [withingsSample("heart_rate", 60, "2026-06-01T08:00:00Z", { source: "apple", device: "Apple Watch", on_body: true })]);
    await writeSamples(svc, user, "withings", [withingsSample("heart_rate", 61, "2026-06-01T08:00:00Z", { source: "withings", device: "ScanWatch", on_body: true })]);
    await writeSamples(svc, user, "apple_health", [withingsSample("step_count", 500, "2026-06-01T09:00:00Z", { end_date: at("2026-06-01T09:30:00Z"), source: "apple" })]);
    expect(((await page(user, "type=heart_rate")).entry ?? []).length).toBe(1);
    expect(((await page(user, "type=heart_rate&view=all")).entry ?? []).length).toBe(2);
    // Daily totals svc derived from the step samples own no figure: only the view of every record lists them.
    const derived = async (view: string) => ((await page(user, `view=${view}&category=activity`)).entry ?? []).filter((e) => e.resource.id.startsWith("daily-")).length;
    expect(await derived("merged")).toBe(0);
    expect(await derived("all")).toBe(1);
  });
});
