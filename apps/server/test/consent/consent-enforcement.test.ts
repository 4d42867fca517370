import { DAILY_TOTAL_TYPES, categoryOfCategoryType, categoryOfQuantityType, emptyParsedRecords, noChanges, writeParsedRecords } from "@svc/core";
import { Prisma } from "@svc/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, mintToken, writeDaily, writeNutrition } from "../helpers/records.ts";
import { providerRecordCounts } from "../helpers/provider-record-counts.ts";
import { startTestService, type TestService } from "../helpers/test-service.ts";
import { uploadAndProcess, uploadNdjson, waitForDeletionJob } from "../helpers/uploads.ts";

// What a revocation does to stored data (the consent-revoke job) and to data arriving
// afterwards (uploads skip revoked categories, self reports are refused), on the full service.

let svc: TestService;
let key: string;

beforeAll(async () => {
  svc = await startTestService();
  key = (await svc.createTenant()).api_key;
});
afterAll(() => svc?.stop());

const counts = (user: string, provider: string) => providerRecordCounts(svc, user, provider);

/** Stored sample types of the user and provider: quantity and category, with their streams. */
async function typesOf(user: string, provider: string) {
  const types = async (table: string) =>
    (
      await svc.db.$queryRaw<Array<{ type: string }>>`
        SELECT DISTINCT type FROM ${Prisma.raw(table)} WHERE user_id = ${user}::uuid AND provider = ${provider} ORDER BY type`
    ).map((row) => row.type);
  // Category samples name their type and provider in their series.
  const category = (
    await svc.db.$queryRaw<Array<{ type: string }>>`
      SELECT DISTINCT r.type FROM category_samples s JOIN category_sample_series r ON r.user_id = s.user_id AND r.id = s.series_id
      WHERE r.user_id = ${user}::uuid AND r.provider = ${provider} ORDER BY r.type`
  ).map((row) => row.type);
  return { quantity: await types("quantity_samples"), streams: await types("quantity_sample_streams"), category };
}

const menstrualCycles = (user: string) => svc.db.menstrualCycle.count({ where: { userId: user } });

async function revokeAndWait(user: string, provider: string, categories: string[]) {
  const answer = await svc.call(`/v1/users/${user}/consents/${provider}/revoke`, { key, body: { categories } });
  expect(answer.status, answer.text).toBe(202);
  const done = await waitForDeletionJob(svc, key, answer.body.job.job_id);
  expect(done.body).toMatchObject({ job_id: answer.body.job.job_id, provider, status: "done" });
  expect(done.body.finished_at).not.toBeNull();
  return answer;
}

const source = { name: "Watch", bundle_id: "com.apple.health.watch" };
const appleLines = [
  { kind: "quantity", uuid: "Q-STEPS", type: "HKQuantityTypeIdentifierStepCount", value: 500, unit: "count", start: "2024-03-01T08:00:00Z", end: "2024-03-01T08:10:00Z", source },
  { kind: "quantity", uuid: "Q-HR", type: "HKQuantityTypeIdentifierHeartRate", value: 61, unit: "count/min", start: "2024-03-01T08:00:00Z", source },
  { kind: "quantity", uuid: "Q-KCAL", type: "HKQuantityTypeIdentifierDietaryEnergyConsumed", value: 300, unit: "kcal", start: "2024-03-01T12:00:00Z", source },
  { kind: "category", uuid: "C-FLOW", type: "HKCategoryTypeIdentifierMenstrualFlow", value: 3, start: "2024-03-01T00:00:00Z", end: "2024-03-02T00:00:00Z", metadata: { HKMenstrualCycleStart: true }, source },
  { kind: "category", uuid: "C-SLEEP", type: "HKCategoryTypeIdentifierSleepAnalysis", value: 3, start: "2024-03-01T00:00:00Z", end: "2024-03-01T01:00:00Z", source },
  { kind: "workout", uuid: "W", type: "HKWorkoutTypeIdentifier", activity_type: 37, start: "2024-03-01T08:00:00Z", end: "2024-03-01T09:00:00Z", route: [{ timestamp: "2024-03-01T08:00:00Z", latitude: 1, longitude: 2 }], source },
  { kind: "ecg", uuid: "E", type: "HKDataTypeIdentifierElectrocardiogram", start: "2024-03-01T08:00:00Z", sampling_frequency: 512, voltages: [1, 2], source },
  { kind: "heartbeat_series", uuid: "H", type: "HKDataTypeIdentifierHeartbeatSeries", start: "2024-03-01T08:00:00Z", beats: [{ time_since_start: 0 }, { time_since_start: 1 }, { time_since_start: 2 }], source },
];
const heartRateLine = (bpm: number, at: string) => ({ characteristic: "2a37", value: `00${bpm.toString(16).padStart(2, "0")}`, received_at: at, device: "HRM-Pro" });

describe("a revocation's deletion job", () => {
  it("deletes exactly the revoked categories of that source; other categories, sources and users stay", async () => {
    const user = await createUser(svc, key);
    const token = await mintToken(svc, key, user, ["upload"]);
    const other = await createUser(svc, key);
    await uploadAndProcess(svc, token, "apple-health", appleLines);
    await uploadAndProcess(svc, token, "bluetooth", [heartRateLine(70, "2024-03-01T10:00:00Z")]);
    await uploadAndProcess(svc, await mintToken(svc, key, other, ["upload"]), "apple-health", appleLines);
    const meal = { start_date: new Date("2024-03-01T12:00:00Z"), end_date: new Date("2024-03-01T12:15:00Z"), meal_type: "lunch", name: "soup", energy_kcal: 300, external_id: "m-1" };
    await writeNutrition(svc, user, "apple_health", [meal]);

    const before = await counts(user, "apple_health");
    for (const table of ["sleep_sessions", "workouts", "nutrition_logs", "daily_summaries", "heartbeat_series", "ecg_recordings"]) {
      expect(before[table], table).toBeGreaterThan(0);
    }
    const typesBefore = await typesOf(user, "apple_health");
    expect(typesBefore.quantity).toEqual(expect.arrayContaining(["heart_rate", "step_count", "dietary_energy_consumed"]));
    expect(typesBefore.category).toEqual(expect.arrayContaining(["menstrual_flow"]));
    expect(await menstrualCycles(user)).toBeGreaterThan(0);
    const keptOther = await counts(other, "apple_health");
    const keptBluetooth = await counts(user, "bluetooth");
    const otherCycles = await menstrualCycles(other);

    await revokeAndWait(user, "apple_health", ["heart", "sleep", "cycle"]);

    const after = await counts(user, "apple_health");
    expect(after).toMatchObject({
      sleep_sessions: 0,
      heartbeat_series: 0,
      ecg_recordings: 0,
      workouts: before.workouts,
      nutrition_logs: before.nutrition_logs,
      daily_summaries: before.daily_summaries,
      raw_objects: before.raw_objects,
      rejected_records: before.rejected_records,
    });
    const typesAfter = await typesOf(user, "apple_health");
    const revoked = ["heart", "sleep", "cycle"];
    const kept = (types: string[], categoryOf: (type: string) => string | null) => types.filter((type) => !revoked.includes(categoryOf(type) ?? ""));
    expect(typesBefore.category.length).toBeGreaterThan(kept(typesBefore.category, categoryOfCategoryType).length);
    expect(typesAfter.quantity).toEqual(kept(typesBefore.quantity, categoryOfQuantityType));
    expect(typesAfter.category).toEqual(kept(typesBefore.category, categoryOfCategoryType));
    expect(typesAfter.quantity).not.toContain("heart_rate");
    expect(typesAfter.quantity).toEqual(expect.arrayContaining(["step_count", "dietary_energy_consumed"]));
    expect(typesAfter.streams).toEqual(typesAfter.quantity);
    expect(typesAfter.category).not.toContain("menstrual_flow");
    expect(await menstrualCycles(user)).toBe(0);
    const parts = await svc.db.$queryRaw<Array<{ rr: bigint; phases: bigint; voltages: bigint }>>`
      SELECT (SELECT count(*) FROM rr_interval_chunks WHERE user_id = ${user}::uuid) AS rr,
        (SELECT count(*) FROM sleep_phases p JOIN sleep_sessions s ON s.id = p.session_id WHERE s.user_id = ${user}::uuid) AS phases,
        (SELECT count(*) FROM ecg_voltages v JOIN ecg_recordings e ON e.id = v.recording_id WHERE e.user_id = ${user}::uuid) AS voltages`;
    expect(parts[0]).toEqual({ rr: 0n, phases: 0n, voltages: 0n });

    expect(await counts(other, "apple_health")).toEqual(keptOther);
    expect(await menstrualCycles(other)).toBe(otherCycles);
    expect(await counts(user, "bluetooth")).toEqual(keptBluetooth);
    const heart = await svc.call(`/v1/users/${user}/samples?type=heart_rate&view=all`, { key });
    expect(heart.body.data.map((s: { provider: string }) => s.provider)).toEqual(["bluetooth"]);
  });

  it("revoking activity deletes the source's activity samples and its daily summaries (derived ones too)", async () => {
    // Derived daily totals come from activity samples only: revoking another category never leaves them stale.
    expect(DAILY_TOTAL_TYPES.every((type) => categoryOfQuantityType(type) === "activity")).toBe(true);
    const user = await createUser(svc, key);
    const token = await mintToken(svc, key, user, ["upload"]);
    await uploadAndProcess(svc, token, "apple-health", appleLines);
    expect((await counts(user, "apple_health")).daily_summaries).toBeGreaterThan(0);
    await revokeAndWait(user, "apple_health", ["activity"]);
    expect((await counts(user, "apple_health")).daily_summaries).toBe(0);
    expect((await typesOf(user, "apple_health")).quantity).not.toContain("step_count");
    expect((await typesOf(user, "apple_health")).quantity).toContain("heart_rate");
  });
});

describe("daily summaries and consent (their figures belong to activity, heart and sleep)", () => {
  const dailyOf = async (user: string, provider: string) =>
    (
      await svc.db.dailySummary.findMany({
        where: { userId: user, provider },
        orderBy: { date: "asc" },
        select: { date: true, steps: true, restingHeartRate: true, averageHeartRate: true, hrvRmssd: true, sleepSeconds: true, score: true },
      })
    ).map(({ date, ...figures }) => ({ date: date.toISOString().slice(0, 10), ...figures }));

  it("revoking heart, then sleep, clears those figures of the source's daily summaries and deletes summaries left with none", async () => {
    const user = await createUser(svc, key);
    const full = { steps: 9_000, resting_heart_rate: 52, average_heart_rate: 70, hrv_rmssd: 41, sleep_seconds: 27_000, score: 80, source: "garmin" };
    await writeDaily(svc, user, "garmin", [
      { date: "2024-03-01", ...full },
      { date: "2024-03-02", resting_heart_rate: 50, hrv_rmssd: 40, source: "garmin" },
      { date: "2024-03-03", sleep_seconds: 25_000, source: "garmin" },
    ]);
    await writeDaily(svc, user, "oura", [{ date: "2024-03-01", ...full, source: "oura" }]);
    const oura = await dailyOf(user, "oura");

    await revokeAndWait(user, "garmin", ["heart"]);
    const noHeart = { restingHeartRate: null, averageHeartRate: null, hrvRmssd: null };
    expect(await dailyOf(user, "garmin")).toEqual([
      { date: "2024-03-01", steps: 9_000, ...noHeart, sleepSeconds: 27_000, score: 80 },
      { date: "2024-03-03", steps: null, ...noHeart, sleepSeconds: 25_000, score: null },
    ]);
    await revokeAndWait(user, "garmin", ["sleep"]);
    expect(await dailyOf(user, "garmin")).toEqual([{ date: "2024-03-01", steps: 9_000, ...noHeart, sleepSeconds: null, score: 80 }]);
    expect(await dailyOf(user, "oura")).toEqual(oura);
  });

  it("incoming daily summaries lose the figures of revoked categories; one left with none is skipped", async () => {
    const user = await createUser(svc, key);
    await revokeAndWait(user, "garmin", ["heart", "sleep"]);
    const changes = noChanges();
    const records = {
      ...emptyParsedRecords(),
      dailySummaries: [
        { date: "2024-03-04", steps: 100, resting_heart_rate: 60, hrv_rmssd: 30, sleep_seconds: 3_600, score: 70, source: "garmin" },
        { date: "2024-03-05", resting_heart_rate: 61, sleep_seconds: 3_000, source: "garmin" },
      ],
    };
    await svc.db.$transaction((tx) => writeParsedRecords(tx, { userId: user, provider: "garmin" }, records, changes));
    expect(changes).toMatchObject({ skipped: 1, rejected: 0, records: { daily_summaries: 1 } });
    expect(await dailyOf(user, "garmin")).toEqual([
      { date: "2024-03-04", steps: 100, restingHeartRate: null, averageHeartRate: null, hrvRmssd: null, sleepSeconds: null, score: 70 },
    ]);
  });
});

describe("data arriving after a revocation", () => {
  it("uploads skip the revoked categories (counted as skipped, not rejected) until granted again", async () => {
    const user = await createUser(svc, key);
    const token = await mintToken(svc, key, user, ["upload"]);
    await revokeAndWait(user, "apple_health", ["heart"]);
    const skipped = await uploadAndProcess(svc, token, "apple-health", appleLines);
    expect(skipped.summary).toMatchObject({ rejected: 0, skipped_without_consent: expect.any(Number) });
    const stored = await counts(user, "apple_health");
    expect(stored).toMatchObject({ heartbeat_series: 0, ecg_recordings: 0, rejected_records: 0 });
    expect(stored.workouts).toBeGreaterThan(0);
    expect((await typesOf(user, "apple_health")).quantity).not.toContain("heart_rate");
    expect((await typesOf(user, "apple_health")).quantity).toContain("step_count");
    // Another source of the same category is stored.
    await uploadAndProcess(svc, token, "bluetooth", [heartRateLine(70, "2024-03-01T10:00:00Z")]);
    expect((await counts(user, "bluetooth")).quantity_samples).toBe(1);

    const granted = await svc.call(`/v1/users/${user}/consents/apple_health/grant`, { key, body: { categories: ["heart"] } });
    expect(granted.status, granted.text).toBe(200);
    const again = await uploadAndProcess(svc, token, "apple-health", appleLines.map((line) => ({ ...line, uuid: `${line.uuid}-2` })));
    expect(again.summary).not.toHaveProperty("skipped_without_consent");
    expect(await counts(user, "apple_health")).toMatchObject({ heartbeat_series: 1, ecg_recordings: 1 });
    expect((await typesOf(user, "apple_health")).quantity).toContain("heart_rate");
  });

  it("an upload of nothing but revoked records stores nothing and sends no data.written", async () => {
    const user = await createUser(svc, key);
    const token = await mintToken(svc, key, user, ["upload"]);
    await revokeAndWait(user, "bluetooth", ["heart"]);
    const raw = await uploadAndProcess(svc, token, "bluetooth", [heartRateLine(70, "2024-03-01T10:00:00Z")]);
    expect(raw.summary).toMatchObject({ records: {}, rejected: 0, skipped_without_consent: 1 });
    expect((await counts(user, "bluetooth")).quantity_samples).toBe(0);
    expect(await svc.db.outboxEvent.count({ where: { userId: user, type: "data.written" } })).toBe(0);
  });

  it("self reports answer 409 and store nothing while reported is revoked for self_report", async () => {
    const user = await createUser(svc, key);
    const body = { reports: [{ kind: "mood", value: 4, start_at: "2024-03-01T08:00:00Z" }] };
    await revokeAndWait(user, "self_report", ["reported"]);
    const refused = await svc.call(`/v1/users/${user}/self-reports`, { key, body });
    expect(refused.status, refused.text).toBe(409);
    expect(refused.headers.get("content-type")).toContain("application/problem+json");
    expect((await counts(user, "self_report")).quantity_samples).toBe(0);
    // Revoking reported of another source does not touch self reports.
    const otherUser = await createUser(svc, key);
    await revokeAndWait(otherUser, "oura", ["reported"]);
    expect((await svc.call(`/v1/users/${otherUser}/self-reports`, { key, body })).status).toBe(202);

    expect((await svc.call(`/v1/users/${user}/consents/self_report/grant`, { key, body: { categories: ["reported"] } })).status).toBe(200);
    expect((await svc.call(`/v1/users/${user}/self-reports`, { key, body })).status).toBe(202);
    expect((await counts(user, "self_report")).quantity_samples).toBe(1);
  });

  it("a revocation's job does not count as an erasure: uploads of the source are accepted meanwhile", async () => {
    const user = await createUser(svc, key);
    const token = await mintToken(svc, key, user, ["upload"]);
    await svc.db.deletionJob.create({
      data: { tenantId: (await svc.db.user.findUniqueOrThrow({ where: { id: user } })).tenantId, userId: user, provider: "bluetooth", categories: ["sleep"], status: "running" },
    });
    expect((await uploadNdjson(svc, token, "bluetooth", [heartRateLine(70, "2024-03-01T10:00:00Z")])).status).toBe(202);
    const erase = await svc.call(`/v1/users/${user}/data/bluetooth`, { method: "DELETE", key });
    expect(erase.status).toBe(202);
    expect(erase.body.job_id).not.toBeUndefined();
    expect((await svc.db.deletionJob.findUniqueOrThrow({ where: { id: erase.body.job_id } })).categories).toEqual([]);
  });
});
