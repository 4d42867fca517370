import { existsSync } from "node:fs";
import path from "node:path";
import { setTenantProviderSwitch } from "@svc/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { providerRecordCounts, PROVIDER_RECORD_TABLES } from "../helpers/provider-record-counts.ts";
import { startTestService, type TestService } from "../helpers/test-service.ts";
import { createUser, mintToken, writeNutrition } from "../helpers/records.ts";
import { uploadAndProcess, uploadNdjson, waitForDeletionJob } from "../helpers/uploads.ts";

// DELETE /v1/users/{id}/data/{provider}: the provider's data of one user goes (rows, raw
// files), other providers and other users stay; uploads are 409 meanwhile; data.erased ends it.

let svc: TestService;
let key: string;

beforeAll(async () => {
  svc = await startTestService();
  key = (await svc.createTenant()).api_key;
});
afterAll(() => svc?.stop());

const counts = (user: string, provider: string) => providerRecordCounts(svc, user, provider);

/** Rows of the parts (cascaded from their parents) of a user. */
async function partCounts(user: string) {
  const [row] = await svc.db.$queryRaw<Array<Record<string, bigint>>>`
    SELECT
      (SELECT count(*) FROM sleep_phases p JOIN sleep_sessions s ON s.id = p.session_id WHERE s.user_id = ${user}::uuid) AS sleep_phases,
      (SELECT coalesce(sum(p.point_count), 0) FROM workout_route_chunks p JOIN workouts w ON w.id = p.workout_id WHERE w.user_id = ${user}::uuid) AS route_points,
      (SELECT coalesce(sum(interval_count), 0) FROM rr_interval_chunks WHERE user_id = ${user}::uuid) AS rr_intervals,
      (SELECT count(*) FROM ecg_voltages v JOIN ecg_recordings e ON e.id = v.recording_id WHERE e.user_id = ${user}::uuid) AS ecg_voltages,
      (SELECT count(*) FROM menstrual_cycles WHERE user_id = ${user}::uuid) AS menstrual_cycles`;
  return Object.fromEntries(Object.entries(row!).map(([k, v]) => [k, Number(v)]));
}

const source = { name: "Watch", bundle_id: "com.apple.health.watch" };
const appleLines = [
  { kind: "quantity", uuid: "Q-STEPS", type: "HKQuantityTypeIdentifierStepCount", value: 500, unit: "count", start: "2024-03-01T08:00:00Z", end: "2024-03-01T08:10:00Z", timezone: "Europe/Berlin", source },
  { kind: "quantity", uuid: "Q-HR", type: "HKQuantityTypeIdentifierHeartRate", value: 61, unit: "count/min", start: "2024-03-01T08:00:00Z", source },
  { kind: "quantity", uuid: "Q-KCAL", type: "HKQuantityTypeIdentifierDietaryEnergyConsumed", value: 300, unit: "kcal", start: "2024-03-01T12:00:00Z", source },
  { kind: "category", uuid: "C-FLOW", type: "HKCategoryTypeIdentifierMenstrualFlow", value: 3, start: "2024-03-01T00:00:00Z", end: "2024-03-02T00:00:00Z", metadata: { HKMenstrualCycleStart: true }, source },
  { kind: "category", uuid: "C-SLEEP", type: "HKCategoryTypeIdentifierSleepAnalysis", value: 3, start: "2024-03-01T00:00:00Z", end: "2024-03-01T01:00:00Z", source },
  { kind: "workout", uuid: "W", type: "HKWorkoutTypeIdentifier", activity_type: 37, start: "2024-03-01T08:00:00Z", end: "2024-03-01T09:00:00Z", route: [{ timestamp: "2024-03-01T08:00:00Z", latitude: 1, longitude: 2 }], source },
  { kind: "ecg", uuid: "E", type: "HKDataTypeIdentifierElectrocardiogram", start: "2024-03-01T08:00:00Z", sampling_frequency: 512, voltages: [1, 2], source },
  { kind: "heartbeat_series", uuid: "H", type: "HKDataTypeIdentifierHeartbeatSeries", start: "2024-03-01T08:00:00Z", beats: [{ time_since_start: 0 }, { time_since_start: 1 }, { time_since_start: 2 }], source },
  { kind: "quantity", uuid: "Q-BAD", type: "HKQuantityTypeIdentifierHeartRate", value: 61, unit: "furlong", start: "2024-03-01T08:00:00Z", source },
  { kind: "deleted", uuid: "Q-GONE", type: "HKQuantityTypeIdentifierStepCount" },
];
const heartRateLine = (bpm: number, at: string) =>
  JSON.stringify({ characteristic: "2a37", value: `00${bpm.toString(16).padStart(2, "0")}`, received_at: at, device: "HRM-Pro" });

describe("DELETE /v1/users/{id}/data/{provider}", () => {
  it("erases every row and raw file of the user and provider, keeps the rest, and ends with data.erased", async () => {
    const user = await createUser(svc, key);
    const token = await mintToken(svc, key, user, ["upload"]);
    const other = await createUser(svc, key);
    const otherToken = await mintToken(svc, key, other, ["upload"]);
    const apple = await uploadAndProcess(svc, token, "apple-health", appleLines);
    await uploadAndProcess(svc, token, "bluetooth", [heartRateLine(70, "2024-03-01T10:00:00Z")]);
    await uploadAndProcess(svc, otherToken, "apple-health", appleLines);
    // Apple Health uploads bring no nutrition logs: one through the ETL's writer.
    const meal = { start_date: new Date("2024-03-01T12:00:00Z"), end_date: new Date("2024-03-01T12:15:00Z"), meal_type: "lunch", name: "soup", energy_kcal: 300, external_id: "m-1" };
    await writeNutrition(svc, user, "apple_health", [meal]);

    const before = await counts(user, "apple_health");
    for (const table of PROVIDER_RECORD_TABLES) expect(before[table], table).toBeGreaterThan(0);
    const partsBefore = await partCounts(user);
    for (const [part, n] of Object.entries(partsBefore)) expect(n, part).toBeGreaterThan(0);
    const keptOther = await counts(other, "apple_health");
    const keptBluetooth = await counts(user, "bluetooth");
    const rawFile = path.join(svc.dataDir, "raw", user, apple.id);
    expect(existsSync(rawFile)).toBe(true);

    const answer = await svc.call(`/v1/users/${user}/data/apple_health`, { method: "DELETE", key });
    expect(answer.status, answer.text).toBe(202);
    expect(answer.body).toMatchObject({ user_id: user, provider: "apple_health" });
    const done = await waitForDeletionJob(svc, key, answer.body.job_id);
    expect(done.body).toMatchObject({ job_id: answer.body.job_id, user_id: user, provider: "apple_health", status: "done" });
    expect(done.body.finished_at).not.toBeNull();

    expect(Object.values(await counts(user, "apple_health")).every((n) => n === 0), JSON.stringify(await counts(user, "apple_health"))).toBe(true);
    const partsAfter = await partCounts(user);
    expect(partsAfter).toMatchObject({ sleep_phases: 0, route_points: 0, ecg_voltages: 0, menstrual_cycles: 0 });
    expect(existsSync(rawFile)).toBe(false);
    expect(await counts(other, "apple_health")).toEqual(keptOther);
    expect((await partCounts(other)).menstrual_cycles).toBe(partsBefore.menstrual_cycles);
    expect(await counts(user, "bluetooth")).toEqual(keptBluetooth);
    expect((await svc.call(`/v1/users/${user}/samples?type=heart_rate&view=all`, { key })).body.data).toHaveLength(1);

    const erased = await svc.db.outboxEvent.findMany({ where: { userId: user, type: "data.erased" } });
    expect(erased.map((event) => event.data)).toEqual([{ user_id: user, external_ref: null, provider: "apple_health", job_id: answer.body.job_id }]);
    // Afterwards new data of the provider is accepted again.
    expect((await uploadNdjson(svc, token, "apple-health", [appleLines[1]])).status).toBe(202);
  });

  it("404 for a provider unknown to this build, a user of another tenant or a user being deleted", async () => {
    const user = await createUser(svc, key);
    const unknown = await svc.call(`/v1/users/${user}/data/no_such_provider`, { method: "DELETE", key });
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get("content-type")).toContain("application/problem+json");
    const otherKey = (await svc.createTenant()).api_key;
    expect((await svc.call(`/v1/users/${user}/data/bluetooth`, { method: "DELETE", key: otherKey })).status).toBe(404);
    expect((await svc.call(`/v1/users/${user}`, { method: "DELETE", key })).status).toBe(202);
    expect((await svc.call(`/v1/users/${user}/data/bluetooth`, { method: "DELETE", key })).status).toBe(404);
    expect(await svc.db.deletionJob.count({ where: { userId: user, provider: { not: null } } })).toBe(0);
  });

  it("self_report erasure removes the reported samples and stored idempotent answers", async () => {
    const user = await createUser(svc, key);
    const report = await svc.call(`/v1/users/${user}/self-reports`, {
      key,
      body: { reports: [{ kind: "mood", value: 4, start_at: "2024-03-01T08:00:00Z" }] },
      headers: { "idempotency-key": "report-1" },
    });
    expect(report.status, report.text).toBeLessThan(300);
    expect((await counts(user, "self_report")).quantity_samples).toBe(1);
    const answer = await svc.call(`/v1/users/${user}/data/self_report`, { method: "DELETE", key });
    expect(answer.status).toBe(202);
    expect((await waitForDeletionJob(svc, key, answer.body.job_id)).body.status).toBe("done");
    expect((await counts(user, "self_report")).quantity_samples).toBe(0);
    expect(await svc.db.idempotencyRecord.count({ where: { userId: user } })).toBe(0);
  });
});

describe("the erasure window (API role only: the job stays pending)", () => {
  let api: TestService;
  let apiKey: string;
  beforeAll(async () => {
    api = await startTestService({ SVC_ROLE: "api" });
    apiKey = (await api.createTenant()).api_key;
  });
  afterAll(() => api?.stop());

  it("answers the same job on a repeat and refuses uploads and self reports of that provider with 409", async () => {
    const user = (await api.call("/v1/users", { key: apiKey, body: {} })).body.id as string;
    const token = (await api.call(`/v1/users/${user}/tokens`, { key: apiKey, body: { scopes: ["upload"] } })).body.token as string;
    const first = await api.call(`/v1/users/${user}/data/bluetooth`, { method: "DELETE", key: apiKey });
    expect(first.status, first.text).toBe(202);
    expect(first.body).toMatchObject({ user_id: user, provider: "bluetooth", status: "pending", finished_at: null });
    const again = await api.call(`/v1/users/${user}/data/bluetooth`, { method: "DELETE", key: apiKey });
    expect(again.status).toBe(202);
    expect(again.body.job_id).toBe(first.body.job_id);
    expect(await api.db.deletionJob.count({ where: { userId: user } })).toBe(1);

    const refused = await api.call("/v1/ingest/bluetooth", {
      method: "POST",
      rawBody: heartRateLine(60, "2024-03-01T10:00:00Z"),
      headers: { authorization: `Bearer ${token}`, "content-type": "application/x-ndjson" },
    });
    expect(refused.status).toBe(409);
    expect(await api.db.rawObject.count({ where: { userId: user } })).toBe(0);
    // Another provider of the same user is not in the window.
    const hc = await api.call("/v1/ingest/health-connect", {
      method: "POST",
      rawBody: "",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/x-ndjson" },
    });
    expect(hc.status).not.toBe(409);

    await api.call(`/v1/users/${user}/data/self_report`, { method: "DELETE", key: apiKey });
    const report = await api.call(`/v1/users/${user}/self-reports`, {
      key: apiKey,
      body: { reports: [{ kind: "mood", value: 4, start_at: "2024-03-01T08:00:00Z" }] },
    });
    expect(report.status).toBe(409);
  });
});

describe("GET /v1/providers", () => {
  it("lists the device providers, leaving out one switched off for the tenant", async () => {
    const answer = await svc.call("/v1/providers", { key });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.next_cursor).toBeNull();
    const devices = answer.body.data.filter((p: { kind: string }) => p.kind === "device");
    expect(devices.map((p: { slug: string }) => p.slug)).toEqual(["apple_health", "health_connect", "xiaomi", "activity_files", "bluetooth", "self_report"]);
    expect(answer.body.data[0]).toEqual({
      slug: "apple_health",
      name: "Apple Health",
      kind: "device",
      data_types: expect.arrayContaining(["activity", "sleep"]),
    });

    const tenant = await svc.createTenant();
    await setTenantProviderSwitch(svc.db, tenant.tenant_id, "xiaomi", false);
    const slugs = (await svc.call("/v1/providers", { key: tenant.api_key })).body.data.map((p: { slug: string }) => p.slug);
    expect(slugs).not.toContain("xiaomi");
    expect(slugs).toContain("bluetooth");
    expect((await svc.call("/v1/providers", { key: (await svc.createTenant()).api_key })).body.data).toHaveLength(answer.body.data.length);
  });
});
