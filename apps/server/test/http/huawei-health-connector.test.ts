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
// readings of sampleSet:polymerize into daily summaries and samples), and disconnect with
// erasure (the refresh token revoked at HUAWEI ID, the records gone). Health Kit pushes
// nothing svc subscribes to yet, so there is no notification case. The OAuth round trip and
// refresh are in connectors-oauth.test.ts.

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
};

const seen = { polymerize: [] as Array<{ grouped: boolean; authorization: string | null }>, revoked: [] as string[], tokenInfo: 0 };
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
    await waitUntil(async () => (await samples()).length === 7, 30_000, "the readings");
    expect((await samples()).map((row) => row.type)).toEqual(["heart_rate", "heart_rate", "oxygen_saturation", "blood_pressure_diastolic", "blood_pressure_systolic", "body_mass", "body_temperature"]);
  });

  it("disconnecting with delete_data revokes the refresh token at HUAWEI ID and erases the records", async () => {
    const answer = await svc.call(`/v1/users/${userId}/connections/huawei_health?delete_data=true`, { key, method: "DELETE" });
    expect(answer.status, answer.text).toBe(202);
    await waitUntil(async () => (await svc.db.deletionJob.findUnique({ where: { id: answer.body.job_id } }))?.status === "done", 30_000, "the erasure");
    await waitUntil(() => seen.revoked.length > 0, 10_000, "the revoke");
    expect(seen.revoked).toEqual(["huawei-refresh-1"]);
    expect(await svc.db.dailySummary.count({ where: { userId, provider: "huawei_health" } })).toBe(0);
    expect((await samples()).length).toBe(0);
  });
});
