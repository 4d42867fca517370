import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createShare, decryptJwe, parseShlink, revokeSharesOf, runConsentRevocation, type CoreDeps, type QuantitySampleRecord } from "@svc/core";
import type { JobQueue } from "@svc/jobs";
import type { TestService } from "../helpers/test-service.ts";
import { at, createUser, readAllPages, startWithTwoTenants, writeDaily, writeEcg, writeNutrition, writeSamples, writeSleep, writeWorkoutRecords } from "../helpers/records.ts";
import { fhirProblems } from "../helpers/fhir-validator.ts";
import { startTestQueue } from "../helpers/webhooks.ts";

let svc: TestService;
let key: string;
let otherKey: string;
let jobs: JobQueue;

beforeAll(async () => {
  ({ svc, key, otherKey } = await startWithTwoTenants());
  jobs = await startTestQueue(svc);
});
afterAll(async () => {
  await jobs?.stop();
  await svc?.stop();
});

type Observation = Record<string, any> & { id: string };
type SharedBundle = Record<string, any> & { resourceType: string; type: string; entry?: Array<{ resource: Observation }> };

const WINDOW = { start: "2026-02-28T00:00:00Z", end: "2026-03-02T00:00:00Z" };
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();
const PASSCODE = "open-sesame-42";

const sample = (type: string, value: number, time: string, extra: Partial<QuantitySampleRecord> = {}): QuantitySampleRecord => ({
  type,
  value,
  start_date: at(time),
  source: "withings",
  ...extra,
});

/** A user with records of several categories and providers, some outside WINDOW. */
async function userWithRecords(): Promise<string> {
  const user = await createUser(svc, key);
  await writeSamples(svc, user, "withings", [
    sample("heart_rate", 61, "2026-03-01T07:00:00Z", { external_id: "hr-in" }),
    sample("heart_rate", 66, "2026-02-27T23:59:59Z", { external_id: "hr-before" }),
    sample("heart_rate", 70, "2026-03-02T00:00:00Z", { external_id: "hr-after" }),
    sample("blood_pressure_systolic", 121, "2026-03-01T07:05:00Z"),
    sample("blood_pressure_diastolic", 79, "2026-03-01T07:05:00Z"),
    sample("body_mass", 72.4, "2026-03-01T07:10:00Z"),
    sample("oxygen_saturation", 97, "2026-03-01T07:12:00Z"),
    sample("step_count", 420, "2026-03-01T09:00:00Z", { end_date: at("2026-03-01T09:10:00Z") }),
  ]);
  await writeSleep(svc, user, "oura", [
    { bedtime_start: at("2026-02-28T22:00:00Z"), bedtime_end: at("2026-03-01T06:00:00Z"), total_sleep_seconds: 25_200, source: "oura" },
    { bedtime_start: at("2026-03-03T22:00:00Z"), bedtime_end: at("2026-03-04T06:00:00Z"), total_sleep_seconds: 25_000, source: "oura" },
  ]);
  await writeWorkoutRecords(svc, user, "garmin", [
    { activity_type: "running", start_date: at("2026-03-01T07:00:00Z"), end_date: at("2026-03-01T07:45:00Z"), distance_meters: 8000, source: "garmin" },
  ]);
  await writeDaily(svc, user, "garmin", [{ date: "2026-03-01", steps: 11_000, source: "garmin" }]);
  await writeEcg(svc, user, "apple_health", [
    { start_date: at("2026-03-01T12:00:00Z"), classification: "sinusRhythm", average_heart_rate: 66, sampling_frequency_hz: 512, voltages: [12.5, -3, 40.25], source: "apple" },
  ]);
  await writeNutrition(svc, user, "cronometer", [{ start_date: at("2026-03-01T12:30:00Z"), meal_type: "lunch", energy_kcal: 640, source: "cronometer" }]);
  return user;
}

const sharesPath = (user: string) => `/v1/users/${user}/shares`;
const shareBody = (extra: Record<string, unknown> = {}) => ({
  label: "For Dr. Lee",
  categories: ["heart", "sleep"],
  ...WINDOW,
  expires_at: inDays(30),
  ...extra,
});

async function create(user: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  const answer = await svc.call(sharesPath(user), { key, body: shareBody(extra), headers });
  expect(answer.status, answer.text).toBe(201);
  return answer.body as Record<string, any>;
}

/** POST of the manifest URL the link carries (a SMART Health Links client, from another origin). */
async function openManifest(link: string, body: Record<string, unknown> = { recipient: "Dr. Lee" }) {
  const payload = parseShlink(link);
  if (!payload) throw new Error("not a shlink");
  const response = await fetch(payload.url, {
    method: "POST",
    headers: { "content-type": "application/json", origin: "https://viewer.example" },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined, text, payload };
}

/** The Bundle of an opened manifest, decrypted with the link's key. */
function decryptBundle(manifest: { files: Array<{ contentType: string; embedded?: string }> }, link: string) {
  const payload = parseShlink(link)!;
  const [file] = manifest.files;
  expect(file?.contentType).toBe("application/fhir+json");
  const { header, plaintext } = decryptJwe(file!.embedded!, Buffer.from(payload.key, "base64url"));
  expect(header).toEqual({ alg: "dir", enc: "A256GCM", zip: "DEF", cty: "application/fhir+json" });
  return JSON.parse(plaintext.toString("utf8")) as SharedBundle;
}

const eventsOf = async (user: string, type?: string) =>
  (await svc.db.outboxEvent.findMany({ where: { userId: user, ...(type && { type }) }, orderBy: { createdAt: "asc" }, select: { type: true, data: true } }));
const shareRow = (id: string) => svc.db.share.findFirstOrThrow({ where: { id } });

describe("POST /v1/users/{id}/shares", () => {
  it("creates a SMART Health Link whose file holds exactly the categories and window granted (full detail)", async () => {
    const user = await userWithRecords();
    const share = await create(user, { detail: "full" });
    expect(share).toMatchObject({
      label: "For Dr. Lee",
      categories: ["heart", "sleep"],
      start: "2026-02-28T00:00:00.000Z",
      end: "2026-03-02T00:00:00.000Z",
      passcode: false,
      passcode_failures: 0,
      status: "active",
      revoked_at: null,
      revoked_reason: null,
      observations: 3,
      accesses: 0,
      last_accessed_at: null,
    });
    expect(share.file_bytes).toBeGreaterThan(0);
    expect(share.link).toBe(`${svc.url}/share#${share.shlink}`);
    expect(share.shlink).toMatch(/^shlink:\/[A-Za-z0-9_-]+$/);
    const payload = parseShlink(share.shlink)!;
    expect(payload).toEqual({
      url: `${svc.url}/share/${share.id}/manifest`,
      key: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      exp: Math.floor(Date.parse(share.expires_at) / 1000),
      label: "For Dr. Lee",
      v: 1,
    });

    const opened = await openManifest(share.shlink);
    expect(opened.status, opened.text).toBe(200);
    expect(opened.headers.get("access-control-allow-origin")).toBe("*");
    const bundle = decryptBundle(opened.body, share.shlink);
    expect(bundle).toMatchObject({ resourceType: "Bundle", type: "collection" });
    const ids = (bundle.entry ?? []).map((entry) => entry.resource.id).map((id) => id.split("-")[0]).sort();
    expect(ids).toEqual(["ecg", "qs", "sleep"]);
    const heartRates = (bundle.entry ?? []).filter((entry) => entry.resource.id.startsWith("qs-")).map((entry) => entry.resource.valueQuantity?.value);
    expect(heartRates).toEqual([61]);
    const sleep = bundle.entry!.find((entry) => entry.resource.id.startsWith("sleep-"))!.resource;
    expect(sleep.effectivePeriod.start).toBe("2026-02-28T22:00:00.000Z");
    expect(share.file_bytes).toBe(opened.body.files[0].embedded.length);

    const row = await shareRow(share.id);
    expect(row.providers).toEqual(["apple_health", "oura", "withings"]);
    expect(await eventsOf(user, "share.created")).toEqual([
      { type: "share.created", data: { user_id: user, external_ref: null, share_id: share.id, categories: ["heart", "sleep"], expires_at: share.expires_at, passcode: false } },
    ]);
  });

  it("stores neither the link key nor the passcode in clear: every column of the row, and the logs", async () => {
    const user = await userWithRecords();
    const share = await create(user, { passcode: PASSCODE, categories: ["activity", "vitals", "body", "workouts", "nutrition"] });
    expect(share.passcode).toBe(true);
    expect(share).toMatchObject({ categories: ["activity", "body", "workouts", "vitals", "nutrition"] });
    expect(parseShlink(share.shlink)!.flag).toBe("P");
    const { key: linkKey } = parseShlink(share.shlink)!;
    const rawKey = Buffer.from(linkKey, "base64url");
    const rows = await svc.db.$queryRaw<Array<Record<string, unknown>>>`SELECT * FROM shares WHERE id = ${share.id}::uuid`;
    expect(rows).toHaveLength(1);
    for (const [column, value] of Object.entries(rows[0]!)) {
      const text = value instanceof Uint8Array ? Buffer.from(value).toString("latin1") : JSON.stringify(value) ?? "";
      for (const secret of [linkKey, PASSCODE, rawKey.toString("hex"), rawKey.toString("base64"), rawKey.toString("latin1")]) {
        expect(text.includes(secret), column).toBe(false);
      }
    }
    expect(String(rows[0]!.passcode_hash)).toMatch(/^scrypt\$/);
    // Nor anywhere else in the database's text (idempotency records, events).
    const events = JSON.stringify(await eventsOf(user));
    expect(events).not.toContain(linkKey);
    expect(events).not.toContain(PASSCODE);
    const opened = await openManifest(share.shlink, { recipient: "coach", passcode: PASSCODE });
    expect(opened.status, opened.text).toBe(200);
    const bundle = decryptBundle(opened.body, share.shlink);
    const kinds = (bundle.entry ?? []).map((entry) => entry.resource.id.split("-")[0]).sort();
    // The day's steps and SpO2 (daily aggregates), the weight sample, the blood pressure panel, the workout, the daily summary and the meal.
    expect(kinds).toEqual(["bp", "daily", "day", "day", "nutrition", "qs", "workout"]);
    const logs = svc.logs.join("\n");
    expect(logs).not.toContain(PASSCODE);
    expect(logs).not.toContain(linkKey);
  });

  it("replays an Idempotency-Key without the link (it is shown once), one share and one event; 422 for another body", async () => {
    const user = await userWithRecords();
    const headers = { "Idempotency-Key": `share-${user}` };
    const expires_at = inDays(7);
    const first = await create(user, { passcode: PASSCODE, expires_at }, headers);
    const again = await svc.call(sharesPath(user), { key, body: shareBody({ passcode: PASSCODE, expires_at }), headers });
    expect(again.status, again.text).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    const { link, shlink, ...listed } = first;
    expect(link).toBeTypeOf("string");
    expect(shlink).toBeTypeOf("string");
    expect(again.body).toEqual({ ...listed, link: null, shlink: null });
    const records = await svc.db.idempotencyRecord.findMany({ where: { key: `share-${user}` } });
    expect(JSON.stringify(records)).not.toContain(parseShlink(shlink)!.key);
    expect(JSON.stringify(records)).not.toContain(PASSCODE);
    const other = await svc.call(sharesPath(user), { key, body: shareBody({ label: "Other", expires_at }), headers });
    expect(other.status, other.text).toBe(422);
    expect(await svc.db.share.count({ where: { userId: user } })).toBe(1);
    expect((await eventsOf(user, "share.created")).length).toBe(1);
  });

  it("answers 400 for invalid bodies and changes nothing", async () => {
    const user = await userWithRecords();
    const bad: Array<Record<string, unknown>> = [
      { label: "" },
      { label: "x".repeat(81) },
      { categories: [] },
      { categories: ["heart", "secrets"] },
      { start: "2026-03-02T00:00:00Z", end: "2026-03-02T00:00:00Z" },
      { start: "2026-03-03T00:00:00Z", end: "2026-03-02T00:00:00Z" },
      { start: "2025-01-01T00:00:00Z", end: "2026-01-03T00:00:00Z" },
      { start: "yesterday" },
      { expires_at: new Date(Date.now() - 1000).toISOString() },
      { expires_at: inDays(366) },
      { passcode: "12345" },
      { passcode: "x".repeat(65) },
      { link: "https://example.com" },
    ];
    for (const extra of bad) {
      const answer = await svc.call(sharesPath(user), { key, body: shareBody(extra) });
      expect(answer.status, `${JSON.stringify(extra)}: ${answer.text}`).toBe(400);
      expect(answer.headers.get("content-type")).toContain("application/problem+json");
      expect(answer.text).not.toContain("12345");
    }
    expect(await svc.db.share.count({ where: { userId: user } })).toBe(0);
    expect(await eventsOf(user)).toEqual([]);
  });

  it("answers 404 for another tenant's user and 413 when the share would be too large", async () => {
    const user = await userWithRecords();
    const foreign = await svc.call(sharesPath(user), { key: otherKey, body: shareBody() });
    expect(foreign.status).toBe(404);
    const tenant = (await svc.db.user.findUniqueOrThrow({ where: { id: user } })).tenantId;
    const deps = { db: svc.db, jobs, instance: { publicUrl: () => svc.url, fhirCodeSystemBase: () => `${svc.url}/fhir/CodeSystem` } } as unknown as CoreDeps;
    const input = { label: "big", categories: ["heart", "sleep"] as const, ...WINDOW, expires_at: inDays(1) };
    await expect(createShare(deps, tenant, user, input, { maxObservations: 2, maxBundleBytes: 1_000_000 })).rejects.toMatchObject({ status: 413 });
    await expect(createShare(deps, tenant, user, input, { maxObservations: 100, maxBundleBytes: 100 })).rejects.toMatchObject({ status: 413 });
    expect(await svc.db.share.count({ where: { userId: user } })).toBe(0);
  });
});

describe("share detail (issue 21)", () => {
  const LA = "America/Los_Angeles";
  const TZ_CODE = "http://hl7.org/fhir/StructureDefinition/tz-code";
  const la = (type: string, value: number, time: string, extra: Partial<QuantitySampleRecord> = {}) => sample(type, value, time, { timezone: LA, ...extra });
  const component = (observation: Observation, code: string) =>
    (observation.component ?? []).find((c: any) => c.code.coding.some((coding: any) => coding.system === "http://terminology.hl7.org/CodeSystem/observation-statistics" && coding.code === code));

  /** A Los Angeles user (UTC-8): samples around local midnights, a watch's ECG with voltages. */
  async function angeleno(): Promise<string> {
    const user = await createUser(svc, key);
    await writeSamples(svc, user, "withings", [
      // Feb 28 local (before the window's first local midnight but inside the window), then Mar 1 local.
      la("step_count", 100, "2026-03-01T07:30:00Z", { end_date: at("2026-03-01T07:40:00Z") }),
      la("step_count", 4000, "2026-03-01T18:00:00Z", { end_date: at("2026-03-01T18:30:00Z") }),
      la("step_count", 2500, "2026-03-02T05:00:00Z", { end_date: at("2026-03-02T05:20:00Z") }),
      la("step_count", 900, "2026-03-02T09:00:00Z", { end_date: at("2026-03-02T09:10:00Z") }),
      la("heart_rate", 58, "2026-03-01T09:00:00Z"),
      la("heart_rate", 64, "2026-03-01T20:00:00Z"),
      la("heart_rate", 121, "2026-03-02T02:00:00Z"),
      la("body_mass", 80.2, "2026-03-01T15:00:00Z"),
    ]);
    await writeEcg(svc, user, "apple_health", [
      { start_date: at("2026-03-01T19:00:00Z"), classification: "sinusRhythm", average_heart_rate: 66, sampling_frequency_hz: 512, voltages: [12.5, -3, 40.25], source: "apple", timezone: LA },
    ]);
    return user;
  }
  const WINDOW_LA = { start: "2026-03-01T07:00:00Z", end: "2026-03-02T10:00:00Z" };

  it("holds one aggregate per local day of the records' zone by default: counts summed, readings averaged with min and max", async () => {
    const user = await angeleno();
    const share = await create(user, { categories: ["activity", "heart", "body"], ...WINDOW_LA });
    const opened = await openManifest(share.shlink);
    expect(opened.status, opened.text).toBe(200);
    const bundle = decryptBundle(opened.body, share.shlink);
    expect(bundle.meta.tag).toEqual([{ system: `${svc.url}/fhir/CodeSystem/share-detail`, code: "daily" }]);
    expect(bundle._timestamp).toEqual({ extension: [{ url: TZ_CODE, valueCode: LA }] });
    expect(bundle.timestamp).toMatch(/[+-]0[78]:00$/);
    const byId = new Map((bundle.entry ?? []).map((entry) => [entry.resource.id, entry.resource]));
    expect([...byId.keys()].sort()).toEqual([
      "day-heart-rate-2026-03-01",
      "day-step-count-2026-02-28",
      "day-step-count-2026-03-01",
      "day-step-count-2026-03-02",
      expect.stringMatching(/^ecg-/),
      expect.stringMatching(/^qs-/),
    ]);
    expect(share.observations).toBe(6);

    // Mar 1 in Los Angeles: 4000 + 2500 steps (05:00Z on Mar 2 is 21:00 on Mar 1), summed.
    const steps = byId.get("day-step-count-2026-03-01")!;
    expect(steps.valueQuantity).toMatchObject({ value: 6500, system: "http://unitsofmeasure.org", code: "{steps}" });
    expect(steps.code.coding).toContainEqual({ system: "http://loinc.org", code: "55423-8" });
    expect(steps.effectivePeriod).toEqual({
      start: "2026-03-01T00:00:00-08:00",
      _start: { extension: [{ url: TZ_CODE, valueCode: LA }] },
      end: "2026-03-02T00:00:00-08:00",
      _end: { extension: [{ url: TZ_CODE, valueCode: LA }] },
    });
    expect(steps.meta.tag).toEqual([
      { system: `${svc.url}/fhir/CodeSystem/aggregate`, code: "day", display: "Daily aggregate of samples" },
      { system: "http://terminology.hl7.org/CodeSystem/observation-statistics", code: "sum", display: "Sum" },
      { system: `${svc.url}/fhir/CodeSystem/provider`, code: "withings" },
    ]);
    expect(component(steps, "count").valueInteger).toBe(2);
    expect(component(steps, "minimum")).toBeUndefined();
    // The first and last day are cut to the window.
    expect(byId.get("day-step-count-2026-02-28")!.effectivePeriod).toMatchObject({ start: "2026-02-28T23:00:00-08:00", end: "2026-03-01T00:00:00-08:00" });
    expect(byId.get("day-step-count-2026-02-28")!.valueQuantity.value).toBe(100);
    expect(byId.get("day-step-count-2026-03-02")!.effectivePeriod).toMatchObject({ start: "2026-03-02T00:00:00-08:00", end: "2026-03-02T02:00:00-08:00" });

    // Readings: the day's average, minimum, maximum and count.
    const heart = byId.get("day-heart-rate-2026-03-01")!;
    expect(heart.valueQuantity).toMatchObject({ value: 81, code: "/min" });
    expect(heart.meta.tag[1]).toMatchObject({ code: "average" });
    expect(component(heart, "minimum").valueQuantity.value).toBe(58);
    expect(component(heart, "maximum").valueQuantity.value).toBe(121);
    expect(component(heart, "count").valueInteger).toBe(3);
    expect(heart.category[0].coding[0].code).toBe("vital-signs");

    // Body measurements stay samples; an ECG keeps its summary without voltages.
    expect([...byId.values()].find((o) => o.id.startsWith("qs-"))!.valueQuantity.value).toBe(80.2);
    const ecg = [...byId.values()].find((o) => o.id.startsWith("ecg-"))!;
    expect(ecg.component.map((c: any) => c.code.text)).toEqual(["average_heart_rate"]);
    expect((await shareRow(share.id)).providers).toEqual(["apple_health", "withings"]);
    // Valid FHIR R4, the Bundle (its timestamp's zone) and every Observation.
    expect(fhirProblems(bundle)).toEqual([]);
    for (const observation of byId.values()) expect(fhirProblems(observation), observation.id).toEqual([]);
  });

  it("holds every sample and ECG voltage with full detail; an unknown detail is a 400", async () => {
    const user = await angeleno();
    const share = await create(user, { categories: ["activity", "heart"], ...WINDOW_LA, detail: "full" });
    const bundle = decryptBundle((await openManifest(share.shlink)).body, share.shlink);
    expect(bundle.meta.tag).toEqual([{ system: `${svc.url}/fhir/CodeSystem/share-detail`, code: "full" }]);
    const resources = (bundle.entry ?? []).map((entry) => entry.resource);
    expect(resources.filter((o) => o.id.startsWith("qs-"))).toHaveLength(7);
    expect(resources.find((o) => o.id.startsWith("ecg-"))!.component.map((c: any) => c.code.text)).toContain("ECG");
    const bad = await svc.call(sharesPath(user), { key, body: shareBody({ detail: "hourly" }) });
    expect(bad.status, bad.text).toBe(400);
    expect(await svc.db.share.count({ where: { userId: user } })).toBe(1);
  });

  it("agrees with the merged view of the samples list: every day's count and sum, several sources overlapping, at the window's edges", async () => {
    const user = await createUser(svc, key);
    // A deterministic pseudo-random walk (mulberry32).
    let seed = 21;
    const random = () => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    const streams = [
      { provider: "garmin", source: "garmin", device: "Forerunner", on_body: true },
      { provider: "apple_health", source: "apple", device: "Apple Watch", on_body: true },
      { provider: "apple_health", source: "apple", device: "iPhone", on_body: false },
      { provider: "withings", source: "withings", device: "ScanWatch", on_body: true },
    ];
    const from = Date.parse(WINDOW_LA.start) - 3_600_000;
    const to = Date.parse(WINDOW_LA.end) + 3_600_000;
    const byProvider = new Map<string, QuantitySampleRecord[]>();
    for (const stream of streams) {
      const records = byProvider.get(stream.provider) ?? [];
      byProvider.set(stream.provider, records);
      // Heart rate with gaps (worn on and off), steps over intervals of 1 to 20 minutes.
      for (let t = from; t < to; t += Math.floor(random() * 12 + 1) * 60_000 * (random() < 0.1 ? 8 : 1)) {
        records.push(la("heart_rate", 50 + Math.floor(random() * 60), new Date(t).toISOString(), { ...stream }));
      }
      for (let t = from; t < to; t += Math.floor(random() * 25 + 1) * 60_000) {
        const minutes = Math.floor(random() * 20) + 1;
        records.push(la("step_count", Math.floor(random() * 900), new Date(t).toISOString(), { ...stream, end_date: new Date(t + minutes * 60_000) }));
      }
    }
    for (const [provider, records] of byProvider) await writeSamples(svc, user, provider, records);

    const share = await create(user, { categories: ["activity", "heart"], ...WINDOW_LA });
    const bundle = decryptBundle((await openManifest(share.shlink)).body, share.shlink);
    const days = new Intl.DateTimeFormat("en-CA", { timeZone: LA, year: "numeric", month: "2-digit", day: "2-digit" });
    for (const type of ["heart_rate", "step_count"]) {
      const listed = await readAllPages<{ value: number; start_date: string }>(
        svc,
        `/v1/users/${user}/samples?type=${type}&view=merged&start=${WINDOW_LA.start}&end=${WINDOW_LA.end}`,
        key,
        1000,
      );
      const expected = new Map<string, { count: number; sum: number }>();
      for (const item of listed) {
        const day = days.format(new Date(item.start_date));
        const known = expected.get(day) ?? { count: 0, sum: 0 };
        expected.set(day, { count: known.count + 1, sum: known.sum + item.value });
      }
      const aggregates = (bundle.entry ?? []).map((entry) => entry.resource).filter((o) => o.code.text === type);
      const actual = new Map(
        aggregates.map((o) => {
          const count = component(o, "count").valueInteger as number;
          return [o.id.slice(-10), { count, sum: type === "step_count" ? o.valueQuantity.value : Math.round(o.valueQuantity.value * count) }];
        }),
      );
      expect(listed.length, type).toBeGreaterThan(100);
      expect(new Set(listed.map((item) => (item as unknown as { provider: string }).provider)).size, `${type}: sources kept`).toBeGreaterThan(1);
      expect(Object.fromEntries(actual), type).toEqual(Object.fromEntries(expected));
    }
  });

  it("counts days in UTC when no record carries a zone", async () => {
    const user = await createUser(svc, key);
    await writeSamples(svc, user, "withings", [sample("heart_rate", 60, "2026-03-01T07:00:00Z")]);
    const share = await create(user, { categories: ["heart"] });
    const bundle = decryptBundle((await openManifest(share.shlink)).body, share.shlink);
    expect(bundle._timestamp.extension[0].valueCode).toBe("UTC");
    expect(bundle.entry!.map((e) => e.resource.effectivePeriod)).toMatchObject([{ start: "2026-03-01T00:00:00+00:00", end: "2026-03-02T00:00:00+00:00" }]);
  });
});

describe("GET /v1/users/{id}/shares", () => {
  it("lists every share oldest first with every status, paged by created_at, listing fields only", async () => {
    const user = await userWithRecords();
    const a = await create(user, { label: "A" });
    const b = await create(user, { label: "B", passcode: PASSCODE });
    const c = await create(user, { label: "C" });
    await svc.call(`${sharesPath(user)}/${b.id}/revoke`, { key, method: "POST" });
    await svc.db.share.updateMany({ where: { id: c.id }, data: { expiresAt: new Date(Date.now() - 1000) } });

    const first = await svc.call(`${sharesPath(user)}?limit=2`, { key });
    expect(first.status, first.text).toBe(200);
    expect(first.body.data.map((s: any) => s.label)).toEqual(["A", "B"]);
    expect(first.body.next_cursor).toBeTypeOf("string");
    const second = await svc.call(`${sharesPath(user)}?limit=2&cursor=${encodeURIComponent(first.body.next_cursor)}`, { key });
    expect(second.body).toMatchObject({ data: [{ label: "C" }], next_cursor: null });
    const all = [...first.body.data, ...second.body.data];
    expect(all.map((s: any) => s.status)).toEqual(["active", "revoked", "expired"]);
    expect(all.map((s: any) => s.passcode)).toEqual([false, true, false]);
    expect(all[1]).toMatchObject({ id: b.id, revoked_reason: "owner" });
    for (const item of all) {
      expect(Object.keys(item).sort()).toEqual(
        ["accesses", "categories", "created_at", "end", "expires_at", "file_bytes", "id", "label", "last_accessed_at", "observations", "passcode", "passcode_failures", "revoked_at", "revoked_reason", "start", "status"].sort(),
      );
    }
    const { link: _l, shlink: _s, ...listedA } = a;
    expect(all[0]).toEqual(listedA);
    expect((await svc.call(`${sharesPath(user)}/${a.id}`, { key })).body).toEqual(listedA);
    expect((await svc.call(`${sharesPath(user)}?cursor=nope`, { key })).status).toBe(400);
    expect((await svc.call(sharesPath(user), { key: otherKey })).status).toBe(404);
    expect((await svc.call(`${sharesPath(user)}/${a.id}`, { key: otherKey })).status).toBe(404);
  });
});

describe("POST /v1/users/{id}/shares/{share_id}/revoke", () => {
  it("revokes with reason owner, drops the file, writes share.revoked once; opening answers 404", async () => {
    const user = await userWithRecords();
    const share = await create(user);
    const answer = await svc.call(`${sharesPath(user)}/${share.id}/revoke`, { key, method: "POST" });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toMatchObject({ id: share.id, status: "revoked", revoked_reason: "owner" });
    expect(answer.body.revoked_at).toBeTypeOf("string");
    expect((await shareRow(share.id)).file).toBeNull();
    const again = await svc.call(`${sharesPath(user)}/${share.id}/revoke`, { key, method: "POST" });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(answer.body);
    expect(await eventsOf(user, "share.revoked")).toEqual([
      { type: "share.revoked", data: { user_id: user, external_ref: null, share_id: share.id, reason: "owner" } },
    ]);
    const opened = await openManifest(share.shlink);
    expect(opened.status).toBe(404);
    expect(opened.headers.get("content-type")).toContain("application/problem+json");
    expect(opened.headers.get("access-control-allow-origin")).toBe("*");
    // The holder of the link learns that it was revoked, and why.
    expect(opened.body).toMatchObject({ status: 404, share_status: "revoked", revoked_reason: "owner", detail: "The person who shared this link revoked it." });
    expect((await svc.call(`${sharesPath(user)}/${share.id}/revoke`, { key: otherKey, method: "POST" })).status).toBe(404);
    expect((await svc.call(`${sharesPath(user)}/00000000-0000-4000-8000-000000000000/revoke`, { key, method: "POST" })).status).toBe(404);
  });

  it("revokes with reason consent through revokeSharesOf, only shares holding the provider and a category given", async () => {
    const user = await userWithRecords();
    const heart = await create(user, { categories: ["heart"] });
    const sleep = await create(user, { categories: ["sleep"] });
    const body = await create(user, { categories: ["body"] });
    const revoked = await svc.db.$transaction((tx) => revokeSharesOf(tx, { userId: user, provider: "withings", categories: ["heart", "body"] }, "consent", jobs));
    expect(revoked).toBe(2);
    const statuses = await svc.call(sharesPath(user), { key });
    expect(statuses.body.data.map((s: any) => [s.id, s.status, s.revoked_reason])).toEqual([
      [heart.id, "revoked", "consent"],
      [sleep.id, "active", null],
      [body.id, "revoked", "consent"],
    ]);
    expect((await eventsOf(user, "share.revoked")).map((e) => (e.data as any).reason)).toEqual(["consent", "consent"]);
    expect((await openManifest(heart.shlink)).status).toBe(404);
    expect((await openManifest(sleep.shlink)).status).toBe(200);
  });

  it("revokes with reason provider_erased when the provider's data erasure finishes", async () => {
    const user = await userWithRecords();
    const ecg = await create(user, { categories: ["heart"] });
    const sleep = await create(user, { categories: ["sleep"] });
    const erase = await svc.call(`/v1/users/${user}/data/apple_health`, { key, method: "DELETE" });
    expect(erase.status, erase.text).toBe(202);
    for (let i = 0; i < 150; i++) {
      const job = await svc.call(`/v1/deletions/${erase.body.job_id}`, { key });
      if (job.body.status === "done") break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const list = await svc.call(sharesPath(user), { key });
    expect(list.body.data.map((s: any) => [s.id, s.status, s.revoked_reason])).toEqual([
      [ecg.id, "revoked", "provider_erased"],
      [sleep.id, "active", null],
    ]);
    expect(await eventsOf(user, "share.revoked")).toEqual([
      { type: "share.revoked", data: { user_id: user, external_ref: null, share_id: ecg.id, reason: "provider_erased" } },
    ]);
  });
});

describe("POST /share/{share_id}/manifest", () => {
  it("counts every served file with share.accessed and answers CORS preflights", async () => {
    const user = await userWithRecords();
    const share = await create(user);
    const preflight = await fetch(`${svc.url}/share/${share.id}/manifest`, {
      method: "OPTIONS",
      headers: { origin: "https://viewer.example", "access-control-request-method": "POST", "access-control-request-headers": "content-type" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
    expect(preflight.headers.get("access-control-allow-headers")?.toLowerCase()).toContain("content-type");
    expect((await openManifest(share.shlink)).status).toBe(200);
    expect((await openManifest(share.shlink)).status).toBe(200);
    const listed = (await svc.call(`${sharesPath(user)}/${share.id}`, { key })).body;
    expect(listed.accesses).toBe(2);
    expect(listed.last_accessed_at).toBeTypeOf("string");
    expect(await eventsOf(user, "share.accessed")).toEqual([
      { type: "share.accessed", data: { user_id: user, external_ref: null, share_id: share.id } },
      { type: "share.accessed", data: { user_id: user, external_ref: null, share_id: share.id } },
    ]);
  });

  it("answers a short-lived location instead when the file is larger than embeddedLengthMax", async () => {
    const user = await userWithRecords();
    const share = await create(user);
    const opened = await openManifest(share.shlink, { recipient: "Dr. Lee", embeddedLengthMax: 10 });
    expect(opened.status, opened.text).toBe(200);
    const [file] = opened.body.files;
    expect(file.embedded).toBeUndefined();
    expect(file.location).toMatch(new RegExp(`^${svc.url}/share/${share.id}/file\\?t=`));
    expect((await svc.call(`${sharesPath(user)}/${share.id}`, { key })).body.accesses).toBe(0);
    const served = await fetch(file.location);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toContain("application/jose");
    const bundle = decryptBundle({ files: [{ contentType: file.contentType, embedded: await served.text() }] }, share.shlink);
    expect(bundle.entry).toHaveLength(3);
    expect((await svc.call(`${sharesPath(user)}/${share.id}`, { key })).body.accesses).toBe(1);
    expect((await fetch(`${svc.url}/share/${share.id}/file?t=forged`)).status).toBe(404);
    const other = await create(user);
    expect((await fetch(file.location.replace(share.id, other.id))).status).toBe(404);
  });

  it("locks a share after 10 wrong passcodes (revoked passcode_attempts); a missing passcode is not counted", async () => {
    const user = await userWithRecords();
    const share = await create(user, { passcode: PASSCODE });
    const missing = await openManifest(share.shlink);
    expect(missing.status).toBe(401);
    expect(missing.body.remainingAttempts).toBe(10);
    for (let attempt = 1; attempt <= 9; attempt++) {
      const wrong = await openManifest(share.shlink, { recipient: "x", passcode: `wrong-${attempt}` });
      expect(wrong.status).toBe(401);
      expect(wrong.headers.get("content-type")).toContain("application/problem+json");
      expect(wrong.body.remainingAttempts).toBe(10 - attempt);
    }
    expect((await svc.call(`${sharesPath(user)}/${share.id}`, { key })).body).toMatchObject({ passcode_failures: 9, status: "active" });
    const right = await openManifest(share.shlink, { recipient: "x", passcode: PASSCODE });
    expect(right.status).toBe(200);
    const last = await openManifest(share.shlink, { recipient: "x", passcode: "wrong-10" });
    expect(last.status).toBe(401);
    expect(last.body.remainingAttempts).toBe(0);
    expect((await svc.call(`${sharesPath(user)}/${share.id}`, { key })).body).toMatchObject({
      passcode_failures: 10,
      status: "revoked",
      revoked_reason: "passcode_attempts",
      accesses: 1,
    });
    expect((await shareRow(share.id)).file).toBeNull();
    expect(await eventsOf(user, "share.revoked")).toEqual([
      { type: "share.revoked", data: { user_id: user, external_ref: null, share_id: share.id, reason: "passcode_attempts" } },
    ]);
    const locked = await openManifest(share.shlink, { recipient: "x", passcode: PASSCODE });
    expect(locked.status).toBe(404);
    expect(locked.body).toMatchObject({ share_status: "revoked", revoked_reason: "passcode_attempts" });
    expect(svc.logs.join("\n")).not.toContain(PASSCODE);
  });

  it("answers 404 once expired, and for unknown ids; 400 for a body that is not a manifest request", async () => {
    const user = await userWithRecords();
    const share = await create(user);
    const bad = await fetch(`${svc.url}/share/${share.id}/manifest`, { method: "POST", headers: { "content-type": "application/json" }, body: "{" });
    expect(bad.status).toBe(400);
    const noRecipient = await fetch(`${svc.url}/share/${share.id}/manifest`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    expect(noRecipient.status).toBe(400);
    await svc.db.share.updateMany({ where: { id: share.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const expired = await openManifest(share.shlink);
    expect(expired.status).toBe(404);
    expect(expired.body).toMatchObject({ share_status: "expired", detail: "This link expired." });
    expect(expired.body.revoked_reason).toBeUndefined();
    expect((await svc.call(`${sharesPath(user)}/${share.id}`, { key })).body.status).toBe("expired");
    const unknown = await fetch(`${svc.url}/share/00000000-0000-4000-8000-000000000000/manifest`, { method: "POST", headers: { "content-type": "application/json" }, body: '{"recipient":"x"}' });
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as Record<string, unknown>).share_status).toBeUndefined();
    expect((await fetch(`${svc.url}/share/not-a-uuid/manifest`, { method: "POST", body: '{"recipient":"x"}' })).status).toBe(404);
    expect(await eventsOf(user, "share.accessed")).toEqual([]);
    // Revoking an expired share drops its file without share.revoked (it had already stopped).
    const revoked = await svc.call(`${sharesPath(user)}/${share.id}/revoke`, { key, method: "POST" });
    expect(revoked.body).toMatchObject({ status: "revoked", revoked_reason: "owner" });
    expect((await shareRow(share.id)).file).toBeNull();
    expect(await eventsOf(user, "share.revoked")).toEqual([]);
  });

  it("answers 404 once the user is being deleted", async () => {
    const user = await userWithRecords();
    const share = await create(user);
    await svc.db.user.update({ where: { id: user }, data: { status: "deleting" } });
    expect((await openManifest(share.shlink)).status).toBe(404);
  });
});

describe("shares and consent revoked meanwhile (review fixes)", () => {
  /** A revocation saved whose deletion job has not finished yet (its records are still stored). */
  async function revokedNotYetDeleted(user: string, provider: string, categories: string[]) {
    const tenantId = (await svc.db.user.findUniqueOrThrow({ where: { id: user } })).tenantId;
    for (const category of categories) await svc.db.sourceConsent.create({ data: { userId: user, provider, category, granted: false } });
    return svc.db.deletionJob.create({ data: { tenantId, userId: user, provider, categories }, select: { id: true } });
  }

  it("a share made after a revocation, before its job finished, holds none of the revoked data and is revoked when the job finishes", async () => {
    const user = await userWithRecords();
    const job = await revokedNotYetDeleted(user, "withings", ["heart"]);
    const share = await create(user, { categories: ["heart", "body"] });
    const opened = await openManifest(share.shlink);
    expect(opened.status, opened.text).toBe(200);
    const resources = (decryptBundle(opened.body, share.shlink).entry ?? []).map((entry) => entry.resource);
    // Withings' heart rate (still stored) is left out; its weight and apple_health's ECG stay.
    expect(resources.map((r) => r.id.split("-")[0]).sort()).toEqual(["ecg", "qs"]);
    expect(resources.find((r) => r.id.startsWith("qs-"))!.valueQuantity.value).toBe(72.4);
    expect(share.observations).toBe(2);

    await runConsentRevocation({ db: svc.db, jobs } as unknown as CoreDeps, job.id);
    expect(await svc.db.deletionJob.findUniqueOrThrow({ where: { id: job.id }, select: { status: true } })).toEqual({ status: "done" });
    expect((await svc.call(`${sharesPath(user)}/${share.id}`, { key })).body).toMatchObject({ status: "revoked", revoked_reason: "consent" });
    expect((await shareRow(share.id)).file).toBeNull();
    expect(await eventsOf(user, "share.revoked")).toEqual([
      { type: "share.revoked", data: { user_id: user, external_ref: null, share_id: share.id, reason: "consent" } },
    ]);
    expect((await openManifest(share.shlink)).status).toBe(404);
  });

  it("an owner revoke racing revokeSharesOf writes one share.revoked per share and keeps the first reason", async () => {
    for (let round = 0; round < 10; round++) {
      const user = await userWithRecords();
      const share = await create(user, { categories: ["heart"] });
      const [owner] = await Promise.all([
        svc.call(`${sharesPath(user)}/${share.id}/revoke`, { key, method: "POST" }),
        svc.db.$transaction((tx) => revokeSharesOf(tx, { userId: user, provider: "withings", categories: ["heart"] }, "consent", jobs)),
      ]);
      expect(owner.status, owner.text).toBe(200);
      const events = await eventsOf(user, "share.revoked");
      expect(events, `round ${round}`).toHaveLength(1);
      const reason = (events[0]!.data as { reason: string }).reason;
      expect((await shareRow(share.id)).revokedReason).toBe(reason);
      expect((await svc.call(`${sharesPath(user)}/${share.id}`, { key })).body.revoked_reason).toBe(reason);
    }
  });

  it("keeps only the daily summary figures of the categories shared; a summary left with none is not in the file", async () => {
    const user = await createUser(svc, key);
    await writeDaily(svc, user, "garmin", [
      { date: "2026-03-01", steps: 11_000, resting_heart_rate: 52, hrv_rmssd: 41, sleep_seconds: 27_000, score: 80, source: "garmin" },
      { date: "2026-02-28", steps: 9_000, source: "garmin" },
    ]);
    const figuresOf = async (categories: string[]) => {
      const share = await create(user, { categories });
      const opened = await openManifest(share.shlink);
      expect(opened.status, opened.text).toBe(200);
      const daily = (decryptBundle(opened.body, share.shlink).entry ?? []).map((e) => e.resource).filter((r) => r.id.startsWith("daily-"));
      expect(share.observations).toBe(daily.length);
      return daily.map((r) => (r.component ?? []).map((c: { code: { text: string } }) => c.code.text).sort());
    };
    expect(await figuresOf(["heart"])).toEqual([["hrv_rmssd", "resting_heart_rate"]]);
    expect(await figuresOf(["sleep"])).toEqual([["sleep_seconds"]]);
    expect(await figuresOf(["activity"])).toEqual([["steps"], ["score", "steps"]]);
    expect(await figuresOf(["heart", "sleep"])).toEqual([["hrv_rmssd", "resting_heart_rate", "sleep_seconds"]]);
    expect(await figuresOf(["body"])).toEqual([]);
    // A revoked category of the source is left out of a share made before its job deleted it.
    await revokedNotYetDeleted(user, "garmin", ["heart"]);
    expect(await figuresOf(["heart", "sleep"])).toEqual([["sleep_seconds"]]);
  });
});
