import { readFileSync } from "node:fs";
import { exchangeCode, findQuantityType, ProviderError, refreshTokens, toStorageUnit, type InboundRequest, type ParsedRecords, type ProviderKeys } from "@svc/core";
import { http, HttpResponse, type JsonBodyType } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { provider as garmin } from "../src/garmin/connector.ts";
import { clientHarness, pullHarness } from "./helpers/connector-harness.ts";

const fixture = (name: string): JsonBodyType => JSON.parse(readFileSync(new URL(`./fixtures/garmin/${name}`, import.meta.url), "utf8"));

const API = "https://apis.garmin.com/wellness-api/rest";
const USER = "7b1c2f9e4a8d4e0f9c3b5a6d8e2f1c0a";
const KEYS: ProviderKeys = { CLIENT_ID: "4c3f2a1b-9d8e-4f7a-b6c5-d4e3f2a1b0c9", CLIENT_SECRET: "garmin-test-secret" };
const at = (iso: string) => new Date(iso);
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

/** Garmin's error answers carry `{errorMessage}`; under msw a refused answer's body is never cancelled by the request function, so none is sent. */
const refusal = (status: number, headers: Record<string, string> = {}) => new HttpResponse(null, { status, headers });
const accepted = () => new HttpResponse(null, { status: 202 });
const query = (url: URL) => Object.fromEntries(url.searchParams);

const ALL_ENDPOINTS = ["dailies", "epochs", "sleeps", "bodyComps", "stressDetails", "userMetrics", "pulseOx", "respiration", "hrv", "activities", "activityDetails"];

describe("garmin grant", () => {
  const urls = { ...garmin.urls };

  it("exchanges the code with PKCE and the client secret in the form, then asks Garmin for the user id", async () => {
    const sent: { form?: URLSearchParams } = {};
    server.use(
      http.post("https://diauth.garmin.com/di-oauth2-service/oauth/token", async ({ request }) => {
        sent.form = new URLSearchParams(await request.text());
        return HttpResponse.json(fixture("token-response.json"));
      }),
      http.get(`${API}/user/id`, () => HttpResponse.json(fixture("user-id.json"))),
    );
    const tokens = await exchangeCode(garmin, urls, KEYS, { code: "a1b2c3", codeVerifier: "v".repeat(43), redirectUri: "https://svc.example/oauth/garmin/callback" });
    expect(Object.fromEntries(sent.form ?? [])).toEqual({
      grant_type: "authorization_code",
      code: "a1b2c3",
      code_verifier: "v".repeat(43),
      redirect_uri: "https://svc.example/oauth/garmin/callback",
      client_id: KEYS.CLIENT_ID,
      client_secret: KEYS.CLIENT_SECRET,
    });
    expect(tokens.scopes).toEqual(["PARTNER_WRITE", "PARTNER_READ", "CONNECT_READ", "CONNECT_WRITE"]);
    expect(await garmin.identify(clientHarness(garmin, { keys: KEYS }), tokens)).toEqual({ providerUserId: USER });
  });

  it("a refresh answers a new refresh token (rotation)", async () => {
    server.use(
      http.post("https://diauth.garmin.com/di-oauth2-service/oauth/token", () =>
        HttpResponse.json({ ...(fixture("token-response.json") as object), access_token: "new-access", refresh_token: "new-refresh" }),
      ),
    );
    expect(await refreshTokens(garmin, urls, KEYS, "old-refresh")).toMatchObject({ accessToken: "new-access", refreshToken: "new-refresh" });
    expect(garmin.oauth).toMatchObject({ pkce: true, clientAuth: "client_secret_post", rotatesRefreshToken: true, scopes: [] });
  });

  it("revokes by deleting the user's registration", async () => {
    let method = "";
    server.use(
      http.delete(`${API}/user/registration`, ({ request }) => {
        method = request.method;
        return new HttpResponse(null, { status: 204 });
      }),
    );
    await garmin.revoke?.(clientHarness(garmin), { accessToken: "t", refreshToken: null, expiresAt: null, scopes: null, raw: {} });
    expect(method).toBe("DELETE");
  });

  it("checks the notification token's form", () => {
    expect(garmin.checkKeys?.(KEYS)).toBeNull();
    expect(garmin.checkKeys?.({ ...KEYS, NOTIFICATION_TOKEN: "short" })).toMatch(/NOTIFICATION_TOKEN/);
    expect(garmin.checkKeys?.({ ...KEYS, NOTIFICATION_TOKEN: "a".repeat(32) })).toBeNull();
  });
});

describe("garmin pull", () => {
  it("backfill (every type): backfill requests of at most 90 days for each summary type, newest first; nothing stored", async () => {
    server.use(http.get(`${API}/backfill/:type`, () => accepted()));
    const window = { start: at("2024-01-01T00:00:00Z"), end: at("2024-07-19T00:00:00Z") }; // 200 days
    const harness = pullHarness(garmin, { window });
    await garmin.pull(harness.context);

    expect(requests).toHaveLength(ALL_ENDPOINTS.length * 3);
    expect([...new Set(requests.map((url) => url.pathname))]).toEqual(ALL_ENDPOINTS.map((endpoint) => `/wellness-api/rest/backfill/${endpoint}`));
    const end = seconds("2024-07-19T00:00:00Z");
    const days90 = 90 * 86_400;
    expect(requests.filter((url) => url.pathname.endsWith("/backfill/dailies")).map(query)).toEqual([
      { summaryStartTimeInSeconds: String(end - days90), summaryEndTimeInSeconds: String(end) },
      { summaryStartTimeInSeconds: String(end - 2 * days90), summaryEndTimeInSeconds: String(end - days90) },
      { summaryStartTimeInSeconds: String(seconds("2024-01-01T00:00:00Z")), summaryEndTimeInSeconds: String(end - 2 * days90) },
    ]);
    expect(harness.stored).toEqual([]);
  });

  it("backfill: a range already requested (409) and a type the user withheld (412) do not stop the others", async () => {
    server.use(
      http.get(`${API}/backfill/dailies`, () => refusal(409)),
      http.get(`${API}/backfill/sleeps`, () => refusal(412)),
      http.get(`${API}/backfill/:type`, () => accepted()),
    );
    const window = { start: at("2024-06-01T00:00:00Z"), end: at("2024-07-01T00:00:00Z") };
    await garmin.pull(pullHarness(garmin, { window }).context);
    expect(requests.map((url) => url.pathname.split("/").pop())).toEqual(ALL_ENDPOINTS);
  });

  it("a notified pull reads that type by upload time, at most 24 hours a request, and stores each answer", async () => {
    server.use(
      http.get(`${API}/dailies`, ({ request }) => {
        const start = Number(new URL(request.url).searchParams.get("uploadStartTimeInSeconds"));
        return HttpResponse.json(start === seconds("2024-07-01T00:00:00Z") ? fixture("dailies.json") : []);
      }),
    );
    const window = { start: at("2024-07-01T00:00:00Z"), end: at("2024-07-02T06:00:00Z") }; // 30 hours
    const harness = pullHarness(garmin, { window, dataType: "dailies", providerUserId: USER });
    await garmin.pull(harness.context);
    expect(requests.map((url) => `${url.pathname} ${JSON.stringify(query(url))}`)).toEqual([
      `/wellness-api/rest/dailies ${JSON.stringify({ uploadStartTimeInSeconds: String(seconds("2024-07-01T00:00:00Z")), uploadEndTimeInSeconds: String(seconds("2024-07-02T00:00:00Z")) })}`,
      `/wellness-api/rest/dailies ${JSON.stringify({ uploadStartTimeInSeconds: String(seconds("2024-07-02T00:00:00Z")), uploadEndTimeInSeconds: String(seconds("2024-07-02T06:00:00Z")) })}`,
    ]);
    expect(harness.stored).toEqual([{ format: "garmin-dailies", payload: fixture("dailies.json") }]);
  });

  it("incremental: the pull of a ping asks for exactly the ping's upload window, from the configured API", async () => {
    server.use(http.get(`${API}/pulseOx`, () => HttpResponse.json(fixture("pulse-ox.json"))));
    const ping = garmin.notifications!.handle(
      { method: "POST", headers: { "garmin-client-id": KEYS.CLIENT_ID }, query: {}, rawBody: Buffer.from(JSON.stringify(fixture("ping.json"))) },
      [KEYS],
    );
    const pulled = ping.pulls?.find((pull) => pull.dataType === "pulseox");
    expect(pulled?.window).toEqual({ start: new Date(1719901800 * 1000), end: new Date(1719901925 * 1000) });
    const harness = pullHarness(garmin, { window: pulled!.window!, dataType: "pulseox", providerUserId: USER, accessToken: "user-token" });
    await garmin.pull(harness.context);
    expect(requests.map((url) => url.href)).toEqual([`${API}/pulseOx?uploadStartTimeInSeconds=1719901800&uploadEndTimeInSeconds=1719901925`]);
    expect(harness.stored.map((s) => s.format)).toEqual(["garmin-pulse-ox"]);
  });

  it("a refused grant (401) is a ProviderError of kind refused", async () => {
    server.use(http.get(`${API}/dailies`, () => refusal(401)));
    const error = await garmin.pull(pullHarness(garmin, { window: { start: at("2024-07-01T00:00:00Z"), end: at("2024-07-01T01:00:00Z") }, dataType: "dailies" }).context).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ kind: "refused", status: 401 });
  });

  it("a 429 with Retry-After is a ProviderError of kind rate_limited with the seconds to wait", async () => {
    server.use(http.get(`${API}/backfill/:type`, () => refusal(429, { "retry-after": "60" })));
    const error = await garmin.pull(pullHarness(garmin, { window: { start: at("2024-06-01T00:00:00Z"), end: at("2024-07-01T00:00:00Z") } }).context).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ kind: "rate_limited", status: 429, retryAfterSeconds: 60 });
  });
});

describe("garmin notifications", () => {
  const post = (body: unknown, request: Partial<InboundRequest> = {}, keySets: readonly ProviderKeys[] = [KEYS]) =>
    garmin.notifications!.handle(
      { method: "POST", headers: { "garmin-client-id": KEYS.CLIENT_ID, "content-type": "application/json" }, query: {}, rawBody: Buffer.from(JSON.stringify(body)), ...request },
      keySets,
    );
  const pingWindow = { start: new Date(1719901800 * 1000), end: new Date(1719901925 * 1000) };

  it("ping: a pull per user and summary type with the callback URL's upload window, never the URL itself", () => {
    const answer = post(fixture("ping.json"));
    expect(answer).toEqual({
      status: 200,
      pulls: [
        { providerUserId: USER, dataType: "dailies", window: pingWindow },
        { providerUserId: USER, dataType: "pulseox", window: pingWindow },
        { providerUserId: USER, dataType: "respiration", window: pingWindow },
        // skinTemp is a type svc does not read: acknowledged, not pulled.
      ],
      payloads: [],
    });
    expect(JSON.stringify(answer)).not.toMatch(/token=|CPT/);
  });

  it("ping: a callback URL whose path names another type, or an unreadable window, is left out", () => {
    const body = {
      dailies: [
        { userId: USER, callbackURL: `${API}/sleeps?uploadStartTimeInSeconds=1719901800&uploadEndTimeInSeconds=1719901925` },
        { userId: USER, callbackURL: `${API}/dailies?uploadStartTimeInSeconds=1719901925&uploadEndTimeInSeconds=1719901800` },
        { userId: USER, callbackURL: `${API}/dailies?uploadStartTimeInSeconds=17199018000000&uploadEndTimeInSeconds=1719901925` },
        { userId: "not a user id!", callbackURL: `${API}/dailies?uploadStartTimeInSeconds=1719901800&uploadEndTimeInSeconds=1719901925` },
        { userId: USER, callbackURL: "no url" },
      ],
    };
    expect(post(body)).toEqual({ status: 200, pulls: [], payloads: [] });
  });

  it("push: the summaries themselves, one payload per user and type, without the retired userAccessToken", () => {
    const answer = post(fixture("push.json"));
    expect(answer.status).toBe(200);
    expect(answer.pulls).toEqual([]);
    expect(answer.payloads?.map((p) => [p.providerUserId, p.format, (p.payload as unknown[]).length])).toEqual([
      [USER, "garmin-dailies", 1],
      [USER, "garmin-epochs", 2],
    ]);
    expect(JSON.stringify(answer.payloads)).not.toContain("userAccessToken");
    const daily = (answer.payloads?.[0]?.payload as Array<Record<string, unknown>>)[0];
    expect(daily).toMatchObject({ userId: USER, summaryId: "x4e1a2b3-6681d560-15180", steps: 11342 });
    // A pushed payload is parsed like a pulled one.
    expect(garmin.parsers["garmin-dailies"]!(answer.payloads?.[0]?.payload).dailySummaries[0]?.steps).toBe(11342);
  });

  it("deregistration with the application's notification token: the user is answered as revoked, not pulled", () => {
    const withToken: ProviderKeys = { ...KEYS, NOTIFICATION_TOKEN: "n0t1f1cat10n-t0ken-abc" };
    const answer = post(fixture("ping-deregistration.json"), { query: { svc_token: "n0t1f1cat10n-t0ken-abc" } }, [withToken]);
    expect(answer.revoked).toEqual([{ providerUserId: USER }]);
    expect(answer.pulls).toEqual([]);
  });

  it("deregistration without a notification token: a one-minute pull that Garmin refuses with the withdrawn grant", () => {
    const before = Date.now();
    const answer = post(fixture("ping-deregistration.json"));
    expect(answer.revoked).toBeUndefined();
    const pull = answer.pulls?.[0];
    expect(answer.pulls).toHaveLength(1);
    expect(pull).toMatchObject({ providerUserId: USER, dataType: "dailies" });
    expect(pull!.window!.end.getTime() - pull!.window!.start.getTime()).toBe(60_000);
    expect(pull!.window!.end.getTime()).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
  });

  it("refuses notifications without the application's garmin-client-id header, or without its notification token when it has one", () => {
    expect(post(fixture("ping.json"), { headers: { "garmin-client-id": "another-client" } })).toEqual({ status: 401 });
    expect(post(fixture("ping.json"), { headers: {} })).toEqual({ status: 401 });
    const withToken: ProviderKeys = { ...KEYS, NOTIFICATION_TOKEN: "n0t1f1cat10n-t0ken-abc" };
    expect(post(fixture("push.json"), {}, [withToken])).toEqual({ status: 401 });
    expect(post(fixture("push.json"), { query: { svc_token: "wrong-token-wrong-token" } }, [withToken])).toEqual({ status: 401 });
    expect(post(fixture("push.json"), { query: { svc_token: "n0t1f1cat10n-t0ken-abc" } }, [withToken]).payloads).toHaveLength(2);
    // Another application's key set verifies its own notifications.
    const tenantKeys: ProviderKeys = { CLIENT_ID: "tenant-own-client", CLIENT_SECRET: "s" };
    expect(post(fixture("ping.json"), { headers: { "garmin-client-id": "tenant-own-client" } }, [KEYS, tenantKeys]).status).toBe(200);
  });

  it("answers 400 to a body that is not a notification, 405 to other methods, 404 when no application is configured", () => {
    expect(post({}, { rawBody: Buffer.from("{nope") }).status).toBe(400);
    expect(post([1, 2]).status).toBe(400);
    expect(post({}, { method: "GET" }).status).toBe(405);
    expect(post(fixture("ping.json"), {}, []).status).toBe(404);
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

const parse = (format: string, file: string): ParsedRecords => {
  const parsed = garmin.parsers[format]!(fixture(file));
  expectStorable(parsed);
  return parsed;
};
const samplesOf = (parsed: ParsedRecords, type: string) => parsed.quantitySamples.filter((s) => s.type === type).map((s) => [s.start_date.toISOString(), s.value]);

describe("garmin mapping (values from the fixtures)", () => {
  it("dailies: a daily summary per calendar date, resting and all-day heart rate", () => {
    const parsed = parse("garmin-dailies", "dailies.json");
    expect(parsed.rejected).toEqual([]);
    expect(parsed.dailySummaries[0]).toMatchObject({
      date: "2024-07-01",
      timezone: "+02:00", // startTimeOffsetInSeconds 7200
      steps: 11342,
      distance_meters: 8712.4,
      active_energy_kcal: 612,
      total_energy_kcal: 2301, // active 612 + BMR 1689
      floors_climbed: 14,
      active_seconds: 5640,
      resting_heart_rate: 52,
      source: "garmin",
      on_body: true,
      metadata: { bmr_kcal: 1689, seven_day_average_heart_rate: 64, min_heart_rate: 48, max_heart_rate: 171, average_stress_level: 31, stress_qualifier: "balanced", body_battery_charged: 62 },
    });
    expect(parsed.dailySummaries[0]?.average_heart_rate).toBeUndefined(); // Garmin's average spans 7 days
    expect(parsed.dailySummaries[1]).toMatchObject({ date: "2024-07-02", total_energy_kcal: 1063, resting_heart_rate: 54 }); // 204 + 859
    const resting = parsed.quantitySamples.filter((s) => s.type === "resting_heart_rate");
    expect(resting.map((s) => [s.value, s.start_date.toISOString(), s.end_date?.toISOString(), s.external_id])).toEqual([
      [52, "2024-06-30T22:00:00.000Z", "2024-07-01T22:00:00.000Z", "dailies:1719784800"], // 86,400 s
      [54, "2024-07-01T22:00:00.000Z", "2024-07-02T10:12:00.000Z", "dailies:1719871200"], // a mid-day sync: 43,920 s = 12 h 12 min
    ]);
    // Offsets 15, 30, 45, 3180 (53 min), 3195 s from 22:00:00Z.
    expect(samplesOf(parsed, "heart_rate").slice(0, 5)).toEqual([
      ["2024-06-30T22:00:15.000Z", 56],
      ["2024-06-30T22:00:30.000Z", 55],
      ["2024-06-30T22:00:45.000Z", 54],
      ["2024-06-30T22:53:00.000Z", 51],
      ["2024-06-30T22:53:15.000Z", 50],
    ]);
  });

  it("epochs: steps, distance and active energy over each 15 minutes, per activity type", () => {
    const parsed = parse("garmin-epochs", "epochs.json");
    expect(parsed.quantitySamples.map((s) => [s.type, s.value, s.start_date.toISOString(), s.end_date?.toISOString(), s.external_id])).toEqual([
      // SEDENTARY: 0 steps and 0 m are left out.
      ["active_energy_burned", 2, "2024-07-01T05:30:00.000Z", "2024-07-01T05:45:00.000Z", "epochs:1719811800:SEDENTARY"],
      ["step_count", 412, "2024-07-01T05:30:00.000Z", "2024-07-01T05:45:00.000Z", "epochs:1719811800:WALKING"],
      ["distance_walking_running", 318.77, "2024-07-01T05:30:00.000Z", "2024-07-01T05:45:00.000Z", "epochs:1719811800:WALKING"],
      ["active_energy_burned", 18, "2024-07-01T05:30:00.000Z", "2024-07-01T05:45:00.000Z", "epochs:1719811800:WALKING"],
      ["step_count", 1890, "2024-07-01T05:45:00.000Z", "2024-07-01T06:00:00.000Z", "epochs:1719812700:RUNNING"],
      ["distance_walking_running", 2476.5, "2024-07-01T05:45:00.000Z", "2024-07-01T06:00:00.000Z", "epochs:1719812700:RUNNING"],
      ["active_energy_burned", 201, "2024-07-01T05:45:00.000Z", "2024-07-01T06:00:00.000Z", "epochs:1719812700:RUNNING"],
    ]);
    expect(parsed.quantitySamples[1]).toMatchObject({ timezone: "+02:00", source: "garmin", on_body: true, metadata: { garmin_activity_type: "WALKING", intensity: "ACTIVE", met: 3.3 } });
  });

  it("sleeps: the night with its stages, score and phases, a nap, an off-wrist night, respiration and SpO2 during sleep", () => {
    const parsed = parse("garmin-sleeps", "sleeps.json");
    const [night, nap, offWrist] = parsed.sleepSessions;
    expect(night).toMatchObject({
      kind: "sleep",
      bedtime_start: at("2024-06-30T21:12:00Z"),
      bedtime_end: at("2024-07-01T04:58:00Z"), // + 27,960 s = 7 h 46 min
      timezone: "+02:00",
      total_sleep_seconds: 26640, // deep 5,520 + light 14,760 + REM 6,360
      awake_seconds: 1320,
      deep_seconds: 5520,
      light_seconds: 14760,
      rem_seconds: 6360,
      score: 84,
      external_id: "sleeps:1719781920",
      metadata: { validation: "ENHANCED_FINAL", sleep_score_qualifier: "GOOD", unmeasurable_seconds: 0 },
    });
    expect(night?.phases).toHaveLength(10);
    expect(night?.phases?.[0]).toEqual({ stage: "light", start_date: at("2024-06-30T21:12:00Z"), end_date: at("2024-06-30T21:40:00Z") });
    expect(night?.phases?.[9]).toEqual({ stage: "awake", start_date: at("2024-07-01T04:46:00Z"), end_date: at("2024-07-01T04:58:00Z") });
    expect(nap).toMatchObject({ kind: "nap", bedtime_start: at("2024-07-01T12:20:00Z"), bedtime_end: at("2024-07-01T12:45:00Z"), external_id: "naps:1719836400" }); // 1,500 s
    expect(offWrist).toMatchObject({ bedtime_start: at("2024-07-01T21:40:00Z"), bedtime_end: at("2024-07-02T04:50:00Z"), total_sleep_seconds: null, deep_seconds: null }); // 25,800 s
    expect(offWrist?.phases).toBeUndefined();
    expect(samplesOf(parsed, "respiratory_rate")).toEqual([
      ["2024-06-30T21:13:00.000Z", 14.2],
      ["2024-06-30T21:14:00.000Z", 13.9],
      ["2024-06-30T21:15:00.000Z", 14.4],
    ]);
    expect(samplesOf(parsed, "oxygen_saturation")).toEqual([
      ["2024-06-30T21:12:00.000Z", 95],
      ["2024-06-30T21:13:00.000Z", 96],
      ["2024-06-30T21:14:00.000Z", 94],
    ]);
  });

  it("bodyComps: masses in kg (grams / 1000), body fat and BMI, from a scale (not worn)", () => {
    const parsed = parse("garmin-body-comps", "body-comps.json");
    expect(parsed.quantitySamples.map((s) => [s.type, s.value, s.unit])).toEqual([
      ["body_mass", 76.42, "kg"], // 76,420 g
      ["muscle_mass", 33.85, "kg"], // 33,850 g
      ["bone_mass", 3.41, "kg"], // 3,410 g
      ["body_fat_percentage", 19.4, "%"],
      ["body_mass_index", 23.6, "kg/m2"],
      ["body_mass", 76.1, "kg"], // the weight entered by hand: 76,100 g
    ]);
    expect(parsed.quantitySamples[0]).toMatchObject({
      start_date: at("2024-07-01T05:02:11Z"),
      timezone: "+02:00",
      on_body: false,
      external_id: "bodyComps:1719810131",
      metadata: { body_water_percentage: 56.8 },
    });
  });

  it("stressDetails: stress levels (negative states left out) and Body Battery", () => {
    const parsed = parse("garmin-stress-details", "stress-details.json");
    // Offsets 0, 180, 540 s from 22:00:00Z; 360 (-1, off wrist) and 720 (-2, large motion) are states.
    expect(samplesOf(parsed, "stress_level")).toEqual([
      ["2024-06-30T22:00:00.000Z", 18],
      ["2024-06-30T22:03:00.000Z", 22],
      ["2024-06-30T22:09:00.000Z", 45],
    ]);
    expect(samplesOf(parsed, "body_battery")).toEqual([
      ["2024-06-30T22:00:00.000Z", 41],
      ["2024-06-30T22:03:00.000Z", 41],
      ["2024-06-30T22:06:00.000Z", 42],
    ]);
  });

  it("userMetrics: VO2 max on its calendar date", () => {
    const parsed = parse("garmin-user-metrics", "user-metrics.json");
    expect(parsed.quantitySamples).toEqual([
      expect.objectContaining({
        type: "vo2_max",
        value: 51,
        start_date: at("2024-07-01T00:00:00Z"),
        external_id: "userMetrics:2024-07-01",
        metadata: expect.objectContaining({ vo2_max_cycling: 48, fitness_age: 31, enhanced: true }),
      }),
    ]);
  });

  it("pulse ox: all-day and on-demand SpO2 readings", () => {
    const parsed = parse("garmin-pulse-ox", "pulse-ox.json");
    // 3,600 s after 22:00:00Z is 23:00:00Z; the on-demand 52,200 s (14 h 30 min) is 12:30:00Z the next day.
    expect(samplesOf(parsed, "oxygen_saturation")).toEqual([
      ["2024-06-30T23:00:00.000Z", 96],
      ["2024-06-30T23:01:00.000Z", 95],
      ["2024-06-30T23:02:00.000Z", 97],
      ["2024-07-01T12:30:00.000Z", 98],
    ]);
    expect(parsed.quantitySamples.map((s) => s.metadata?.on_demand)).toEqual([false, false, false, true]);
  });

  it("respiration: breaths per minute", () => {
    expect(samplesOf(parse("garmin-respiration", "respiration.json"), "respiratory_rate")).toEqual([
      ["2024-07-01T06:15:00.000Z", 14.63],
      ["2024-07-01T06:16:00.000Z", 14.4],
      ["2024-07-01T06:17:00.000Z", 15.02],
    ]);
  });

  it("hrv: the overnight 5-minute RMSSD values", () => {
    const parsed = parse("garmin-hrv", "hrv.json");
    expect(samplesOf(parsed, "hrv_rmssd")).toEqual([
      ["2024-06-30T21:25:00.000Z", 42],
      ["2024-06-30T21:30:00.000Z", 51],
      ["2024-06-30T21:35:00.000Z", 47],
    ]);
    expect(parsed.quantitySamples[0]?.metadata).toMatchObject({ last_night_average: 47, last_night_5_min_high: 71 });
  });

  it("activities: workouts from activity summaries", () => {
    const parsed = parse("garmin-activities", "activities.json");
    const [run, strength] = parsed.workouts;
    expect(run).toMatchObject({
      activity_type: "running",
      name: "Berlin Running",
      start_date: at("2024-07-01T16:05:12Z"),
      end_date: at("2024-07-01T16:52:35Z"), // + 2,843 s = 47 min 23 s
      timezone: "+02:00",
      distance_meters: 8465.29,
      active_energy_kcal: 598,
      average_heart_rate: 152,
      max_heart_rate: 176,
      elevation_gain_meters: 41,
      steps: 7940,
      source: "garmin",
      device: "forerunner265",
      on_body: true,
      external_id: "16204818203",
      metadata: { garmin_activity_type: "RUNNING", average_speed: 2.98, average_run_cadence: 168, elevation_loss: 39 },
    });
    expect(run?.route).toBeUndefined();
    expect(strength).toMatchObject({ activity_type: "strength_training", device: null, on_body: false, end_date: at("2024-07-02T18:15:00Z"), metadata: { manual: true } });
  });

  it("activityDetails: the same workout with its route, heart rate, step cadence and power", () => {
    const parsed = parse("garmin-activity-details", "activity-details.json");
    const [workout] = parsed.workouts;
    expect(workout).toMatchObject({ external_id: "16204818203", activity_type: "running", duration_seconds: 2790 });
    // The first sample has no position yet: two route points.
    expect(workout?.route).toEqual([
      { timestamp: at("2024-07-01T16:05:13Z"), latitude: 52.5145, longitude: 13.3501, altitude: 35.2, speed: 2.61, heart_rate: 99 },
      { timestamp: at("2024-07-01T16:05:14Z"), latitude: 52.51452, longitude: 13.35014, altitude: 35.4, speed: 2.88, heart_rate: 103 },
    ]);
    expect(samplesOf(parsed, "heart_rate").map(([, v]) => v)).toEqual([96, 99, 103]);
    expect(samplesOf(parsed, "step_cadence").map(([, v]) => v)).toEqual([164, 168]); // Garmin's stepsPerMinute as sent; the 0 is no reading
    expect(samplesOf(parsed, "running_power")).toEqual([["2024-07-01T16:05:14.000Z", 264]]);
  });

  it("rejects summaries it cannot read, without quoting them; refuses a payload that is not a list", () => {
    const parsed = garmin.parsers["garmin-sleeps"]!([{ summaryId: "secret-ish", startTimeInSeconds: "yesterday" }, null]);
    expect(parsed.rejected.map((r) => r.locator)).toEqual(["sleeps[0]", "sleeps[1]"]);
    expect(JSON.stringify(parsed.rejected)).not.toMatch(/yesterday|secret-ish/);
    for (const format of Object.keys(garmin.parsers)) expect(() => garmin.parsers[format]!({ dailies: [] })).toThrow();
  });
});
