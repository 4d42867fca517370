import { createHmac } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { exchangeCode, findQuantityType, ProviderError, refreshTokens, toStorageUnit, type InboundRequest, type ParsedRecords, type ProviderKeys } from "@svc/core";
import { fixturesDir } from "@svc/testing";
import { http, HttpResponse, type JsonBodyType } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { provider as suunto } from "../src/suunto/connector.ts";
import { clientHarness, pullHarness } from "./helpers/connector-harness.ts";

// Fixtures built from the Suunto API Zone documentation (fixtures/suunto/README.md); the FIT
// file served as the ride's file is a public one (see /work/shared/fixtures/SOURCES.md).
const fixture = (name: string): JsonBodyType => JSON.parse(readFileSync(new URL(`./fixtures/suunto/${name}`, import.meta.url), "utf8"));
const FIT = readFileSync(join(fixturesDir(), "fitparse_garmin-edge-820-bike.fit"));

const API = "https://cloudapi.suunto.com";
const OAUTH = "https://cloudapi-oauth.suunto.com";
const KEYS: ProviderKeys = { CLIENT_ID: "suunto-client-id", CLIENT_SECRET: "suunto-test-secret", SUBSCRIPTION_KEY: "suunto-subscription-9f3e", NOTIFICATION_SECRET: "suunto-notification-secret-4a1d" };
const RIDE = "5f1c2a9e8b7d6c5a4f3e2d1c";
const RUN = "5f1a7b3c2d4e5f6a7b8c9d0e";

const server = setupServer();
const requests: Array<{ url: URL; method: string; authorization: string | null; subscriptionKey: string | null }> = [];
server.events.on("request:start", ({ request }) => {
  requests.push({ url: new URL(request.url), method: request.method, authorization: request.headers.get("authorization"), subscriptionKey: request.headers.get("ocp-apim-subscription-key") });
});
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => {
  server.resetHandlers();
  requests.length = 0;
});
afterAll(() => server.close());

/** A refusal without a body (under msw a cancelled body's promise never settles; status and headers are what count). */
const refusal = (status: number, headers: Record<string, string> = {}) => new HttpResponse(null, { status, headers });

/** A 24/7 samples answer: the fixture's rows whose timestamp is in the asked `from`..`to` (epoch ms, both inclusive). */
function rowsAsked(name: string) {
  return ({ request }: { request: Request }) => {
    const url = new URL(request.url);
    const [from, to] = [Number(url.searchParams.get("from")), Number(url.searchParams.get("to"))];
    const rows = fixture(name) as Array<{ timestamp: string }>;
    return HttpResponse.json(rows.filter((row) => Date.parse(row.timestamp) >= from && Date.parse(row.timestamp) <= to));
  };
}

/** The workout list, the ride's FIT file (the run has none: 404), the daily statistics, and the 24/7 activity, sleep and recovery rows. */
function suuntoApi(list: JsonBodyType = fixture("workouts.json")) {
  return [
    http.get(`${API}/v3/workouts`, () => HttpResponse.json(list)),
    http.get(`${API}/v3/workouts/${RIDE}/fit`, () => new HttpResponse(FIT, { headers: { "content-type": "application/octet-stream" } })),
    http.get(`${API}/v3/workouts/${RUN}/fit`, () => refusal(404)),
    http.get(`${API}/247samples/daily-activity-statistics`, () => HttpResponse.json(fixture("daily-activity-statistics.json"))),
    http.get(`${API}/247samples/activity`, rowsAsked("activity-samples.json")),
    http.get(`${API}/247samples/sleep`, rowsAsked("sleep.json")),
    http.get(`${API}/247samples/recovery`, rowsAsked("recovery.json")),
  ];
}

const describeRequest = ({ url }: { url: URL }) => `${url.pathname} ${url.search}`;
const JUNE = { start: new Date("2017-06-01T00:00:00Z"), end: new Date("2017-06-20T00:00:00Z") };
const workoutsOfJune = `/v3/workouts ?since=${JUNE.start.getTime()}&until=${JUNE.end.getTime() - 1}&limit=100&offset=0`;
const statisticsOfJune = "/247samples/daily-activity-statistics ?startdate=2017-06-01T00%3A00%3A00&enddate=2017-06-19T23%3A59%3A59";
/** A 24/7 resource of June, asked 14 days at a time with an inclusive end. */
const JUNE_15 = Date.parse("2017-06-15T00:00:00Z");
const samplesOfJune = (resource: string) => [
  `/247samples/${resource} ?from=${JUNE.start.getTime()}&to=${JUNE_15 - 1}`,
  `/247samples/${resource} ?from=${JUNE_15}&to=${JUNE.end.getTime() - 1}`,
];

describe("suunto pull", () => {
  it("backfill: the window's workouts each with its FIT file, the daily statistics of its UTC days, the 24/7 activity, sleep and recovery rows", async () => {
    server.use(...suuntoApi());
    const harness = pullHarness(suunto, { window: JUNE, keys: KEYS });
    await suunto.pull(harness.context);

    // The run before the window is listed (the list is the API's) but not stored.
    expect(requests.map(describeRequest)).toEqual([
      workoutsOfJune,
      `/v3/workouts/${RIDE}/fit `,
      `/v3/workouts/${RUN}/fit `,
      statisticsOfJune,
      ...samplesOfJune("activity"),
      ...samplesOfJune("sleep"),
      ...samplesOfJune("recovery"),
    ]);
    // Each 24/7 answer is stored as sent; the empty second half of June is not stored.
    expect(harness.stored.map((s) => s.format)).toEqual(["suunto-workout", "suunto-workout", "suunto-daily-activity", "suunto-activity-samples", "suunto-sleep", "suunto-recovery"]);
    expect(harness.stored.slice(3).map((s) => s.payload)).toEqual([fixture("activity-samples.json"), fixture("sleep.json"), fixture("recovery.json")]);
    const [ride, run] = harness.stored.map((s) => s.payload as { workout: { workoutKey: string }; fit_file: string | null });
    expect(ride?.workout.workoutKey).toBe(RIDE);
    expect(Buffer.from(ride?.fit_file ?? "", "base64").equals(FIT)).toBe(true);
    // The run's file is not there (404): the workout keeps its summary.
    expect(run).toMatchObject({ workout: { workoutKey: RUN }, fit_file: null });
  });

  it("sends the user's token and the application's subscription key on every call", async () => {
    server.use(...suuntoApi());
    await suunto.pull(pullHarness(suunto, { window: JUNE, keys: KEYS, accessToken: "suunto-user-token" }).context);
    expect(requests.length).toBe(10);
    for (const request of requests) expect([request.authorization, request.subscriptionKey]).toEqual(["Bearer suunto-user-token", "suunto-subscription-9f3e"]);
  });

  it("reads the list page by page while pages are full", async () => {
    const workout = (index: number) => ({ workoutKey: `a${index}`, activityId: 3, startTime: Date.parse("2017-05-01T00:00:00Z") + index, totalTime: 60 });
    const full = { error: null, metadata: {}, payload: Array.from({ length: 100 }, (_, index) => workout(index)) };
    server.use(http.get(`${API}/v3/workouts`, ({ request }) => HttpResponse.json(new URL(request.url).searchParams.get("offset") === "0" ? full : { error: null, metadata: {}, payload: [] })));
    await suunto.pull(pullHarness(suunto, { window: JUNE, keys: KEYS, dataType: "workouts" }).context);
    expect(requests.map((r) => r.url.searchParams.get("offset"))).toEqual(["0", "100"]);
  });

  it("asks daily statistics at most 28 days at a time (whole UTC days), 24/7 rows 14 days at a time", async () => {
    server.use(http.get(`${API}/247samples/daily-activity-statistics`, () => HttpResponse.json([])), http.get(`${API}/247samples/activity`, () => HttpResponse.json([])));
    const window = { start: new Date("2017-05-01T06:00:00Z"), end: new Date("2017-07-01T00:00:00Z") };
    const harness = pullHarness(suunto, { window, keys: KEYS, dataType: "daily_activity" });
    await suunto.pull(harness.context);
    const statistics = requests.filter((r) => r.url.pathname.endsWith("statistics"));
    expect(statistics.map((r) => [r.url.searchParams.get("startdate"), r.url.searchParams.get("enddate")])).toEqual([
      ["2017-05-01T00:00:00", "2017-05-28T23:59:59"],
      ["2017-05-29T00:00:00", "2017-06-25T23:59:59"],
      ["2017-06-26T00:00:00", "2017-06-30T23:59:59"],
    ]);
    const DAY = 86_400_000;
    const start = window.start.getTime();
    const activity = requests.filter((r) => r.url.pathname === "/247samples/activity");
    expect(activity.map((r) => [Number(r.url.searchParams.get("from")), Number(r.url.searchParams.get("to"))])).toEqual([
      [start, start + 14 * DAY - 1],
      [start + 14 * DAY, start + 28 * DAY - 1],
      [start + 28 * DAY, start + 42 * DAY - 1],
      [start + 42 * DAY, start + 56 * DAY - 1],
      [start + 56 * DAY, window.end.getTime() - 1],
    ]);
    // Empty answers are not stored.
    expect(harness.stored).toEqual([]);
  });

  it("a notification's data type pulls only that data: daily activity is the statistics and the 24/7 activity rows", async () => {
    server.use(...suuntoApi());
    const asked = async (dataType: string) => {
      requests.length = 0;
      await suunto.pull(pullHarness(suunto, { window: JUNE, keys: KEYS, dataType }).context);
      return requests.map(describeRequest);
    };
    expect(await asked("daily_activity")).toEqual([statisticsOfJune, ...samplesOfJune("activity")]);
    expect(await asked("sleep")).toEqual(samplesOfJune("sleep"));
    expect(await asked("recovery")).toEqual(samplesOfJune("recovery"));
  });

  it("an application whose subscription does not cover a 24/7 resource (403) keeps its other data", async () => {
    server.use(http.get(`${API}/247samples/sleep`, () => refusal(403)), ...suuntoApi());
    const harness = pullHarness(suunto, { window: JUNE, keys: KEYS });
    await suunto.pull(harness.context);
    // The sleep's second half of June is not asked once the first is refused.
    expect(requests.filter((r) => r.url.pathname === "/247samples/sleep")).toHaveLength(1);
    expect(harness.stored.map((s) => s.format)).toEqual(["suunto-workout", "suunto-workout", "suunto-daily-activity", "suunto-activity-samples", "suunto-recovery"]);
  });

  it("a failing file host (503) fails the run; a refused file (401) is the grant refused", async () => {
    server.use(http.get(`${API}/v3/workouts/${RIDE}/fit`, () => refusal(503)), ...suuntoApi());
    await expect(suunto.pull(pullHarness(suunto, { window: JUNE, keys: KEYS }).context)).rejects.toMatchObject({ kind: "failed", status: 503 });
    server.use(http.get(`${API}/v3/workouts/${RIDE}/fit`, () => refusal(401)));
    await expect(suunto.pull(pullHarness(suunto, { window: JUNE, keys: KEYS }).context)).rejects.toMatchObject({ kind: "refused", status: 401 });
  });

  it("a refused grant (401) is a ProviderError of kind refused; a missing subscription (403) of kind permission", async () => {
    server.use(http.get(`${API}/v3/workouts`, () => refusal(401)));
    const pull = suunto.pull(pullHarness(suunto, { window: JUNE, keys: KEYS }).context);
    await expect(pull).rejects.toBeInstanceOf(ProviderError);
    await expect(pull).rejects.toMatchObject({ kind: "refused", status: 401 });
    server.use(http.get(`${API}/v3/workouts`, () => refusal(403)));
    await expect(suunto.pull(pullHarness(suunto, { window: JUNE, keys: KEYS }).context)).rejects.toMatchObject({ kind: "permission" });
  });

  it("a 429 is a ProviderError of kind rate_limited with the seconds to wait", async () => {
    server.use(http.get(`${API}/v3/workouts`, () => refusal(429, { "retry-after": "120" })));
    await expect(suunto.pull(pullHarness(suunto, { window: JUNE, keys: KEYS }).context)).rejects.toMatchObject({ kind: "rate_limited", retryAfterSeconds: 120 });
  });

  it("refuses answers of another shape", async () => {
    server.use(http.get(`${API}/v3/workouts`, () => HttpResponse.json([])));
    await expect(suunto.pull(pullHarness(suunto, { window: JUNE, keys: KEYS, dataType: "workouts" }).context)).rejects.toMatchObject({ kind: "failed" });
    server.use(http.get(`${API}/247samples/daily-activity-statistics`, () => HttpResponse.json({ error: "x" })));
    await expect(suunto.pull(pullHarness(suunto, { window: JUNE, keys: KEYS, dataType: "daily_activity" }).context)).rejects.toMatchObject({ kind: "failed" });
    server.use(http.get(`${API}/247samples/sleep`, () => HttpResponse.json({ samples: [] })));
    await expect(suunto.pull(pullHarness(suunto, { window: JUNE, keys: KEYS, dataType: "sleep" }).context)).rejects.toMatchObject({ kind: "failed" });
  });

  it("a 24/7 resource's refused grant (401) or failure (503) fails the run as any call does", async () => {
    server.use(http.get(`${API}/247samples/recovery`, () => refusal(401)));
    await expect(suunto.pull(pullHarness(suunto, { window: JUNE, keys: KEYS, dataType: "recovery" }).context)).rejects.toMatchObject({ kind: "refused" });
    server.use(http.get(`${API}/247samples/recovery`, () => refusal(503)));
    await expect(suunto.pull(pullHarness(suunto, { window: JUNE, keys: KEYS, dataType: "recovery" }).context)).rejects.toMatchObject({ kind: "failed", status: 503 });
  });
});

describe("suunto grant", () => {
  const urls = { ...suunto.urls };
  const exchange = { code: "c0de-41b9", codeVerifier: "v".repeat(43), redirectUri: "https://svc.example/oauth/suunto/callback" };
  const token = fixture("token.json") as Record<string, string>;

  it("exchanges the code with HTTP Basic client authentication and identifies the user by the answer's username", async () => {
    const sent: { form?: URLSearchParams; authorization?: string | null } = {};
    server.use(
      http.post(`${OAUTH}/oauth/token`, async ({ request }) => {
        sent.form = new URLSearchParams(await request.text());
        sent.authorization = request.headers.get("authorization");
        return HttpResponse.json(token);
      }),
    );
    const tokens = await exchangeCode(suunto, urls, KEYS, exchange);
    expect(sent.authorization).toBe(`Basic ${Buffer.from("suunto-client-id:suunto-test-secret").toString("base64")}`);
    expect(Object.fromEntries(sent.form ?? [])).toMatchObject({ grant_type: "authorization_code", code: "c0de-41b9", redirect_uri: "https://svc.example/oauth/suunto/callback" });
    expect(sent.form?.has("client_secret")).toBe(false);
    expect(tokens).toMatchObject({ accessToken: token.access_token, refreshToken: "suunto-refresh-5b7e1c0a9d24" });
    expect(await suunto.identify(clientHarness(suunto, { keys: KEYS }), tokens)).toEqual({ providerUserId: "fjelltrail_88" });
    // identify calls nothing: the username is in the token answer.
    expect(requests.map((r) => r.url.pathname)).toEqual(["/oauth/token"]);
  });

  it("without `user` in the answer, the access token's `user` claim names the user; neither fails the grant", async () => {
    const { user: _user, ...withoutUser } = token;
    const tokens = { accessToken: token.access_token!, refreshToken: null, expiresAt: null, scopes: null, raw: withoutUser };
    expect(await suunto.identify(clientHarness(suunto, { keys: KEYS }), tokens)).toEqual({ providerUserId: "fjelltrail_88" });
    await expect(suunto.identify(clientHarness(suunto, { keys: KEYS }), { ...tokens, accessToken: "opaque-token" })).rejects.toMatchObject({ kind: "failed" });
  });

  it("a refresh answers a new access and refresh token", async () => {
    const sent: { form?: URLSearchParams } = {};
    server.use(
      http.post(`${OAUTH}/oauth/token`, async ({ request }) => {
        sent.form = new URLSearchParams(await request.text());
        return HttpResponse.json({ ...token, access_token: "new-access", refresh_token: "new-refresh" });
      }),
    );
    const tokens = await refreshTokens(suunto, urls, KEYS, "old-refresh");
    expect(sent.form?.get("grant_type")).toBe("refresh_token");
    expect(sent.form?.get("refresh_token")).toBe("old-refresh");
    expect(tokens).toMatchObject({ accessToken: "new-access", refreshToken: "new-refresh" });
  });

  it("a refused refresh (401) is a ProviderError of kind refused", async () => {
    server.use(http.post(`${OAUTH}/oauth/token`, () => HttpResponse.json({ error: "invalid_grant" }, { status: 401 })));
    await expect(refreshTokens(suunto, urls, KEYS, "spent-refresh")).rejects.toMatchObject({ kind: "refused" });
  });

  it("authorize settings: no scopes, no PKCE, client_secret_basic", () => {
    expect(suunto.oauth).toMatchObject({ scopes: [], pkce: false, clientAuth: "client_secret_basic" });
  });

  it("revokes the grant with GET /oauth/deauthorize?client_id and the user's token", async () => {
    server.use(http.get(`${OAUTH}/oauth/deauthorize`, () => new HttpResponse(null, { status: 200 })));
    await suunto.revoke?.(clientHarness(suunto, { keys: KEYS, accessToken: "user-token" }), { accessToken: "user-token", refreshToken: null, expiresAt: null, scopes: null, raw: {} });
    expect(requests.map((r) => [r.method, r.url.pathname, r.url.searchParams.get("client_id"), r.authorization])).toEqual([["GET", "/oauth/deauthorize", "suunto-client-id", "Bearer user-token"]]);
  });
});

describe("suunto webhook", () => {
  const sign = (body: Buffer, secret = KEYS.NOTIFICATION_SECRET!) => createHmac("sha256", secret).update(body).digest("hex");
  const handle = (request: Partial<InboundRequest>, keySets: readonly ProviderKeys[] = [KEYS]) =>
    suunto.notifications!.handle({ method: "POST", headers: {}, query: {}, rawBody: Buffer.alloc(0), ...request }, keySets);
  const post = (body: unknown, options: { keySets?: readonly ProviderKeys[]; signature?: string } = {}) => {
    const rawBody = Buffer.from(JSON.stringify(body));
    return handle({ headers: { "content-type": "application/json", "x-hmac-sha256-signature": options.signature ?? sign(rawBody) }, rawBody }, options.keySets);
  };
  const event = () => fixture("webhook-workout-created.json") as Record<string, unknown>;

  it("a signed WORKOUT_CREATED pulls that user's workouts a day either side of the workout's start", () => {
    const other: ProviderKeys = { ...KEYS, CLIENT_ID: "other", NOTIFICATION_SECRET: "another-secret" };
    const start = 1497283815000;
    expect(post(event(), { keySets: [other, KEYS] })).toEqual({
      status: 200,
      pulls: [{ providerUserId: "fjelltrail_88", dataType: "workouts", window: { start: new Date(start - 86_400_000), end: new Date(start + 86_400_000) } }],
    });
  });

  it("a signed SUUNTO_247_ACTIVITY_CREATED pulls the user's daily activity of the last two days", () => {
    const before = Date.now();
    const answer = post({ type: "SUUNTO_247_ACTIVITY_CREATED", username: "fjelltrail_88" });
    expect(answer.pulls).toEqual([{ providerUserId: "fjelltrail_88", dataType: "daily_activity", window: expect.any(Object) }]);
    expect(answer.pulls![0]!.window!.start.getTime()).toBeGreaterThanOrEqual(before - 48 * 3_600_000);
  });

  it("refuses a wrong or missing signature, and every event when no application set NOTIFICATION_SECRET", () => {
    const rawBody = Buffer.from(JSON.stringify(event()));
    expect(post(event(), { signature: sign(rawBody, "guessed") })).toEqual({ status: 401 });
    expect(handle({ rawBody }).status).toBe(401);
    expect(post(event(), { signature: "not-hex" }).status).toBe(401);
    const { NOTIFICATION_SECRET: _secret, ...unset } = KEYS;
    expect(post(event(), { keySets: [unset] }).status).toBe(401);
  });

  it("a signed SUUNTO_247_SLEEP_CREATED or SUUNTO_247_RECOVERY_CREATED pulls the user's sleep or recovery of the last two days; the samples it carries are not taken", () => {
    const before = Date.now();
    const samples = [{ timestamp: "2017-06-12T23:10:00.000+02:00", entryData: { SleepId: 1, Duration: 1 } }];
    for (const [type, dataType] of [["SUUNTO_247_SLEEP_CREATED", "sleep"], ["SUUNTO_247_RECOVERY_CREATED", "recovery"]] as const) {
      const answer = post({ type, username: "fjelltrail_88", samples });
      expect(answer).toEqual({ status: 200, pulls: [{ providerUserId: "fjelltrail_88", dataType, window: expect.any(Object) }] });
      const { start, end } = answer.pulls![0]!.window!;
      expect(start.getTime()).toBeGreaterThanOrEqual(before - 48 * 3_600_000);
      expect(start.getTime()).toBeLessThanOrEqual(Date.now() - 48 * 3_600_000);
      expect(end.getTime()).toBeGreaterThan(before);
    }
  });

  it("acknowledges a signed event svc does not use without a pull", () => {
    expect(post({ type: "ROUTE_CREATED", username: "fjelltrail_88" })).toEqual({ status: 200 });
    expect(post({ type: "constructor", username: "fjelltrail_88" })).toEqual({ status: 200 });
    expect(post({ ...event(), username: 42 })).toEqual({ status: 200 });
    expect(post("not an object")).toEqual({ status: 200 });
  });

  it("refuses empty or oversized bodies and other methods, and answers 404 when no application is configured", () => {
    expect(handle({}).status).toBe(400);
    expect(handle({ rawBody: Buffer.alloc(1024 * 1024 + 1, 32) }).status).toBe(400);
    expect(handle({ method: "GET" }).status).toBe(405);
    expect(post(event(), { keySets: [] }).status).toBe(404);
  });
});

/** Every sample must be storable in its catalog unit. */
function expectStorable(parsed: ParsedRecords): void {
  for (const s of parsed.quantitySamples) {
    const type = findQuantityType(s.type);
    expect(type, s.type).toBeDefined();
    if (type) expect("error" in toStorageUnit(type, s.value, s.unit)).toBe(false);
  }
}

describe("suunto mapping", () => {
  const parse = suunto.parsers["suunto-workout"]!;
  const [ride, run] = (fixture("workouts.json") as { payload: Array<Record<string, unknown>> }).payload as [Record<string, unknown>, Record<string, unknown>];

  it("a workout with its FIT file: the file's workout, route and laps, keyed by Suunto's workoutKey", () => {
    const parsed = parse({ workout: ride, fit_file: FIT.toString("base64") });
    expect(parsed.rejected).toEqual([]);
    expect(parsed.workouts).toHaveLength(1);
    const [workout] = parsed.workouts;
    expect(workout).toMatchObject({
      activity_type: "cycling",
      start_date: new Date("2017-06-12T16:10:15Z"),
      distance_meters: 457.12,
      external_id: RIDE,
      metadata: { file_format: "fit", fit_sport: "cycling", suunto_workout_key: RIDE, suunto_activity_id: 2 },
    });
    expect(workout?.route).toHaveLength(15);
    expect((workout?.metadata?.laps as unknown[]).length).toBe(1);
    expect(parsed.quantitySamples.some((s) => s.type === "heart_rate")).toBe(true);
    expectStorable(parsed);
  });

  it("a workout without a file: the summary's figures make the workout", () => {
    const parsed = parse({ workout: run, fit_file: null });
    expect(parsed.rejected).toEqual([]);
    expect(parsed.workouts).toEqual([
      {
        activity_type: "other",
        name: null,
        start_date: new Date("2017-06-10T14:00:00Z"),
        end_date: new Date("2017-06-10T14:55:00Z"), // stopTime
        duration_seconds: 3240, // totalTime
        distance_meters: 8420.5,
        total_energy_kcal: 612,
        average_heart_rate: 148,
        elevation_gain_meters: 96.4,
        source: "suunto",
        source_name: "Suunto",
        device: null,
        on_body: true,
        external_id: RUN,
        metadata: { suunto_workout_key: RUN, suunto_activity_id: 3, max_heart_rate: 171, step_count: 8911, elevation_loss_meters: 94.1, average_speed_mps: 2.6, max_speed_mps: 4.2, time_offset_minutes: -420 },
        locator: "workout",
      },
    ]);
  });

  it("a file that cannot be read is rejected and the summary makes the workout, with the same external id", () => {
    const parsed = parse({ workout: ride, fit_file: Buffer.from("not a fit file").toString("base64") });
    expect(parsed.workouts.map((w) => [w.external_id, w.activity_type, w.distance_meters])).toEqual([[RIDE, "other", 457.1]]);
    expect(parsed.rejected).toEqual([expect.objectContaining({ recordKind: "activity_file" })]);
  });

  it("rejects a workout it cannot read without quoting it, and refuses a payload of another shape", () => {
    const { stopTime: _stop, ...noStop } = run;
    expect(parse({ workout: { ...noStop, startTime: "yesterday" }, fit_file: null }).rejected).toEqual([
      { recordKind: "workout", locator: "workout", reason: "suunto workout: startTime or totalTime is missing or invalid" },
    ]);
    expect(parse({ workout: { ...run, workoutKey: "../x" }, fit_file: null }).rejected[0]?.reason).toBe("suunto workout: workoutKey is missing or invalid");
    expect(() => parse([])).toThrow();
    expect(() => parse({ fit_file: null })).toThrow();
  });

  it("daily statistics: steps and energy (joules to kcal) per UTC day; days without data are left out", () => {
    const parsed = suunto.parsers["suunto-daily-activity"]!(fixture("daily-activity-statistics.json"));
    expect(parsed.rejected).toEqual([]);
    expect(parsed.dailySummaries).toEqual([
      { date: "2017-06-11", steps: 7342, total_energy_kcal: 2200, source: "suunto", on_body: true, metadata: {}, locator: "2017-06-11" },
      { date: "2017-06-12", steps: 12088, total_energy_kcal: 2400, source: "suunto", on_body: true, metadata: {}, locator: "2017-06-12" },
    ]);
  });

  it("daily statistics: two sources of a day keep the larger figure; unreadable samples are rejected; another shape is refused", () => {
    const sample = (TimeISO8601: unknown, Value: unknown) => ({ TimeISO8601, Value });
    const parsed = suunto.parsers["suunto-daily-activity"]!([
      { Name: "stepcount", Aggregation: "sum", Sources: [{ Name: "a", Samples: [sample("2017-06-11T00:00:00.000", 500)] }, { Name: "b", Samples: [sample("2017-06-11T00:00:00.000", 9000), sample("yesterday", 3)] }] },
    ]);
    expect(parsed.dailySummaries.map((d) => [d.date, d.steps])).toEqual([["2017-06-11", 9000]]);
    expect(parsed.rejected).toEqual([{ recordKind: "daily_summary", locator: "[0]", reason: "suunto daily statistic: a sample's time or value is invalid" }]);
    expect(() => suunto.parsers["suunto-daily-activity"]!({ payload: [] })).toThrow();
  });
});

describe("suunto 24/7 mapping", () => {
  const parseSleep = suunto.parsers["suunto-sleep"]!;
  const parseRecovery = suunto.parsers["suunto-recovery"]!;
  const parseActivity = suunto.parsers["suunto-activity-samples"]!;
  const row = (timestamp: unknown, entryData: unknown) => ({ timestamp, entryData });

  it("sleep: a night's latest revision with its stage totals, heart rate, HRV and score; a nap", () => {
    const parsed = parseSleep(fixture("sleep.json"));
    expect(parsed.rejected).toEqual([]);
    const common = { source: "suunto", source_name: "Suunto", on_body: true, timezone: "+02:00" };
    expect(parsed.sleepSessions).toEqual([
      {
        ...common,
        kind: "sleep",
        bedtime_start: new Date("2017-06-12T21:10:00Z"),
        bedtime_end: new Date("2017-06-13T04:55:00Z"),
        total_sleep_seconds: 27300,
        awake_seconds: 600,
        deep_seconds: 6300,
        light_seconds: 15600,
        rem_seconds: 5400,
        score: 81,
        average_heart_rate: 54,
        lowest_heart_rate: 46,
        average_hrv: 62,
        external_id: "sleep:1497301800",
        metadata: {
          suunto_sleep_id: "1497301800",
          duration_seconds: 27900,
          sleep_onset_latency_seconds: 420,
          wake_after_sleep_onset_seconds: 600,
          max_spo2: 0.97,
          hrv_sample_count: 310,
        },
        locator: "[1]",
      },
      {
        ...common,
        kind: "nap",
        // No BedtimeEnd: the start plus Duration.
        bedtime_start: new Date("2017-06-13T13:00:00Z"),
        bedtime_end: new Date("2017-06-13T13:30:00Z"),
        total_sleep_seconds: 1800,
        awake_seconds: 0,
        deep_seconds: null,
        light_seconds: 1800,
        rem_seconds: null,
        score: null,
        average_heart_rate: 58,
        lowest_heart_rate: 52,
        average_hrv: null,
        external_id: "sleep:1497358800",
        metadata: { suunto_sleep_id: "1497358800", duration_seconds: 1800 },
        locator: "[2]",
      },
    ]);
    expect(parsed.quantitySamples).toEqual([
      { ...common, type: "sleep_score", value: 81, unit: "score", start_date: new Date("2017-06-12T21:10:00Z"), end_date: new Date("2017-06-13T04:55:00Z"), external_id: "sleep:1497301800", locator: "[1]" },
    ]);
    expectStorable(parsed);
  });

  it("sleep: a revision is kept by its Duration, whatever the order Suunto sends them in", () => {
    const [first, latest] = fixture("sleep.json") as unknown[];
    expect(parseSleep([latest, first]).sleepSessions.map((s) => [s.external_id, s.bedtime_end])).toEqual([["sleep:1497301800", new Date("2017-06-13T04:55:00Z")]]);
  });

  it("sleep: a row with `DateTime` and no bedtimes starts there and lasts its Duration", () => {
    const [session] = parseSleep([row("2017-06-12T21:47:00.000+03:00", { SleepId: 1497293220, DateTime: "2017-06-12T21:47:00.000+03:00", Duration: 35460, DeepSleepDuration: 5940, LightSleepDuration: 23580, REMSleepDuration: 3780 })]).sleepSessions;
    expect(session).toMatchObject({ bedtime_start: new Date("2017-06-12T18:47:00Z"), bedtime_end: new Date("2017-06-13T04:38:00Z"), timezone: "+03:00", total_sleep_seconds: 33300, awake_seconds: 2160 });
  });

  it("sleep: a heart rate that cannot be bpm (beats per second) or an HRV out of range is not read; without a SleepId the start names the sleep", () => {
    const [session] = parseSleep([row("2017-06-12T23:10:00+02:00", { BedtimeStart: "2017-06-12T23:10:00+02:00", Duration: 3600, HRAvg: 0.9, HRMin: 0.8, AvgHRV: 900 })]).sleepSessions;
    expect(session).toMatchObject({ average_heart_rate: null, lowest_heart_rate: null, average_hrv: null, total_sleep_seconds: null, external_id: `sleep:${Date.parse("2017-06-12T21:10:00Z")}` });
  });

  it("sleep: rows without readable bedtimes are rejected without quoting them; another shape is refused", () => {
    const parsed = parseSleep([
      row("yesterday", { SleepId: 1, Duration: 3600 }),
      row("2017-06-12T23:10:00", { Duration: 3600 }), // no zone: the instant would be a guess
      row("2017-06-12T23:10:00+02:00", { BedtimeStart: "2017-06-12T23:10:00+02:00", BedtimeEnd: "2017-06-12T22:00:00+02:00" }),
      row("2017-06-12T23:10:00+02:00", { BedtimeStart: "2017-02-30T23:10:00+02:00", Duration: 3600 }),
      "a row",
    ]);
    expect(parsed.sleepSessions).toHaveLength(1); // the 02-30 bedtime is not read; the row's timestamp starts that sleep
    expect(parsed.rejected.map((r) => r.locator)).toEqual(["[0]", "[1]", "[2]", "[4]"]);
    expect(parsed.rejected[0]).toEqual({ recordKind: "sleep_session", locator: "[0]", reason: "suunto sleep: the bedtimes or the duration are missing or invalid" });
    expect(() => parseSleep({ samples: [] })).toThrow();
  });

  it("recovery: Balance as body_battery 0-100 with the stress state in its metadata; a row without Balance gives nothing", () => {
    const parsed = parseRecovery(fixture("recovery.json"));
    expect(parsed.rejected).toEqual([]);
    expect(parsed.fixedTimeIds).toBe(true);
    expect(parsed.quantitySamples.map((s) => [s.type, s.value, s.unit, s.start_date, s.timezone, s.external_id, s.metadata])).toEqual([
      ["body_battery", 62, "score", new Date("2017-06-13T05:00:00Z"), "+02:00", `recovery:${Date.parse("2017-06-13T05:00:00Z")}`, { stress_state: "relaxing" }],
      ["body_battery", 64.5, "score", new Date("2017-06-13T05:30:00Z"), "+02:00", `recovery:${Date.parse("2017-06-13T05:30:00Z")}`, { stress_state: "passive" }],
      ["body_battery", 60, "score", new Date("2017-06-13T06:00:00Z"), "+02:00", `recovery:${Date.parse("2017-06-13T06:00:00Z")}`, {}],
    ]);
    expectStorable(parsed);
  });

  it("recovery: a Balance out of 0 to 1 or an unreadable row is rejected; another shape is refused", () => {
    const parsed = parseRecovery([row("2017-06-13T07:00:00Z", { Balance: 62 }), row("2017-06-13T07:30:00Z", null), row(42, { Balance: 0.5 })]);
    expect(parsed.quantitySamples).toEqual([]);
    expect(parsed.rejected.map((r) => [r.locator, r.reason])).toEqual([
      ["[0]", "suunto recovery: Balance is not a figure from 0 to 1"],
      ["[1]", "suunto recovery: the row's timestamp or entryData is missing or invalid"],
      ["[2]", "suunto recovery: the row's timestamp or entryData is missing or invalid"],
    ]);
    expect(() => parseRecovery({})).toThrow();
  });

  it("activity: HR as heart_rate, HRV as hrv_rmssd, SpO2 as oxygen_saturation in percent; steps and energy are left to the daily statistics", () => {
    const parsed = parseActivity(fixture("activity-samples.json"));
    expect(parsed.rejected).toEqual([]);
    expect(parsed.fixedTimeIds).toBe(true);
    const at = (time: string) => new Date(`2017-06-13T${time}:00Z`);
    expect(parsed.quantitySamples.map((s) => [s.type, s.value, s.unit, s.start_date, s.external_id])).toEqual([
      ["heart_rate", 61, "count/min", at("07:00"), `hr:${at("07:00").getTime()}`],
      ["hrv_rmssd", 48, "ms", at("07:00"), `hrv:${at("07:00").getTime()}`],
      ["oxygen_saturation", 97, "%", at("07:00"), `spo2:${at("07:00").getTime()}`],
      ["heart_rate", 72, "count/min", at("07:10"), `hr:${at("07:10").getTime()}`],
      // The zero HRV is not measured.
      ["heart_rate", 68, "count/min", at("07:20"), `hr:${at("07:20").getTime()}`],
    ]);
    expect(parsed.quantitySamples.every((s) => s.source === "suunto" && s.on_body === true && s.timezone === "+02:00")).toBe(true);
    expectStorable(parsed);
  });

  it("activity: figures it cannot be (heart rate in beats per second, SpO2 in percent) and rows without a zoned time are rejected without quoting them", () => {
    const parsed = parseActivity([
      row("2017-06-13T09:00:00.000+02:00", { HR: 1.1, SpO2: 97, HRV: 48 }),
      row("2017-06-13T09:10:00.000", { HR: 60 }),
      row("2017-06-13T09:20:00.000+0200", { HR: "60" }),
    ]);
    expect(parsed.quantitySamples.map((s) => s.type)).toEqual(["hrv_rmssd"]);
    expect(parsed.rejected).toEqual([
      { recordKind: "quantity_sample", locator: "[0]", reason: "suunto activity: HR is not a figure it can be" },
      { recordKind: "quantity_sample", locator: "[0]", reason: "suunto activity: SpO2 is not a figure it can be" },
      { recordKind: "quantity_sample", locator: "[1]", reason: "suunto activity: the row's timestamp or entryData is missing or invalid" },
      { recordKind: "quantity_sample", locator: "[2]", reason: "suunto activity: HR is not a figure it can be" },
    ]);
    expect(() => parseActivity(null)).toThrow();
  });
});
