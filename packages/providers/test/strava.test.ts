import { readFileSync } from "node:fs";
import { exchangeCode, findQuantityType, ProviderError, refreshTokens, toStorageUnit, type InboundRequest, type ParsedRecords, type ProviderKeys } from "@svc/core";
import { http, HttpResponse, type JsonBodyType } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { provider as strava } from "../src/strava/connector.ts";
import { clientHarness, pullHarness } from "./helpers/connector-harness.ts";

const fixture = (name: string): JsonBodyType => JSON.parse(readFileSync(new URL(`./fixtures/strava/${name}`, import.meta.url), "utf8"));

const API = "https://www.strava.com/api/v3";
const KEYS: ProviderKeys = { CLIENT_ID: "118234", CLIENT_SECRET: "strava-test-secret", WEBHOOK_VERIFY_TOKEN: "verify-me-please", WEBHOOK_SUBSCRIPTION_ID: "120475" };
const seconds = (iso: string) => Date.parse(iso) / 1000;

const server = setupServer();
const requests: URL[] = [];
server.events.on("request:start", ({ request }) => {
  requests.push(new URL(request.url));
});
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => {
  server.resetHandlers();
  requests.length = 0;
});
afterAll(() => server.close());

/** The activity list by page (1 and 2 from the fixtures, then empty), and each activity's streams. */
function stravaApi(pages: Record<string, unknown> = { "1": fixture("athlete-activities-page-1.json"), "2": fixture("athlete-activities-page-2.json") }) {
  return [
    http.get(`${API}/athlete/activities`, ({ request }) => HttpResponse.json(pages[new URL(request.url).searchParams.get("page") ?? ""] ?? [])),
    http.get(`${API}/activities/:id/streams`, ({ params }) => HttpResponse.json(fixture(`streams-${String(params.id)}.json`))),
  ];
}

const describeRequest = (url: URL) => `${url.pathname} ${url.search}`;

/**
 * An error answer. Strava sends a JSON body (`{message, errors}`), but under msw the request
 * function's `response.body.cancel()` of a refused answer never settles, so refusals are sent
 * without a body here (the status and headers are what the request function reads).
 */
const refusal = (status: number, headers: Record<string, string> = {}) => new HttpResponse(null, { status, headers });

describe("strava pull", () => {
  it("backfill: pages the activity list until an empty page and pulls the streams of every activity that has them", async () => {
    server.use(...stravaApi());
    const harness = pullHarness(strava, { window: { start: new Date("2024-06-10T00:00:00Z"), end: new Date("2024-07-10T00:00:00Z") }, keys: KEYS });
    await strava.pull(harness.context);

    // after = window start - 1 s (Strava's `after` is exclusive), before = window end.
    const list = (page: number) => `/api/v3/athlete/activities ?after=${seconds("2024-06-10T00:00:00Z") - 1}&before=${seconds("2024-07-10T00:00:00Z")}&page=${page}&per_page=200`;
    const streams = (id: string) => `/api/v3/activities/${id}/streams ?keys=time%2Cheartrate%2Clatlng%2Caltitude%2Cdistance%2Ccadence%2Cwatts&key_by_type=true`;
    expect(requests.map(describeRequest)).toEqual([
      list(1),
      streams("11829374650"),
      streams("11829374651"),
      // 11829374652 is a manual activity: no streams.
      list(2),
      streams("11829374653"),
      list(3),
    ]);
    expect(harness.stored.map((s) => s.format)).toEqual([
      "strava-activities",
      "strava-activity-streams",
      "strava-activity-streams",
      "strava-activities",
      "strava-activity-streams",
    ]);
    expect(requests.every((url) => url.host === "www.strava.com")).toBe(true);
  });

  it("incremental: asks for that window only", async () => {
    server.use(...stravaApi({ "1": fixture("athlete-activities-page-2.json") }));
    const window = { start: new Date("2024-07-06T00:00:00Z"), end: new Date("2024-07-06T12:00:00Z") };
    const harness = pullHarness(strava, { window, keys: KEYS, dataType: "activity" });
    await strava.pull(harness.context);
    expect(requests.map(describeRequest)).toEqual([
      `/api/v3/athlete/activities ?after=${seconds("2024-07-06T00:00:00Z") - 1}&before=${seconds("2024-07-06T12:00:00Z")}&page=1&per_page=200`,
      "/api/v3/activities/11829374653/streams ?keys=time%2Cheartrate%2Clatlng%2Caltitude%2Cdistance%2Ccadence%2Cwatts&key_by_type=true",
      `/api/v3/athlete/activities ?after=${seconds("2024-07-06T00:00:00Z") - 1}&before=${seconds("2024-07-06T12:00:00Z")}&page=2&per_page=200`,
    ]);
    expect(harness.stored.map((s) => s.format)).toEqual(["strava-activities", "strava-activity-streams"]);
  });

  it("sends the user's bearer token", async () => {
    let authorization: string | null = null;
    server.use(
      http.get(`${API}/athlete/activities`, ({ request }) => {
        authorization = request.headers.get("authorization");
        return HttpResponse.json([]);
      }),
    );
    await strava.pull(pullHarness(strava, { window: { start: new Date("2024-07-06T00:00:00Z"), end: new Date("2024-07-06T01:00:00Z") }, accessToken: "athlete-token" }).context);
    expect(authorization).toBe("Bearer athlete-token");
  });

  it("skips the streams of an activity deleted meanwhile (404)", async () => {
    server.use(
      http.get(`${API}/athlete/activities`, ({ request }) =>
        HttpResponse.json(new URL(request.url).searchParams.get("page") === "1" ? fixture("athlete-activities-page-2.json") : []),
      ),
      http.get(`${API}/activities/:id/streams`, () => refusal(404)),
    );
    const harness = pullHarness(strava, { window: { start: new Date("2024-07-06T00:00:00Z"), end: new Date("2024-07-07T00:00:00Z") } });
    await strava.pull(harness.context);
    expect(harness.stored.map((s) => s.format)).toEqual(["strava-activities"]);
  });

  it("a refused grant (401) is a ProviderError of kind refused", async () => {
    server.use(http.get(`${API}/athlete/activities`, () => refusal(401)));
    const error = await strava.pull(pullHarness(strava, { window: { start: new Date("2024-07-06T00:00:00Z"), end: new Date("2024-07-07T00:00:00Z") } }).context).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ kind: "refused", status: 401 });
  });

  it("a 429 with Retry-After is a ProviderError of kind rate_limited with the seconds to wait", async () => {
    server.use(
      http.get(`${API}/athlete/activities`, () => refusal(429, { "retry-after": "900", "x-ratelimit-limit": "200,2000", "x-ratelimit-usage": "201,640" })),
    );
    const error = await strava.pull(pullHarness(strava, { window: { start: new Date("2024-07-06T00:00:00Z"), end: new Date("2024-07-07T00:00:00Z") } }).context).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ kind: "rate_limited", status: 429, retryAfterSeconds: 900 });
  });

  it("a pull for another data type asks nothing", async () => {
    const harness = pullHarness(strava, { window: { start: new Date("2024-07-06T00:00:00Z"), end: new Date("2024-07-07T00:00:00Z") }, dataType: "sleep" });
    await strava.pull(harness.context);
    expect(requests).toEqual([]);
  });
});

describe("strava grant", () => {
  const urls = { ...strava.urls };
  const exchange = { code: "e1b2c3d4", codeVerifier: "not-sent-without-pkce", redirectUri: "https://svc.example/oauth/strava/callback" };

  it("exchanges the code with the client secret in the form and identifies the athlete from the token answer", async () => {
    const sent: { form?: URLSearchParams } = {};
    server.use(
      http.post("https://www.strava.com/oauth/token", async ({ request }) => {
        sent.form = new URLSearchParams(await request.text());
        return HttpResponse.json(fixture("token-response.json"));
      }),
    );
    const tokens = await exchangeCode(strava, urls, KEYS, exchange);
    expect(Object.fromEntries(sent.form ?? [])).toMatchObject({ grant_type: "authorization_code", code: "e1b2c3d4", client_id: "118234", client_secret: "strava-test-secret" });
    expect(sent.form?.has("code_verifier")).toBe(false);
    expect(tokens.accessToken).toBe("a4b945687g7b9c8d6e5f4a3b2c1d0e9f8a7b6c5d");
    expect(tokens.refreshToken).toBe("e5n567567b4f9d3e6a1c2b8f0e7d6c5b4a392817");

    requests.length = 0;
    expect(await strava.identify(clientHarness(strava, { keys: KEYS }), tokens)).toEqual({ providerUserId: "134815" });
    expect(requests).toEqual([]); // no profile call: the token answer named the athlete
  });

  it("identifies the athlete with GET /athlete when the token answer has none", async () => {
    server.use(http.get(`${API}/athlete`, () => HttpResponse.json({ id: 134815, resource_state: 2, firstname: "Sam" })));
    const tokens = { accessToken: "t", refreshToken: null, expiresAt: null, scopes: null, raw: {} };
    expect(await strava.identify(clientHarness(strava, { keys: KEYS }), tokens)).toEqual({ providerUserId: "134815" });
  });

  it("a refresh answers a new refresh token (rotation)", async () => {
    server.use(
      http.post("https://www.strava.com/oauth/token", () =>
        HttpResponse.json({ token_type: "Bearer", access_token: "new-access", expires_at: 1720304400, expires_in: 21600, refresh_token: "new-refresh" }),
      ),
    );
    const tokens = await refreshTokens(strava, urls, KEYS, "old-refresh");
    expect(tokens).toMatchObject({ accessToken: "new-access", refreshToken: "new-refresh" });
    expect(strava.oauth.rotatesRefreshToken).toBe(true);
  });

  it("authorize settings: comma-separated scopes, approval_prompt=auto, no PKCE, client_secret_post", () => {
    expect(strava.oauth).toMatchObject({ scopes: ["read", "activity:read_all"], scopeSeparator: ",", pkce: false, clientAuth: "client_secret_post" });
    expect(strava.oauth.authorizeParams?.(KEYS)).toEqual({ approval_prompt: "auto" });
  });

  it("revokes the grant at /oauth/deauthorize", async () => {
    const sent: { form?: URLSearchParams } = {};
    server.use(
      http.post("https://www.strava.com/oauth/deauthorize", async ({ request }) => {
        sent.form = new URLSearchParams(await request.text());
        return HttpResponse.json({ access_token: "athlete-token" });
      }),
    );
    await strava.revoke?.(clientHarness(strava, { accessToken: "athlete-token" }), { accessToken: "athlete-token", refreshToken: null, expiresAt: null, scopes: null, raw: {} });
    expect(sent.form?.get("access_token")).toBe("athlete-token");
  });

  it("checks the keys: a numeric client id and subscription id", () => {
    expect(strava.checkKeys?.(KEYS)).toBeNull();
    expect(strava.checkKeys?.({ ...KEYS, CLIENT_ID: "abc" })).toMatch(/CLIENT_ID/);
    expect(strava.checkKeys?.({ ...KEYS, WEBHOOK_SUBSCRIPTION_ID: "sub-1" })).toMatch(/WEBHOOK_SUBSCRIPTION_ID/);
  });
});

describe("strava webhook", () => {
  const handle = (request: Partial<InboundRequest>, keySets: readonly ProviderKeys[] = [KEYS]) =>
    strava.notifications!.handle({ method: "POST", headers: {}, query: {}, rawBody: Buffer.alloc(0), ...request }, keySets);
  const post = (body: unknown, keySets?: readonly ProviderKeys[]) =>
    handle({ method: "POST", headers: { "content-type": "application/json" }, rawBody: Buffer.from(JSON.stringify(body)) }, keySets);

  it("answers the subscription handshake with the challenge when the verify token is an application's", () => {
    const query = { "hub.mode": "subscribe", "hub.challenge": "15f7d1a91c1f40", "hub.verify_token": "verify-me-please" };
    const other: ProviderKeys = { CLIENT_ID: "999", CLIENT_SECRET: "x", WEBHOOK_VERIFY_TOKEN: "another-token" };
    expect(handle({ method: "GET", query }, [other, KEYS])).toEqual({ status: 200, body: { "hub.challenge": "15f7d1a91c1f40" } });
    const refused = handle({ method: "GET", query: { ...query, "hub.verify_token": "guessed" } });
    expect(refused.status).toBe(401);
    expect(refused.body).toBeUndefined();
  });

  it("an activity event from the known subscription pulls that athlete's activities around the event", () => {
    const answer = post(fixture("webhook-activity-create.json"));
    const eventTime = 1720260570 * 1000; // 2024-07-06T10:09:30Z
    expect(answer).toEqual({
      status: 200,
      pulls: [{ providerUserId: "134815", dataType: "activity", window: { start: new Date(eventTime - 72 * 3600_000), end: new Date(eventTime + 3600_000) } }],
    });
    expect(answer.payloads).toBeUndefined();
  });

  it("an event of another subscription is refused when every application names its subscription", () => {
    const answer = post({ ...(fixture("webhook-activity-create.json") as object), subscription_id: 999999 });
    expect(answer).toEqual({ status: 401 });
  });

  it("an application without WEBHOOK_SUBSCRIPTION_ID accepts events by their shape", () => {
    const { WEBHOOK_SUBSCRIPTION_ID: _id, ...unnamed } = KEYS;
    expect(post({ ...(fixture("webhook-activity-create.json") as object), subscription_id: 999999 }, [unnamed]).pulls).toHaveLength(1);
  });

  it("a deleted activity still pulls the window (a pull cannot show the deletion)", () => {
    const answer = post(fixture("webhook-activity-delete.json"));
    expect(answer.status).toBe(200);
    expect(answer.pulls).toEqual([
      { providerUserId: "134815", dataType: "activity", window: { start: new Date((1720334465 - 72 * 3600) * 1000), end: new Date((1720334465 + 3600) * 1000) } },
    ]);
  });

  it("an athlete deauthorizing the application of a configured subscription is answered as revoked, with no pull", () => {
    expect(post(fixture("webhook-athlete-deauthorize.json"))).toEqual({ status: 200, revoked: [{ providerUserId: "134815" }] });
  });

  it("a deauthorization taken by its shape alone (no WEBHOOK_SUBSCRIPTION_ID) pulls a short window, which Strava refuses with the revoked grant", () => {
    const { WEBHOOK_SUBSCRIPTION_ID: _id, ...unnamed } = KEYS;
    const answer = post({ ...(fixture("webhook-athlete-deauthorize.json") as object), subscription_id: 999999 }, [unnamed]);
    expect(answer.revoked).toBeUndefined();
    expect(answer.pulls).toEqual([
      { providerUserId: "134815", dataType: "activity", window: { start: new Date((1720334465 - 3600) * 1000), end: new Date(1720334465 * 1000) } },
    ]);
    const renamed = { ...(fixture("webhook-athlete-deauthorize.json") as object), updates: { title: "x" } };
    expect(post(renamed)).toEqual({ status: 200, pulls: [] });
  });

  it("refuses what is not a Strava event, and answers 404 when no application is configured", () => {
    expect(handle({ method: "POST", rawBody: Buffer.from("not json") }).status).toBe(400);
    expect(post({ object_type: "activity", aspect_type: "create", owner_id: "x" }).status).toBe(400);
    expect(post(fixture("webhook-activity-create.json"), []).status).toBe(404);
    expect(handle({ method: "PUT" }).status).toBe(405);
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

describe("strava mapping", () => {
  it("strava-activities: each SummaryActivity is a workout (values from the fixture)", () => {
    const parsed = strava.parsers["strava-activities"]!(fixture("athlete-activities-page-1.json"));
    expect(parsed.rejected).toEqual([]);
    const [run, ride, gym] = parsed.workouts;
    expect(run).toMatchObject({
      activity_type: "running",
      name: "Morning Run",
      start_date: new Date("2024-07-02T05:31:12Z"),
      end_date: new Date("2024-07-02T06:23:12Z"), // start + elapsed_time 3120 s (52 min)
      duration_seconds: 3012, // moving_time
      distance_meters: 10021.4,
      average_heart_rate: 148.3,
      max_heart_rate: 171,
      elevation_gain_meters: 48.2,
      timezone: "Europe/Berlin", // from "(GMT+01:00) Europe/Berlin"
      source: "garmin", // device_name "Garmin Forerunner 265"
      device: "Garmin Forerunner 265",
      external_id: "11829374650",
      metadata: { strava_sport_type: "Run", strava_type: "Run", average_cadence: 84.6, average_speed: 3.327, elapsed_time: 3120 },
    });
    expect(run?.route).toBeUndefined(); // the list has no route: a stored one stays
    expect(run?.active_energy_kcal).toBeUndefined(); // summaries carry no calories
    expect(ride).toMatchObject({
      activity_type: "cycling",
      start_date: new Date("2024-07-03T17:00:00Z"),
      end_date: new Date("2024-07-03T17:45:00Z"), // 2700 s
      distance_meters: 20110,
      source: "wahoo",
      metadata: { trainer: true, average_watts: 182.4, weighted_average_watts: 190, kilojoules: 492.5, device_watts: true },
    });
    expect(gym).toMatchObject({ activity_type: "strength_training", source: null, device: null, external_id: "11829374652", metadata: { manual: true } });
  });

  it("strava-activity-streams: the run's route, heart rate and step cadence", () => {
    const activity = (fixture("athlete-activities-page-1.json") as unknown[])[0];
    const parsed = strava.parsers["strava-activity-streams"]!({ activity, streams: fixture("streams-11829374650.json") });
    expect(parsed.rejected).toEqual([]);
    expectStorable(parsed);
    const [workout] = parsed.workouts;
    expect(workout?.external_id).toBe("11829374650");
    expect(workout?.route).toHaveLength(5);
    // time 0 s and 4 s from the start 05:31:12Z.
    expect(workout?.route?.[0]).toEqual({ timestamp: new Date("2024-07-02T05:31:12Z"), latitude: 52.5163, longitude: 13.3777, altitude: 34, heart_rate: 92 });
    expect(workout?.route?.[4]).toEqual({ timestamp: new Date("2024-07-02T05:31:16Z"), latitude: 52.5164, longitude: 13.37789, altitude: 34.4, heart_rate: 104 });
    const values = (type: string) => parsed.quantitySamples.filter((s) => s.type === type).map((s) => s.value);
    expect(values("heart_rate")).toEqual([92, 95, 99, 101, 104]);
    // Strava's run cadence counts one foot: 82, 84, 85, 85 -> steps 164, 168, 170, 170 (the 0 at the start is no reading).
    expect(values("step_cadence")).toEqual([164, 168, 170, 170]);
    const first = parsed.quantitySamples.find((s) => s.type === "heart_rate");
    expect(first).toMatchObject({ start_date: new Date("2024-07-02T05:31:12Z"), unit: "count/min", source: "garmin", device: "Garmin Forerunner 265", on_body: true, timezone: "Europe/Berlin" });
  });

  it("strava-activity-streams: a trainer ride has no position (an empty route), cadence and power", () => {
    const activity = (fixture("athlete-activities-page-1.json") as unknown[])[1];
    const parsed = strava.parsers["strava-activity-streams"]!({ activity, streams: fixture("streams-11829374651.json") });
    expectStorable(parsed);
    expect(parsed.workouts[0]?.route).toEqual([]);
    const values = (type: string) => parsed.quantitySamples.filter((s) => s.type === type).map((s) => s.value);
    expect(values("heart_rate")).toEqual([120, 122, 125]);
    expect(values("cycling_cadence")).toEqual([88, 90, 91]); // rpm as sent
    expect(values("cycling_power")).toEqual([175, 182, 190]); // W
    expect(values("step_cadence")).toEqual([]);
  });

  it("reads streams sent without key_by_type (a list of streams)", () => {
    const activity = (fixture("athlete-activities-page-2.json") as unknown[])[0];
    const byType = fixture("streams-11829374653.json") as Record<string, { data: unknown[] }>;
    const list = Object.entries(byType).map(([type, stream]) => ({ type, ...stream }));
    const parsed = strava.parsers["strava-activity-streams"]!({ activity, streams: list });
    expect(parsed.workouts[0]?.route?.map((p) => p.timestamp)).toEqual([new Date("2024-07-06T08:02:45Z"), new Date("2024-07-06T08:02:50Z")]);
    // A hike counts steps: 52 and 54 per foot -> 104 and 108 steps a minute.
    expect(parsed.quantitySamples.filter((s) => s.type === "step_cadence").map((s) => s.value)).toEqual([104, 108]);
  });

  it("rejects activities it cannot read without quoting them, and refuses a payload of another shape", () => {
    const parsed = strava.parsers["strava-activities"]!([{ id: "abc", start_date: "2024-07-02T05:31:12Z", elapsed_time: 10 }, { id: 5, start_date: "yesterday", elapsed_time: 10 }, 7]);
    expect(parsed.workouts).toEqual([]);
    expect(parsed.rejected.map((r) => r.locator)).toEqual(["activities[0]", "activities[1]", "activities[2]"]);
    expect(parsed.rejected.map((r) => r.reason).join(" ")).not.toMatch(/abc|yesterday/);
    expect(() => strava.parsers["strava-activities"]!({})).toThrow();
    expect(() => strava.parsers["strava-activity-streams"]!([])).toThrow();
  });
});
