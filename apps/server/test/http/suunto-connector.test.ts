import { createHmac } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fixturesDir, waitUntil } from "@svc/testing";
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../helpers/records.ts";
import { FAST_SYNC, SYNCTEST_ENV } from "../helpers/sync-provider.ts";
import { connectThroughService, finishedSyncRuns } from "../helpers/connector-flow.ts";
import { startTestService, type TestService } from "../helpers/test-service.ts";

// The Suunto connector end to end through the service, Suunto's hosts played by msw: connect,
// the backfill (workout list, the ride's FIT file downloaded and decoded by the activity-file
// pipeline into a workout with its route, the daily statistics, the 24/7 sleep, recovery and
// activity rows), the signed WORKOUT_CREATED and SUUNTO_247_SLEEP_CREATED webhooks queuing
// pulls (the sleep's later revision replacing it), and disconnect with erasure (the grant
// deauthorized at Suunto, the records gone). The OAuth round trip and refresh are in
// connectors-oauth.test.ts.

const fixture = (name: string) => JSON.parse(readFileSync(new URL(`../../../../packages/providers/test/fixtures/suunto/${name}`, import.meta.url), "utf8")) as Record<string, unknown>;
const FIT = readFileSync(join(fixturesDir(), "fitparse_garmin-edge-820-bike.fit"));

const AUTH = "https://suunto.auth.test";
const API = "https://suunto.api.test";
const SUBSCRIPTION_KEY = "suunto-subscription-9f3e";
const NOTIFICATION_SECRET = "suunto-notification-secret-4a1d";
const RIDE = "5f1c2a9e8b7d6c5a4f3e2d1c";

const ENV: Record<string, string> = {
  SVC_ENCRYPTION_KEY: SYNCTEST_ENV.SVC_ENCRYPTION_KEY,
  SVC_SUUNTO_CLIENT_ID: "suunto-client-id",
  SVC_SUUNTO_CLIENT_SECRET: "suunto-client-secret",
  SVC_SUUNTO_SUBSCRIPTION_KEY: SUBSCRIPTION_KEY,
  SVC_SUUNTO_NOTIFICATION_SECRET: NOTIFICATION_SECRET,
  SVC_SUUNTO_AUTHORIZE_URL: `${AUTH}/oauth/authorize`,
  SVC_SUUNTO_TOKEN_URL: `${AUTH}/oauth/token`,
  SVC_SUUNTO_DEAUTHORIZE_URL: `${AUTH}/oauth/deauthorize`,
  SVC_SUUNTO_API_URL: API,
};

const DAY_MS = 86_400_000;
/** The list's first two workouts moved to two days ago (inside the backfill), the ride keeping its FIT file. */
function recentWorkouts() {
  const list = fixture("workouts.json") as { payload: Array<Record<string, unknown>> };
  const start = Date.now() - 2 * DAY_MS;
  return { ...list, payload: list.payload.slice(0, 2).map((workout, index) => ({ ...workout, startTime: start + index * 3_600_000, stopTime: start + index * 3_600_000 + ((workout.stopTime as number) - (workout.startTime as number)) })) };
}
/** The daily statistics moved to yesterday (UTC). */
function recentStatistics() {
  const yesterday = new Date(Date.now() - DAY_MS).toISOString().slice(0, 10);
  return [
    { Name: "stepcount", Aggregation: "sum", Sources: [{ Name: "suunto-247-test", Samples: [{ TimeISO8601: `${yesterday}T00:00:00.000`, Value: 10450 }] }] },
  ];
}

/** A local time of Suunto's 24/7 rows: `2026-11-26T23:10:00.000+01:00`. */
function stamp(ms: number): string {
  return `${new Date(ms + 3_600_000).toISOString().slice(0, 23)}+01:00`;
}
const HOUR_MS = 3_600_000;
/** Last night, from 30 hours ago; Suunto revises it (a longer Duration) after the backfill. */
const BEDTIME = Math.floor((Date.now() - 30 * HOUR_MS) / 60_000) * 60_000;
const sleep = { duration: 14_400 };
function sleepRows() {
  const { duration } = sleep;
  const entryData = { SleepId: 1764195000, BedtimeStart: stamp(BEDTIME), BedtimeEnd: stamp(BEDTIME + duration * 1000), Duration: duration, DeepSleepDuration: duration / 4, LightSleepDuration: duration / 2, REMSleepDuration: duration / 4, HRAvg: 53, HRMin: 45, AvgHRV: 58, SleepQualityScore: 77, IsNap: false };
  return [{ timestamp: stamp(BEDTIME), entryData }];
}
const RECOVERY_AT = Math.floor((Date.now() - 10 * HOUR_MS) / 60_000) * 60_000;
const recoveryRows = () => [0, 1].map((i) => ({ timestamp: stamp(RECOVERY_AT + i * 1_800_000), entryData: { Balance: 0.7 + i / 100, StressState: 1 } }));
const ACTIVITY_AT = Math.floor((Date.now() - 3 * HOUR_MS) / 60_000) * 60_000;
const activityRows = () => [0, 1].map((i) => ({ timestamp: stamp(ACTIVITY_AT + i * 600_000), entryData: { HR: 64 + i, SpO2: i === 0 ? 0.96 : null, StepCount: 50, EnergyConsumption: 20_920 } }));
/** The rows whose timestamp is in the asked `from`..`to` (epoch ms, both inclusive). */
function asked(url: URL, rows: Array<{ timestamp: string }>) {
  const [from, to] = [Number(url.searchParams.get("from")), Number(url.searchParams.get("to"))];
  return rows.filter((row) => Date.parse(row.timestamp) >= from && Date.parse(row.timestamp) <= to);
}

const seen = { api: [] as Array<{ method: string; path: string; authorization: string | null; subscriptionKey: string | null }>, deauthorized: [] as Array<string | null> };
const msw = setupServer(
  http.post(`${AUTH}/oauth/token`, () => HttpResponse.json({ ...fixture("token.json"), access_token: "suunto-access-1", refresh_token: "suunto-refresh-1" })),
  http.get(`${AUTH}/oauth/deauthorize`, ({ request }) => {
    seen.deauthorized.push(request.headers.get("authorization"));
    return new HttpResponse(null, { status: 200 });
  }),
  http.all(`${API}/*`, ({ request }) => {
    const url = new URL(request.url);
    seen.api.push({ method: request.method, path: url.pathname, authorization: request.headers.get("authorization"), subscriptionKey: request.headers.get("ocp-apim-subscription-key") });
    if (url.pathname === "/v3/workouts") return HttpResponse.json(recentWorkouts());
    if (url.pathname === `/v3/workouts/${RIDE}/fit`) return new HttpResponse(FIT, { headers: { "content-type": "application/octet-stream" } });
    if (url.pathname === "/247samples/daily-activity-statistics") return HttpResponse.json(recentStatistics());
    if (url.pathname === "/247samples/sleep") return HttpResponse.json(asked(url, sleepRows()));
    if (url.pathname === "/247samples/recovery") return HttpResponse.json(asked(url, recoveryRows()));
    if (url.pathname === "/247samples/activity") return HttpResponse.json(asked(url, activityRows()));
    return new HttpResponse(null, { status: 404 });
  }),
);

let svc: TestService;
let key: string;
let userId: string;

beforeAll(async () => {
  msw.listen({ onUnhandledRequest: "bypass" });
  svc = await startTestService(ENV, { syncSettings: { ...FAST_SYNC, backfillQuotaShare: 1 } });
  key = (await svc.createTenant()).api_key;
});
afterAll(async () => {
  await svc?.stop();
  msw.close();
});

describe("suunto through the service", () => {
  it("connects and backfills: the ride from its FIT file with its route, the run from its summary, the day's steps, last night, recovery and 24/7 heart rate", async () => {
    userId = await createUser(svc, key);
    const { connection } = await connectThroughService(svc, key, userId, "suunto", "suunto-code");
    expect(connection).toMatchObject({ status: "active", providerUserId: "fjelltrail_88" });

    expect((await finishedSyncRuns(svc, userId, "suunto", "backfill", 30_000)).map((run) => run.status)).toEqual(["succeeded"]);
    expect(seen.api.every((call) => call.authorization === "Bearer suunto-access-1" && call.subscriptionKey === SUBSCRIPTION_KEY)).toBe(true);
    await waitUntil(async () => (await svc.db.workout.count({ where: { userId, provider: "suunto" } })) === 2, 30_000, "the workouts");

    const rows = await svc.db.workout.findMany({ where: { userId, provider: "suunto" }, orderBy: { startDate: "asc" } });
    const ride = rows.find((row) => row.externalId === RIDE);
    const run = rows.find((row) => row.externalId !== RIDE);
    // The ride's times come from its FIT file; the run's from its summary.
    expect(ride).toMatchObject({ activityType: "cycling", startDate: new Date("2017-06-12T16:10:15Z"), distanceMeters: 457.12 });
    expect(run).toMatchObject({ externalId: "5f1a7b3c2d4e5f6a7b8c9d0e", activityType: "other", durationSeconds: 3240, distanceMeters: 8420.5 });
    const route = await svc.call(`/v1/users/${userId}/workouts/${ride!.id}/route`, { key });
    expect(route.status, route.text).toBe(200);
    expect(route.body.data.length).toBe(15);
    await waitUntil(async () => (await svc.db.dailySummary.count({ where: { userId, provider: "suunto" } })) === 1, 30_000, "the daily summary");

    await waitUntil(async () => (await svc.db.sleepSession.count({ where: { userId, provider: "suunto" } })) === 1, 30_000, "the night");
    const night = await svc.db.sleepSession.findFirstOrThrow({ where: { userId, provider: "suunto" } });
    expect(night).toMatchObject({ externalId: "sleep:1764195000", kind: "sleep", bedtimeStart: new Date(BEDTIME), bedtimeEnd: new Date(BEDTIME + 14_400_000), deepSeconds: 3600, lightSeconds: 7200, remSeconds: 3600, totalSleepSeconds: 14_400, awakeSeconds: 0, score: 77, averageHeartRate: 53, lowestHeartRate: 45, averageHrv: 58, timezone: "+01:00" });
    const twentyFourSeven = { userId, provider: "suunto", type: { in: ["body_battery", "oxygen_saturation", "sleep_score"] } };
    await waitUntil(async () => (await svc.db.quantitySample.count({ where: twentyFourSeven })) === 4, 30_000, "the 24/7 readings");
    const readings = await svc.db.quantitySample.findMany({ where: twentyFourSeven, orderBy: [{ type: "asc" }, { startDate: "asc" }] });
    expect(readings.map((row) => [row.type, Number(row.value), row.startDate])).toEqual([
      ["body_battery", 70, new Date(RECOVERY_AT)],
      ["body_battery", 71, new Date(RECOVERY_AT + 1_800_000)],
      ["oxygen_saturation", 96, new Date(ACTIVITY_AT)],
      ["sleep_score", 77, new Date(BEDTIME)],
    ]);
    const heartRate = await svc.db.quantitySample.findMany({ where: { userId, provider: "suunto", type: "heart_rate", startDate: { gte: new Date(ACTIVITY_AT) } }, orderBy: { startDate: "asc" } });
    expect(heartRate.map((row) => [Number(row.value), row.startDate])).toEqual([
      [64, new Date(ACTIVITY_AT)],
      [65, new Date(ACTIVITY_AT + 600_000)],
    ]);
  });

  it("a signed WORKOUT_CREATED queues a pull for that user; a wrong signature is refused", async () => {
    const body = JSON.stringify(fixture("webhook-workout-created.json"));
    const post = (signature: string) => fetch(`${svc.url}/providers/suunto/notifications`, { method: "POST", headers: { "content-type": "application/json", "x-hmac-sha256-signature": signature }, body });
    expect((await post(createHmac("sha256", "guessed").update(body).digest("hex"))).status).toBe(401);
    expect(await svc.db.syncRun.count({ where: { userId, trigger: "notification" } })).toBe(0);

    const answer = await post(createHmac("sha256", NOTIFICATION_SECRET).update(body).digest("hex"));
    expect(answer.status, await answer.text()).toBe(200);
    const [run] = await finishedSyncRuns(svc, userId, "suunto", "notification", 30_000);
    expect(run).toMatchObject({ status: "succeeded", dataType: "workouts" });
    expect(run!.windowStart).toEqual(new Date(1497283815000 - DAY_MS));
  });

  it("a signed SUUNTO_247_SLEEP_CREATED pulls the user's sleep: Suunto's revision of the night replaces it", async () => {
    sleep.duration = 25_200;
    const body = JSON.stringify({ type: "SUUNTO_247_SLEEP_CREATED", username: "fjelltrail_88", samples: sleepRows() });
    const answer = await fetch(`${svc.url}/providers/suunto/notifications`, { method: "POST", headers: { "content-type": "application/json", "x-hmac-sha256-signature": createHmac("sha256", NOTIFICATION_SECRET).update(body).digest("hex") }, body });
    expect(answer.status, await answer.text()).toBe(200);
    await waitUntil(async () => (await svc.db.syncRun.findFirst({ where: { userId, trigger: "notification", dataType: "sleep" } }))?.status === "succeeded", 30_000, "the sleep pull");
    await waitUntil(async () => (await svc.db.sleepSession.findFirst({ where: { userId, provider: "suunto" } }))?.bedtimeEnd.getTime() === BEDTIME + 25_200_000, 30_000, "the revised night");
    expect(await svc.db.sleepSession.findMany({ where: { userId, provider: "suunto" } })).toEqual([expect.objectContaining({ externalId: "sleep:1764195000", totalSleepSeconds: 25_200, deepSeconds: 6300 })]);
  });

  it("disconnecting with delete_data deauthorizes the grant at Suunto and erases the records", async () => {
    const answer = await svc.call(`/v1/users/${userId}/connections/suunto?delete_data=true`, { key, method: "DELETE" });
    expect(answer.status, answer.text).toBe(202);
    await waitUntil(async () => (await svc.db.deletionJob.findUnique({ where: { id: answer.body.job_id } }))?.status === "done", 30_000, "the erasure");
    await waitUntil(() => seen.deauthorized.length > 0, 10_000, "the deauthorization");
    expect(seen.deauthorized).toEqual(["Bearer suunto-access-1"]);
    expect(await svc.db.workout.count({ where: { userId, provider: "suunto" } })).toBe(0);
    expect(await svc.db.dailySummary.count({ where: { userId, provider: "suunto" } })).toBe(0);
    expect(await svc.db.sleepSession.count({ where: { userId, provider: "suunto" } })).toBe(0);
    expect(await svc.db.quantitySample.count({ where: { userId, provider: "suunto" } })).toBe(0);
  });
});
