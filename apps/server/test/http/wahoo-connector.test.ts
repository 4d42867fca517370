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

// The Wahoo connector end to end through the service, Wahoo's hosts played by msw: connect,
// the backfill (workout list, the ride's FIT file downloaded and decoded by the activity-file
// pipeline into a workout with its route), the workout_summary webhook (verified by its
// token) queuing a pull, and disconnect with erasure (the grant revoked at Wahoo, the records
// gone). The OAuth round trip and refresh are in connectors-oauth.test.ts.

const fixture = (name: string) => JSON.parse(readFileSync(new URL(`../../../../packages/providers/test/fixtures/wahoo/${name}`, import.meta.url), "utf8")) as Record<string, unknown>;
const FIT = readFileSync(join(fixturesDir(), "fitparse_garmin-edge-820-bike.fit"));

const AUTH = "https://wahoo.auth.test";
const API = "https://wahoo.api.test";
const FIT_URL = "https://wahoo.files.test/uploads/ride-0.fit";
const WEBHOOK_TOKEN = "wahoo-webhook-token-6d2f";

const ENV: Record<string, string> = {
  SVC_ENCRYPTION_KEY: SYNCTEST_ENV.SVC_ENCRYPTION_KEY,
  SVC_WAHOO_CLIENT_ID: "wahoo-client-id",
  SVC_WAHOO_CLIENT_SECRET: "wahoo-client-secret",
  SVC_WAHOO_WEBHOOK_TOKEN: WEBHOOK_TOKEN,
  SVC_WAHOO_AUTHORIZE_URL: `${AUTH}/oauth/authorize`,
  SVC_WAHOO_TOKEN_URL: `${AUTH}/oauth/token`,
  SVC_WAHOO_API_URL: API,
};

/** The list's workouts from the fixture, moved to two days ago (inside the backfill), the ride's file at FIT_URL. */
function recentWorkouts() {
  const page = fixture("workouts-page-1.json") as { workouts: Array<Record<string, unknown>> };
  const starts = new Date(Date.now() - 2 * 86_400_000).toISOString();
  const workouts = page.workouts.map((workout) => {
    const summary = workout.workout_summary as Record<string, unknown> | null;
    const file = summary?.file ? { url: FIT_URL } : null;
    return { ...workout, starts, workout_summary: summary ? { ...summary, file } : null };
  });
  return { ...page, workouts, total: workouts.length };
}

const seen = { api: [] as Array<{ method: string; path: string; authorization: string | null }>, files: 0 };
const msw = setupServer(
  http.post(`${AUTH}/oauth/token`, () => HttpResponse.json({ ...fixture("token.json"), access_token: "wahoo-access-1", refresh_token: "wahoo-refresh-1" })),
  http.all(`${API}/*`, ({ request }) => {
    const url = new URL(request.url);
    seen.api.push({ method: request.method, path: url.pathname, authorization: request.headers.get("authorization") });
    if (url.pathname === "/v1/user") return HttpResponse.json(fixture("user.json"));
    if (url.pathname === "/v1/permissions" && request.method === "DELETE") return new HttpResponse(null, { status: 204 });
    if (url.pathname === "/v1/workouts") return HttpResponse.json(url.searchParams.get("page") === "1" ? recentWorkouts() : { workouts: [], total: 2, page: 2, per_page: 30 });
    return new HttpResponse(null, { status: 404 });
  }),
  http.get(FIT_URL, () => {
    seen.files += 1;
    return new HttpResponse(FIT, { headers: { "content-type": "application/octet-stream" } });
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

describe("wahoo through the service", () => {
  it("connects and backfills: the ride from its FIT file with its route, the indoor ride from its summary", async () => {
    userId = await createUser(svc, key);
    const { connection } = await connectThroughService(svc, key, userId, "wahoo", "wahoo-code");
    expect(connection).toMatchObject({ status: "active", providerUserId: "60462" });

    expect((await finishedSyncRuns(svc, userId, "wahoo", "backfill", 30_000)).map((run) => run.status)).toEqual(["succeeded"]);
    expect(seen.files).toBe(1);
    await waitUntil(async () => (await svc.db.workout.count({ where: { userId, provider: "wahoo" } })) === 2, 30_000, "the workouts");

    const rows = await svc.db.workout.findMany({ where: { userId, provider: "wahoo" }, orderBy: { startDate: "asc" } });
    const [ride, trainer] = rows;
    // The ride's times come from its FIT file; the indoor ride's from its summary.
    expect(ride).toMatchObject({ externalId: "2214301", activityType: "cycling", name: "Cycling", startDate: new Date("2017-06-12T16:10:15Z"), distanceMeters: 457.12 });
    expect(trainer).toMatchObject({ externalId: "2214287", activityType: "cycling", name: "KICKR", durationSeconds: 2700, distanceMeters: 21850.4 });
    const route = await svc.call(`/v1/users/${userId}/workouts/${ride!.id}/route`, { key });
    expect(route.status, route.text).toBe(200);
    expect(route.body.data.length).toBe(15);
  });

  it("a workout_summary webhook with the application's token queues a pull for that user; another token is refused", async () => {
    const post = (body: unknown) => fetch(`${svc.url}/providers/wahoo/notifications`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    const event = fixture("webhook-workout-summary.json");
    expect((await post({ ...event, webhook_token: "guessed" })).status).toBe(401);
    expect(await svc.db.syncRun.count({ where: { userId, trigger: "notification" } })).toBe(0);

    const answer = await post(event);
    expect(answer.status, await answer.text()).toBe(200);
    const [run] = await finishedSyncRuns(svc, userId, "wahoo", "notification", 30_000);
    expect(run).toMatchObject({ status: "succeeded", dataType: "workout_summary" });
    expect(run!.windowStart).toEqual(new Date(Date.parse("2017-06-12T16:10:15Z") - 86_400_000));
  });

  it("disconnecting with delete_data revokes the grant at Wahoo and erases the workouts", async () => {
    const answer = await svc.call(`/v1/users/${userId}/connections/wahoo?delete_data=true`, { key, method: "DELETE" });
    expect(answer.status, answer.text).toBe(202);
    await waitUntil(async () => (await svc.db.deletionJob.findUnique({ where: { id: answer.body.job_id } }))?.status === "done", 30_000, "the erasure");
    await waitUntil(() => seen.api.some((call) => call.method === "DELETE" && call.path === "/v1/permissions"), 10_000, "the revoke");
    expect(seen.api.find((call) => call.method === "DELETE")?.authorization).toBe("Bearer wahoo-access-1");
    expect(await svc.db.workout.count({ where: { userId, provider: "wahoo" } })).toBe(0);
  });
});
