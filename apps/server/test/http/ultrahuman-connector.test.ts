import { readFileSync } from "node:fs";
import { waitUntil } from "@svc/testing";
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../helpers/records.ts";
import { FAST_SYNC, SYNCTEST_ENV } from "../helpers/sync-provider.ts";
import { connectThroughService, finishedSyncRuns } from "../helpers/connector-flow.ts";
import { startTestService, type TestService } from "../helpers/test-service.ts";

// The Ultrahuman connector end to end through the service, Ultrahuman's hosts played by msw:
// connect, the backfill (one metrics request per date; the fixture's day, moved to two days
// ago, becomes a night with its stages and heart rate, HRV, steps, recovery and VO2 max
// samples), and disconnect with erasure (the token revoked at Ultrahuman, the records gone).
// The OAuth round trip and refresh are in connectors-oauth.test.ts. Ultrahuman sends no notifications.

const fixture = (name: string) => JSON.parse(readFileSync(new URL(`../../../../packages/providers/test/fixtures/ultrahuman/${name}`, import.meta.url), "utf8")) as Record<string, unknown>;

const AUTH = "https://ultrahuman.auth.test";
const API = "https://ultrahuman.api.test";

const ENV: Record<string, string> = {
  SVC_ENCRYPTION_KEY: SYNCTEST_ENV.SVC_ENCRYPTION_KEY,
  SVC_ULTRAHUMAN_CLIENT_ID: "ultrahuman-client-id",
  SVC_ULTRAHUMAN_CLIENT_SECRET: "ultrahuman-client-secret",
  SVC_ULTRAHUMAN_AUTHORIZE_URL: `${AUTH}/authorise`,
  SVC_ULTRAHUMAN_TOKEN_URL: `${AUTH}/oauth/token`,
  SVC_ULTRAHUMAN_REVOKE_URL: `${AUTH}/oauth/revoke`,
  SVC_ULTRAHUMAN_API_URL: API,
};

const DAY = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);
const SHIFT = (Date.parse(`${DAY}T00:00:00Z`) - Date.parse("2024-03-14T00:00:00Z")) / 1000;
const TIMES = new Set(["timestamp", "bedtime_start", "bedtime_end", "day_start_timestamp"]);

/** The fixture's day moved to DAY: every epoch field shifted by the same seconds. */
function moved(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(moved);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([name, field]) => [name, TIMES.has(name) && typeof field === "number" ? field + SHIFT : moved(field)]));
}

const seen = { dates: [] as string[], revoked: [] as URLSearchParams[], authorization: new Set<string | null>() };
const msw = setupServer(
  http.post(`${AUTH}/oauth/token`, () => HttpResponse.json({ ...fixture("token.json"), access_token: "uh-access-1", refresh_token: "uh-refresh-1" })),
  http.post(`${AUTH}/oauth/revoke`, async ({ request }) => {
    seen.revoked.push(new URLSearchParams(await request.text()));
    return HttpResponse.json({});
  }),
  http.get(`${API}/user_data/user_info`, () => HttpResponse.json(fixture("user-info.json"))),
  http.get(`${API}/user_data/metrics`, ({ request }) => {
    const date = new URL(request.url).searchParams.get("date") ?? "";
    seen.dates.push(date);
    seen.authorization.add(request.headers.get("authorization"));
    return HttpResponse.json(date === DAY ? (moved(fixture("metrics-2024-03-14.json")) as Record<string, unknown>) : { data: { metric_data: [] } });
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

describe("ultrahuman through the service", () => {
  it("connects and backfills: the night with its stages and the day's samples", async () => {
    userId = await createUser(svc, key);
    const { authorize, connection } = await connectThroughService(svc, key, userId, "ultrahuman", "uh-code");
    expect(authorize.searchParams.get("scope")).toBe("profile ring_data");
    expect(connection).toMatchObject({ status: "active", providerUserId: "uh-70215" });

    expect((await finishedSyncRuns(svc, userId, "ultrahuman", "backfill")).map((run) => run.status)).toEqual(["succeeded"]);
    expect(seen.dates).toContain(DAY);
    expect(seen.dates.length).toBeGreaterThanOrEqual(30);
    expect([...seen.authorization]).toEqual(["Bearer uh-access-1"]);

    await waitUntil(async () => (await svc.db.sleepSession.count({ where: { userId, provider: "ultrahuman" } })) === 1, 30_000, "the night");
    const night = await svc.db.sleepSession.findFirstOrThrow({ where: { userId, provider: "ultrahuman" } });
    expect(night).toMatchObject({ deepSeconds: 4800, lightSeconds: 13200, remSeconds: 6000, awakeSeconds: 3000 });
    await waitUntil(async () => (await svc.db.quantitySample.count({ where: { userId, provider: "ultrahuman" } })) === 8, 30_000, "the samples");
    const types = (await svc.db.quantitySample.findMany({ where: { userId, provider: "ultrahuman" }, select: { type: true } })).map((row) => row.type).sort();
    expect(types).toEqual(["heart_rate", "heart_rate", "hrv_rmssd", "hrv_rmssd", "recovery_score", "step_count", "step_count", "vo2_max"]);
  });

  it("disconnecting with delete_data revokes the token at Ultrahuman and erases the records", async () => {
    const answer = await svc.call(`/v1/users/${userId}/connections/ultrahuman?delete_data=true`, { key, method: "DELETE" });
    expect(answer.status, answer.text).toBe(202);
    await waitUntil(async () => (await svc.db.deletionJob.findUnique({ where: { id: answer.body.job_id } }))?.status === "done", 30_000, "the erasure");
    await waitUntil(() => seen.revoked.length > 0, 10_000, "the revoke");
    expect(Object.fromEntries(seen.revoked[0]!)).toEqual({ token: "uh-access-1", client_id: "ultrahuman-client-id", client_secret: "ultrahuman-client-secret" });
    expect(await svc.db.sleepSession.count({ where: { userId, provider: "ultrahuman" } })).toBe(0);
    expect(await svc.db.quantitySample.count({ where: { userId, provider: "ultrahuman" } })).toBe(0);
  });
});
