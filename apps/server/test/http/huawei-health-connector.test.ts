import { createHmac } from "node:crypto";
import { readFileSync } from "node:fs";
import { waitUntil } from "@svc/testing";
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../helpers/records.ts";
import { FAST_SYNC, SYNCTEST_ENV } from "../helpers/sync-provider.ts";
import { connectThroughService, finishedSyncRuns } from "../helpers/connector-flow.ts";
import { startTestService, type TestService } from "../helpers/test-service.ts";

// The Huawei Health connector end to end through the service, Huawei's hosts played by msw:
// connect (HUAWEI ID token, getTokenInfo's open_id), the backfill (daily statistics and the
// readings of sampleSet:polymerize into daily summaries and samples, sleep records into
// sessions with phases, activity records into workouts), a signed event notification pulling
// the named user's workouts, disconnect with erasure (the refresh token revoked at HUAWEI ID,
// the records gone), and a signed revocation moving a connection to needs_reauth. The OAuth
// round trip and refresh are in connectors-oauth.test.ts.

const fixture = (name: string) => JSON.parse(readFileSync(new URL(`../../../../packages/providers/test/fixtures/huawei_health/${name}`, import.meta.url), "utf8")) as Record<string, unknown>;

const AUTH = "https://huawei.auth.test";
const API = "https://huawei.api.test/healthkit";
const TOKEN_INFO = "https://huawei.account.test/rest.php";

const ENV: Record<string, string> = {
  SVC_ENCRYPTION_KEY: SYNCTEST_ENV.SVC_ENCRYPTION_KEY,
  SVC_HUAWEI_HEALTH_CLIENT_ID: "104857600",
  SVC_HUAWEI_HEALTH_CLIENT_SECRET: "huawei-client-secret",
  SVC_HUAWEI_HEALTH_AUTHORIZE_URL: `${AUTH}/oauth2/v3/authorize`,
  SVC_HUAWEI_HEALTH_TOKEN_URL: `${AUTH}/oauth2/v3/token`,
  SVC_HUAWEI_HEALTH_REVOKE_URL: `${AUTH}/oauth2/v3/revoke`,
  SVC_HUAWEI_HEALTH_TOKENINFO_URL: TOKEN_INFO,
  SVC_HUAWEI_HEALTH_API_URL: API,
  SVC_HUAWEI_HEALTH_SUBSCRIBER_SECRET: Buffer.from("huawei-subscriber-secret").toString("base64"),
};
const OPEN_ID = "MDFAM2Q0OTk5LWZha2Utb3Blbi1pZA";

const seen = { polymerize: [] as Array<{ grouped: boolean; authorization: string | null }>, revoked: [] as string[], tokenInfo: 0, sleep: 0, activity: [] as string[] };
const msw = setupServer(
  http.post(`${AUTH}/oauth2/v3/token`, () => HttpResponse.json({ ...fixture("token.json"), access_token: "huawei-access-1", refresh_token: "huawei-refresh-1" })),
  http.post(`${AUTH}/oauth2/v3/revoke`, async ({ request }) => {
    seen.revoked.push(new URLSearchParams(await request.text()).get("token") ?? "");
    return new HttpResponse(null, { status: 200 });
  }),
  http.post(TOKEN_INFO, () => {
    seen.tokenInfo += 1;
    return new HttpResponse(JSON.stringify(fixture("token-info.json")), { headers: { "content-type": "text/plain; charset=UTF-8" } });
  }),
  http.post(`${API}/v2/sampleSet:polymerize`, async ({ request }) => {
    const body = (await request.json()) as { groupByTime?: unknown };
    const grouped = body.groupByTime !== undefined;
    // The first request of each kind answers the fixture's day; the others an empty answer.
    const first = !seen.polymerize.some((call) => call.grouped === grouped);
    seen.polymerize.push({ grouped, authorization: request.headers.get("authorization") });
    if (!first) return HttpResponse.json({ group: [] });
    return HttpResponse.json(grouped ? fixture("daily-statistics.json") : fixture("readings.json"));
  }),
  // The first sleep query answers the fixture's night and nap; the others none.
  http.get(`${API}/v2/healthRecords`, () => {
    seen.sleep += 1;
    return HttpResponse.json(seen.sleep === 1 ? fixture("sleep-records.json") : {});
  }),
  // Two pages: the first names a cursor, the second a deleted record.
  http.get(`${API}/v2/activityRecords`, ({ request }) => {
    const cursor = new URL(request.url).searchParams.get("cursor");
    seen.activity.push(cursor ?? "first page");
    return HttpResponse.json(cursor ? fixture("activity-records-page-2.json") : fixture("activity-records.json"));
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

const samples = () => svc.db.quantitySample.findMany({ where: { userId, provider: "huawei_health" }, orderBy: [{ startDate: "asc" }, { type: "asc" }] });

describe("huawei health through the service", () => {
  it("connects and backfills: daily steps, distance and calories, and the readings", async () => {
    userId = await createUser(svc, key);
    const { authorize, connection } = await connectThroughService(svc, key, userId, "huawei_health", "huawei-code");
    expect(authorize.searchParams.get("access_type")).toBe("offline");
    expect(connection).toMatchObject({ status: "active", providerUserId: "MDFAM2Q0OTk5LWZha2Utb3Blbi1pZA" });
    expect(seen.tokenInfo).toBe(1);

    expect((await finishedSyncRuns(svc, userId, "huawei_health", "backfill", 60_000)).map((run) => run.status)).toEqual(["succeeded"]);
    // 30 days: the statistics of its 31 UTC days in one request, the readings a day at a time.
    expect(seen.polymerize.filter((call) => call.grouped).length).toBe(1);
    expect(seen.polymerize.filter((call) => !call.grouped).length).toBeGreaterThanOrEqual(30);
    expect(seen.polymerize.every((call) => call.authorization === "Bearer huawei-access-1")).toBe(true);

    await waitUntil(async () => (await svc.db.dailySummary.count({ where: { userId, provider: "huawei_health" } })) === 1, 30_000, "the daily summary");
    const day = await svc.db.dailySummary.findFirstOrThrow({ where: { userId, provider: "huawei_health" } });
    expect(day).toMatchObject({ steps: 8412, distanceMeters: 6130.5 });
    await waitUntil(async () => (await samples()).length === 9, 30_000, "the readings");
    expect((await samples()).map((row) => row.type)).toEqual([
      "hrv_rmssd",
      "resting_heart_rate",
      "heart_rate",
      "heart_rate",
      "oxygen_saturation",
      "blood_pressure_diastolic",
      "blood_pressure_systolic",
      "body_mass",
      "body_temperature",
    ]);
  });

  it("the backfill stores the sleep records with their stages and the activity records as workouts", async () => {
    // 30 days of sleep a week a request; the activity records of the window in one query of two pages.
    expect(seen.sleep).toBe(5);
    expect(seen.activity).toEqual(["first page", "Y3Vyc29yLXBhZ2UtMg"]);
    await waitUntil(async () => (await svc.db.sleepSession.count({ where: { userId, provider: "huawei_health" } })) === 2, 30_000, "the night and the nap");
    const [night, nap] = await svc.db.sleepSession.findMany({ where: { userId, provider: "huawei_health" }, orderBy: { bedtimeStart: "asc" } });
    expect(night).toMatchObject({ kind: "sleep", bedtimeStart: new Date("2024-05-31T22:55:00Z"), totalSleepSeconds: 435 * 60, deepSeconds: 70 * 60, remSeconds: 70 * 60 });
    expect(nap).toMatchObject({ kind: "nap", totalSleepSeconds: 25 * 60 });
    const phases = await svc.db.sleepPhase.findMany({ where: { userId, sessionId: night!.id }, orderBy: { startDate: "asc" } });
    expect(phases.map((phase) => phase.stage)).toEqual(["light", "deep", "awake", "light", "rem"]);
    await waitUntil(async () => (await svc.db.workout.count({ where: { userId, provider: "huawei_health" } })) === 2, 30_000, "the workouts");
    const workouts = await svc.db.workout.findMany({ where: { userId, provider: "huawei_health" }, orderBy: { startDate: "asc" } });
    expect(workouts.map((w) => [w.activityType, w.externalId, w.timezone])).toEqual([
      ["other", "1717218000000", "+02:00"],
      ["basketball", "1717223400000", "+02:00"],
    ]);
    expect(workouts[1]).toMatchObject({ durationSeconds: 3120, totalEnergyKcal: 412.5, averageHeartRate: 138, maxHeartRate: 171 });
  });

  it("a signed event notification pulls the named user's workouts; an unsigned one is refused and queues nothing", async () => {
    const event = { openId: OPEN_ID, eventType: "ACTIVITY_RECORD_EVENT$UPDATE", eventTime: Date.now() };
    expect((await notify(event, "bm90LXRoZS1zaWduYXR1cmU=")).status).toBe(401);
    expect(await svc.db.syncRun.count({ where: { userId, trigger: "notification" } })).toBe(0);

    const before = seen.activity.length;
    const answer = await notify(event, sign(event));
    expect(answer.status, await answer.text()).toBe(204);
    const [run] = await finishedSyncRuns(svc, userId, "huawei_health", "notification", 30_000);
    expect(run).toMatchObject({ status: "succeeded", dataType: "workouts" });
    // Only the activity records were asked again.
    expect(seen.activity.length).toBe(before + 2);
    expect(seen.sleep).toBe(5);
  });

  it("disconnecting with delete_data revokes the refresh token at HUAWEI ID and erases the records", async () => {
    const answer = await svc.call(`/v1/users/${userId}/connections/huawei_health?delete_data=true`, { key, method: "DELETE" });
    expect(answer.status, answer.text).toBe(202);
    await waitUntil(async () => (await svc.db.deletionJob.findUnique({ where: { id: answer.body.job_id } }))?.status === "done", 30_000, "the erasure");
    await waitUntil(() => seen.revoked.length > 0, 10_000, "the revoke");
    expect(seen.revoked).toEqual(["huawei-refresh-1"]);
    expect(await svc.db.dailySummary.count({ where: { userId, provider: "huawei_health" } })).toBe(0);
    expect((await samples()).length).toBe(0);
    expect(await svc.db.workout.count({ where: { userId, provider: "huawei_health" } })).toBe(0);
    expect(await svc.db.sleepSession.count({ where: { userId, provider: "huawei_health" } })).toBe(0);
  });

  it("a signed revocation (USER_EVENT$REVOKE_ALL) moves the user's connection to needs_reauth", async () => {
    const other = await createUser(svc, key);
    const { connection } = await connectThroughService(svc, key, other, "huawei_health", "huawei-code-2");
    expect(connection.status).toBe("active");
    const event = { openId: OPEN_ID, eventType: "USER_EVENT$REVOKE_ALL", eventTime: Date.now() };
    const answer = await notify(event, sign(event));
    expect(answer.status, await answer.text()).toBe(204);
    expect(await svc.db.connection.findFirstOrThrow({ where: { id: connection.id } })).toMatchObject({ status: "needs_reauth", brokenReason: "needs_reauth" });
  });
});

function sign(event: { openId: string; eventType: string; eventTime: number }): string {
  const secret = Buffer.from(ENV.SVC_HUAWEI_HEALTH_SUBSCRIBER_SECRET!, "base64");
  return createHmac("sha256", secret).update(`${event.openId}_${event.eventType}_${event.eventTime}`).digest("base64");
}

function notify(event: unknown, signature: string) {
  return fetch(`${svc.url}/providers/huawei_health/notifications`, {
    method: "POST",
    headers: { "content-type": "application/json; charset=UTF-8", "x-notification-signature": signature },
    body: JSON.stringify(event),
  });
}
