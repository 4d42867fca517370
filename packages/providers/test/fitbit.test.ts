import { createHmac } from "node:crypto";
import { exchangeCode, findQuantityType, ProviderError, refreshTokens, toStorageUnit, type InboundRequest, type ParsedRecords, type ProviderKeys, type ProviderTokens } from "@svc/core";
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { provider as fitbit } from "../src/fitbit/connector.ts";
import { clientHarness, pullHarness } from "./helpers/connector-harness.ts";
import { fakeFitbitApi, FITBIT_USER_ID, fitbitFixture } from "./helpers/fitbit-api.ts";

const api = fakeFitbitApi();
const server = setupServer(...api.handlers);

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => {
  server.resetHandlers();
  api.requests.length = 0;
});
afterAll(() => server.close());

const KEYS = { CLIENT_ID: "23ABCD", CLIENT_SECRET: "fixture-client-secret", SUBSCRIBER_VERIFICATION_CODE: "3c7e1f0a9b2d4c6e8f1a3b5c7d9e0f21" };
const OTHER_KEYS = { CLIENT_ID: "23WXYZ", CLIENT_SECRET: "another-tenant-secret", SUBSCRIBER_VERIFICATION_CODE: "9d8c7b6a5f4e3d2c1b0a9f8e7d6c5b4a" };
const tokens: ProviderTokens = { accessToken: "test-access-token", refreshToken: "fitbit-refresh", expiresAt: null, scopes: null, raw: {} };
const parse = (format: string, payload: unknown): ParsedRecords => {
  const parser = fitbit.parsers[format];
  if (!parser) throw new Error(`no parser for ${format}`);
  return parser(payload);
};
/** `GET /path?query` of each request, in order. */
const asked = () => api.requests.map((r) => `${r.method} ${r.url.pathname}${r.url.search ? `?${r.url.searchParams.toString()}` : ""}`);
const envelope = (response: unknown) => ({ timezone: "Europe/Berlin", response });

describe("fitbit connector settings", () => {
  it("names its keys, URLs and OAuth rules as Fitbit documents them", () => {
    expect(fitbit.kind).toBe("push");
    expect(fitbit.keys.map((key) => key.env)).toEqual([
      "SVC_FITBIT_CLIENT_ID",
      "SVC_FITBIT_CLIENT_SECRET",
      "SVC_FITBIT_SUBSCRIBER_VERIFICATION_CODE",
      "SVC_FITBIT_SUBSCRIBER_ID",
    ]);
    expect(fitbit.urls).toEqual({
      authorize: "https://www.fitbit.com/oauth2/authorize",
      token: "https://api.fitbit.com/oauth2/token",
      api: "https://api.fitbit.com",
      revoke: "https://api.fitbit.com/oauth2/revoke",
    });
    // PKCE, basic client authentication, rotating refresh tokens.
    expect(fitbit.oauth).toMatchObject({ pkce: true, clientAuth: "client_secret_basic", rotatesRefreshToken: true });
    expect(fitbit.rateLimits).toEqual({ user: { requests: 150, windowSeconds: 3600 } });
    expect(fitbit.notificationTypes).toEqual(["activities", "body", "sleep"]);
  });
});

describe("fitbit token answers", () => {
  it("exchanges a code with basic client credentials and the PKCE verifier; the answer names the user", async () => {
    const seen: Array<{ authorization: string | null; form: URLSearchParams }> = [];
    server.use(
      http.post("https://api.fitbit.com/oauth2/token", async ({ request }) => {
        const form = new URLSearchParams(await request.text());
        seen.push({ authorization: request.headers.get("authorization"), form });
        const answer = fitbitFixture("token.json") as Record<string, unknown>;
        return HttpResponse.json(form.get("grant_type") === "refresh_token" ? { ...answer, refresh_token: "fitbit-second-refresh-token" } : answer);
      }),
    );
    const granted = await exchangeCode(fitbit, fitbit.urls, KEYS, { code: "the-code", codeVerifier: "the-verifier-of-43-characters-at-least-0123", redirectUri: "https://svc.example/oauth/fitbit/callback" });
    expect(seen[0]?.authorization).toBe(`Basic ${Buffer.from("23ABCD:fixture-client-secret").toString("base64")}`);
    expect(Object.fromEntries(seen[0]?.form ?? [])).toMatchObject({ grant_type: "authorization_code", code: "the-code", code_verifier: "the-verifier-of-43-characters-at-least-0123" });
    expect(granted.scopes).toEqual(["activity", "heartrate", "sleep", "weight", "oxygen_saturation", "respiratory_rate", "temperature", "profile"]);
    // The token answer's user_id is the user: identify asks nothing more.
    expect(await fitbit.identify(clientHarness(fitbit, { keys: KEYS }), granted)).toEqual({ providerUserId: FITBIT_USER_ID });
    expect(api.requests).toEqual([]);

    const refreshed = await refreshTokens(fitbit, fitbit.urls, KEYS, "fitbit-fixture-refresh-token");
    expect(refreshed.refreshToken).toBe("fitbit-second-refresh-token");
  });

  it("identifies by the profile when the token answer has no user_id", async () => {
    expect(await fitbit.identify(clientHarness(fitbit, { keys: KEYS }), tokens)).toEqual({ providerUserId: FITBIT_USER_ID });
    expect(asked()).toEqual(["GET /1/user/-/profile.json"]);
  });
});

describe("fitbit pull", () => {
  it("backfills 91 local days: the profile's zone, then each endpoint in ranges within Fitbit's limits", async () => {
    const { context, stored } = pullHarness(fitbit, { keys: KEYS, window: { start: new Date("2023-12-06T00:00:00Z"), end: new Date("2024-03-05T00:00:00Z") } });
    await fitbit.pull(context);
    // In Europe/Berlin the window covers the local dates 2023-12-06 to 2024-03-05.
    const series = ["steps", "distance", "calories", "activityCalories", "floors", "minutesFairlyActive", "minutesVeryActive", "heart"];
    const thirty = ["2023-12-06/2024-01-04", "2024-01-05/2024-02-03", "2024-02-04/2024-03-04", "2024-03-05/2024-03-05"];
    expect(asked()).toEqual([
      "GET /1/user/-/profile.json",
      // One range up to a year holds every activity series and the heart rate series.
      ...series.map((resource) => `GET /1/user/-/activities/${resource}/date/2023-12-06/2024-03-05.json`),
      // The exercise log in pages (two per page here), following pagination.next.
      "GET /1/user/-/activities/list.json?afterDate=2023-12-06T00%3A00%3A00&sort=asc&offset=0&limit=100",
      "GET /1/user/-/activities/list.json?offset=0&limit=100&sort=asc&afterDate=2024-03-02T08%3A15%3A00",
      // Sleep allows 100 days; SpO2, HRV, breathing rate and skin temperature 30.
      "GET /1.2/user/-/sleep/date/2023-12-06/2024-03-05.json",
      ...thirty.map((range) => `GET /1/user/-/spo2/date/${range}.json`),
      ...thirty.map((range) => `GET /1/user/-/hrv/date/${range}.json`),
      ...thirty.map((range) => `GET /1/user/-/br/date/${range}.json`),
      ...thirty.map((range) => `GET /1/user/-/temp/skin/date/${range}.json`),
      // The weight log allows 31 days.
      ...["2023-12-06/2024-01-05", "2024-01-06/2024-02-05", "2024-02-06/2024-03-05"].map((range) => `GET /1/user/-/body/log/weight/date/${range}.json`),
    ]);
    // No Accept-Language: Fitbit answers in metric units.
    expect(api.requests.every((r) => r.headers.get("accept-language") === null)).toBe(true);
    expect(stored.map((s) => s.format).slice(0, 4)).toEqual(["fitbit-activity-series", "fitbit-activity-log", "fitbit-activity-log", "fitbit-sleep"]);
    expect(stored).toHaveLength(1 + 2 + 1 + 16 + 3);
    expect(stored.every((s) => (s.payload as { timezone: unknown }).timezone === "Europe/Berlin")).toBe(true);
    // Every stored payload parses.
    const all = stored.map((s) => parse(s.format, s.payload));
    expect(all.reduce((n, p) => n + p.dailySummaries.length, 0)).toBe(4);
    expect(all.reduce((n, p) => n + p.workouts.length, 0)).toBe(3);
    expect(all.reduce((n, p) => n + p.sleepSessions.length, 0)).toBe(2);
    expect(all.flatMap((p) => p.rejected)).toEqual([]);
  });

  it("pulls a notification's collection over the notified dates only", async () => {
    const notified = fitbit.notifications?.handle(signed(JSON.stringify(fitbitFixture("notification.json")), KEYS), [KEYS]);
    const sleepPull = notified?.pulls?.find((pull) => pull.dataType === "sleep");
    expect(sleepPull).toBeDefined();
    const { context } = pullHarness(fitbit, { keys: KEYS, providerUserId: FITBIT_USER_ID, dataType: "sleep", window: sleepPull!.window! });
    await fitbit.pull(context);
    // 2024-03-03 in any zone: 2024-03-02T10:00Z to 2024-03-04T12:00Z, local dates 03-02 to 03-04 in Berlin.
    expect(asked()).toEqual([
      "GET /1/user/-/profile.json",
      "GET /1.2/user/-/sleep/date/2024-03-02/2024-03-04.json",
      "GET /1/user/-/spo2/date/2024-03-02/2024-03-04.json",
      "GET /1/user/-/hrv/date/2024-03-02/2024-03-04.json",
      "GET /1/user/-/br/date/2024-03-02/2024-03-04.json",
      "GET /1/user/-/temp/skin/date/2024-03-02/2024-03-04.json",
    ]);
  });

  it("pulls a short scheduled window as one local date, and skips what the user did not grant", async () => {
    const scopes = ["activity", "sleep", "oxygen_saturation", "profile"];
    const { context } = pullHarness(fitbit, { keys: KEYS, scopes, window: { start: new Date("2024-03-04T06:00:00Z"), end: new Date("2024-03-04T12:00:00Z") } });
    await fitbit.pull(context);
    expect(asked()).toEqual([
      "GET /1/user/-/profile.json",
      // No heartrate scope: no heart rate series, no HRV. No weight, respiratory_rate or temperature scope either.
      ...["steps", "distance", "calories", "activityCalories", "floors", "minutesFairlyActive", "minutesVeryActive"].map((r) => `GET /1/user/-/activities/${r}/date/2024-03-04/2024-03-04.json`),
      "GET /1/user/-/activities/list.json?afterDate=2024-03-04T00%3A00%3A00&sort=asc&offset=0&limit=100",
      "GET /1.2/user/-/sleep/date/2024-03-04/2024-03-04.json",
      "GET /1/user/-/spo2/date/2024-03-04/2024-03-04.json",
    ]);
  });

  it("turns a refused grant into a refused ProviderError", async () => {
    const { context } = pullHarness(fitbit, { keys: KEYS, accessToken: "revoked", window: { start: new Date("2024-03-02T00:00:00Z"), end: new Date("2024-03-03T00:00:00Z") } });
    const error = await fitbit.pull(context).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ kind: "refused", status: 401 });
  });

  it("turns a 429 into rate_limited with Retry-After", async () => {
    server.use(
      http.get("https://api.fitbit.com/1.2/user/-/sleep/date/:start/:end", () =>
        new HttpResponse(null, { status: 429, headers: { "Retry-After": "1800", "Fitbit-Rate-Limit-Limit": "150", "Fitbit-Rate-Limit-Remaining": "0", "Fitbit-Rate-Limit-Reset": "1800" } }),
      ),
    );
    const { context } = pullHarness(fitbit, { keys: KEYS, dataType: "sleep", window: { start: new Date("2024-03-02T00:00:00Z"), end: new Date("2024-03-03T00:00:00Z") } });
    expect(await fitbit.pull(context).catch((e: unknown) => e)).toMatchObject({ kind: "rate_limited", status: 429, retryAfterSeconds: 1800 });
  });
});

/** A notification POST signed as Fitbit signs it: base64(HMAC-SHA1(body, CLIENT_SECRET + "&")). */
function signed(body: string, keys: { CLIENT_SECRET: string }, signature?: string): InboundRequest {
  const value = signature ?? createHmac("sha1", `${keys.CLIENT_SECRET}&`).update(body).digest("base64");
  return { method: "POST", headers: { "content-type": "application/json", "x-fitbit-signature": value }, query: {}, rawBody: Buffer.from(body) };
}
const verify = (code: string | undefined): InboundRequest => ({ method: "GET", headers: {}, query: code === undefined ? {} : { verify: code }, rawBody: Buffer.alloc(0) });

describe("fitbit notifications", () => {
  const handle = (request: InboundRequest, keySets: ProviderKeys[] = [OTHER_KEYS, KEYS]) => fitbit.notifications!.handle(request, keySets);
  const body = JSON.stringify(fitbitFixture("notification.json"));

  it("answers the subscriber verification: 204 to a known code, 404 to any other", () => {
    expect(handle(verify(KEYS.SUBSCRIBER_VERIFICATION_CODE))).toEqual({ status: 204 });
    expect(handle(verify(OTHER_KEYS.SUBSCRIBER_VERIFICATION_CODE))).toEqual({ status: 204 });
    expect(handle(verify("0000000000000000000000000000000"))).toEqual({ status: 404 });
    expect(handle(verify(undefined))).toEqual({ status: 404 });
    expect(handle(verify(KEYS.SUBSCRIBER_VERIFICATION_CODE), [{ CLIENT_ID: "x", CLIENT_SECRET: "y" }])).toEqual({ status: 404 });
  });

  it("turns a signed notification into one pull per user, collection and date, without taking data from the body", () => {
    const answer = handle(signed(body, KEYS));
    expect(answer.status).toBe(204);
    expect(answer.payloads).toBeUndefined();
    // The duplicate activities entry is one pull; userRevokedAccess names a revoked grant.
    expect(answer.revoked).toEqual([{ providerUserId: "C9R4T1" }]);
    expect(answer.pulls).toEqual([
      { providerUserId: FITBIT_USER_ID, dataType: "sleep", window: { start: new Date("2024-03-02T10:00:00Z"), end: new Date("2024-03-04T12:00:00Z") } },
      { providerUserId: FITBIT_USER_ID, dataType: "activities", window: { start: new Date("2024-03-02T10:00:00Z"), end: new Date("2024-03-04T12:00:00Z") } },
    ]);
  });

  it("a user who revoked access is answered as revoked and not pulled in the same notification", () => {
    const revokedBody = JSON.stringify([
      { collectionType: "sleep", date: "2024-03-03", ownerId: FITBIT_USER_ID, ownerType: "user", subscriptionId: "s-1" },
      { collectionType: "userRevokedAccess", date: "2024-03-03", ownerId: FITBIT_USER_ID, ownerType: "user", subscriptionId: "s-1" },
    ]);
    expect(handle(signed(revokedBody, KEYS))).toEqual({ status: 204, pulls: [], revoked: [{ providerUserId: FITBIT_USER_ID }] });
    // Unsigned, the same body revokes nothing.
    expect(handle(signed(revokedBody, { CLIENT_SECRET: "not-the-secret" }))).toEqual({ status: 404 });
  });

  it("refuses a bad or missing signature with 404 and no pulls", () => {
    expect(handle(signed(body, { CLIENT_SECRET: "not-the-secret" }))).toEqual({ status: 404 });
    expect(handle(signed(`${body} `, KEYS, createHmac("sha1", `${KEYS.CLIENT_SECRET}&`).update(body).digest("base64")))).toEqual({ status: 404 });
    expect(handle({ method: "POST", headers: {}, query: {}, rawBody: Buffer.from(body) })).toEqual({ status: 404 });
  });

  it("answers 400 to a signed body that is not a list", () => {
    expect(handle(signed('{"collectionType":"sleep"}', KEYS))).toMatchObject({ status: 400 });
    expect(handle({ ...verify(undefined), method: "PUT" })).toEqual({ status: 405 });
  });
});

describe("fitbit subscriptions and revoke", () => {
  it("subscribes the user to activities, body and sleep, naming the subscriber when the keys do", async () => {
    const client = clientHarness(fitbit, { keys: { ...KEYS, SUBSCRIBER_ID: "2" } });
    const ids = await fitbit.subscribe!(client, { providerUserId: FITBIT_USER_ID, callbackUrl: "https://svc.example/providers/fitbit/notifications" });
    expect(ids).toEqual(["activities/BX7Q2P-activities", "body/BX7Q2P-body", "sleep/BX7Q2P-sleep"]);
    expect(asked()).toEqual([
      "POST /1/user/-/activities/apiSubscriptions/BX7Q2P-activities.json",
      "POST /1/user/-/body/apiSubscriptions/BX7Q2P-body.json",
      "POST /1/user/-/sleep/apiSubscriptions/BX7Q2P-sleep.json",
    ]);
    expect(api.requests.every((r) => r.headers.get("x-fitbit-subscriber-id") === "2")).toBe(true);

    api.requests.length = 0;
    await fitbit.unsubscribe!(client, { providerUserId: FITBIT_USER_ID, externalId: "body/BX7Q2P-body", callbackUrl: "https://svc.example/providers/fitbit/notifications" });
    expect(asked()).toEqual(["DELETE /1/user/-/body/apiSubscriptions/BX7Q2P-body.json"]);
  });

  it("skips a collection whose scope was not granted (403)", async () => {
    server.use(http.post("https://api.fitbit.com/1/user/-/body/apiSubscriptions/:id", () => new HttpResponse(null, { status: 403 })));
    const ids = await fitbit.subscribe!(clientHarness(fitbit, { keys: KEYS }), { providerUserId: FITBIT_USER_ID, callbackUrl: "https://svc.example/x" });
    expect(ids).toEqual(["activities/BX7Q2P-activities", "sleep/BX7Q2P-sleep"]);
  });

  it("revokes the grant with the refresh token and basic credentials", async () => {
    await fitbit.revoke!(clientHarness(fitbit, { keys: KEYS }), tokens);
    const [request] = api.requests;
    expect(request?.url.pathname).toBe("/oauth2/revoke");
    expect(request?.headers.get("authorization")).toBe(`Basic ${Buffer.from("23ABCD:fixture-client-secret").toString("base64")}`);
  });
});

describe("fitbit mapping", () => {
  it("maps the activity series to daily summaries and resting heart rate, checked by hand", () => {
    const responses: Record<string, unknown> = {};
    for (const resource of ["steps", "distance", "calories", "activityCalories", "floors", "minutesFairlyActive", "minutesVeryActive", "heart"]) {
      responses[resource] = fitbitFixture(`activities-${resource}.json`);
    }
    const parsed = parse("fitbit-activity-series", { timezone: "Europe/Berlin", responses });
    const summaries = parsed.dailySummaries.map(({ date, steps, distance_meters, total_energy_kcal, active_energy_kcal, floors_climbed, active_seconds, resting_heart_rate, timezone }) => ({
      date,
      steps,
      distance_meters,
      total_energy_kcal,
      active_energy_kcal,
      floors_climbed,
      active_seconds,
      resting_heart_rate,
      timezone,
    }));
    expect(summaries).toEqual([
      // distance "6.21" km = 6210 m; active time (21 fairly + 18 very) min = 2340 s.
      { date: "2024-03-01", steps: 8523, distance_meters: 6210, total_energy_kcal: 2311, active_energy_kcal: 834, floors_climbed: 9, active_seconds: 2340, resting_heart_rate: 58, timezone: "Europe/Berlin" },
      // (34 + 42) min = 4560 s.
      { date: "2024-03-02", steps: 11042, distance_meters: 8050, total_energy_kcal: 2540, active_energy_kcal: 1051, floors_climbed: 14, active_seconds: 4560, resting_heart_rate: 57, timezone: "Europe/Berlin" },
      // No restingHeartRate that day; (8 + 0) min = 480 s.
      { date: "2024-03-03", steps: 4317, distance_meters: 3140, total_energy_kcal: 2012, active_energy_kcal: 512, floors_climbed: 3, active_seconds: 480, resting_heart_rate: null, timezone: "Europe/Berlin" },
      { date: "2024-03-04", steps: 9870, distance_meters: 7190, total_energy_kcal: 2405, active_energy_kcal: 903, floors_climbed: 11, active_seconds: 2520, resting_heart_rate: 59, timezone: "Europe/Berlin" },
    ]);
    // Resting heart rate over the local day: Berlin midnight is 23:00 UTC the day before (UTC+1 in March).
    expect(parsed.quantitySamples.map((s) => [s.type, s.value, s.start_date.toISOString(), s.end_date?.toISOString(), s.external_id])).toEqual([
      ["resting_heart_rate", 58, "2024-02-29T23:00:00.000Z", "2024-03-01T23:00:00.000Z", "resting_heart_rate:2024-03-01"],
      ["resting_heart_rate", 57, "2024-03-01T23:00:00.000Z", "2024-03-02T23:00:00.000Z", "resting_heart_rate:2024-03-02"],
      ["resting_heart_rate", 59, "2024-03-03T23:00:00.000Z", "2024-03-04T23:00:00.000Z", "resting_heart_rate:2024-03-04"],
    ]);
  });

  it("maps sleep logs to sessions with stages, local times read in the profile's zone", () => {
    const parsed = parse("fitbit-sleep", envelope(fitbitFixture("sleep.json")));
    const [main, nap] = parsed.sleepSessions;
    expect(main).toMatchObject({
      kind: "sleep",
      // startTime 2024-03-01T23:12:30 in Berlin (UTC+1).
      bedtime_start: new Date("2024-03-01T22:12:30Z"),
      bedtime_end: new Date("2024-03-02T05:54:30Z"),
      timezone: "Europe/Berlin",
      // Minutes × 60: asleep 419, awake 43, light 241, deep 78, rem 100.
      total_sleep_seconds: 25_140,
      awake_seconds: 2580,
      light_seconds: 14_460,
      deep_seconds: 4680,
      rem_seconds: 6000,
      latency_seconds: 0,
      // 93 % as a fraction.
      efficiency: 0.93,
      external_id: "45612378901",
      source: "fitbit",
    });
    expect(main?.phases).toHaveLength(11);
    expect(main?.phases?.[0]).toEqual({ stage: "awake", start_date: new Date("2024-03-01T22:12:30Z"), end_date: new Date("2024-03-01T22:17:30Z") });
    expect(main?.phases?.at(-1)).toEqual({ stage: "light", start_date: new Date("2024-03-02T05:28:30Z"), end_date: new Date("2024-03-02T05:54:30Z") });
    // A classic nap: restless counts as awake, no stage totals.
    expect(nap).toMatchObject({
      kind: "nap",
      bedtime_start: new Date("2024-03-03T13:05:00Z"),
      bedtime_end: new Date("2024-03-03T13:47:00Z"),
      total_sleep_seconds: 2160,
      awake_seconds: 360,
      light_seconds: null,
      efficiency: 0.86,
      external_id: "45612378902",
    });
    expect(nap?.phases?.map((p) => p.stage)).toEqual(["asleep", "awake", "asleep", "awake", "awake"]);
    expect(parsed.rejected).toEqual([]);
  });

  it("maps the weight log to body mass, BMI and body fat", () => {
    const parsed = parse("fitbit-weight", envelope(fitbitFixture("weight.json")));
    expect(parsed.quantitySamples.map((s) => [s.type, s.value, s.unit, s.start_date.toISOString(), s.device, s.was_user_entered, s.external_id])).toEqual([
      // 07:35:14 in Berlin = 06:35:14 UTC, weighed by an Aria scale.
      ["body_mass", 76.3, "kg", "2024-03-02T06:35:14.000Z", "Aria", false, "1709362514000"],
      ["body_mass_index", 23.41, "kg/m2", "2024-03-02T06:35:14.000Z", "Aria", false, "1709362514000"],
      ["body_fat_percentage", 18.6, "%", "2024-03-02T06:35:14.000Z", "Aria", false, "1709362514000"],
      // Logged through the API: entered, no fat figure.
      ["body_mass", 76.1, "kg", "2024-03-04T06:15:00.000Z", null, true, "1709534100000"],
      ["body_mass_index", 23.35, "kg/m2", "2024-03-04T06:15:00.000Z", null, true, "1709534100000"],
    ]);
  });

  it("maps the nightly SpO2, HRV, breathing rate and skin temperature to samples over their local day", () => {
    const row = (p: ParsedRecords) => p.quantitySamples.map((s) => [s.type, s.value, s.unit, s.start_date.toISOString(), s.external_id]);
    expect(row(parse("fitbit-spo2", envelope(fitbitFixture("spo2.json"))))).toEqual([
      ["oxygen_saturation", 95.7, "%", "2024-03-01T23:00:00.000Z", "oxygen_saturation:2024-03-02"],
      ["oxygen_saturation", 96.2, "%", "2024-03-02T23:00:00.000Z", "oxygen_saturation:2024-03-03"],
    ]);
    expect(parse("fitbit-spo2", envelope(fitbitFixture("spo2.json"))).quantitySamples[0]?.metadata).toMatchObject({ min: 93.1, max: 98.4 });
    expect(row(parse("fitbit-hrv", envelope(fitbitFixture("hrv.json"))))).toEqual([
      ["hrv_rmssd", 41.327, "ms", "2024-03-01T23:00:00.000Z", "hrv_rmssd:2024-03-02"],
      ["hrv_rmssd", 38.9, "ms", "2024-03-03T23:00:00.000Z", "hrv_rmssd:2024-03-04"],
    ]);
    expect(row(parse("fitbit-br", envelope(fitbitFixture("br.json"))))).toEqual([
      ["respiratory_rate", 15.2, "count/min", "2024-03-01T23:00:00.000Z", "respiratory_rate:2024-03-02"],
      ["respiratory_rate", 14.8, "count/min", "2024-03-03T23:00:00.000Z", "respiratory_rate:2024-03-04"],
    ]);
    expect(row(parse("fitbit-temp-skin", envelope(fitbitFixture("temp-skin.json"))))).toEqual([
      ["skin_temperature_deviation", -0.4, "degC", "2024-03-01T23:00:00.000Z", "skin_temperature_deviation:2024-03-02"],
      ["skin_temperature_deviation", 0.25, "degC", "2024-03-03T23:00:00.000Z", "skin_temperature_deviation:2024-03-04"],
    ]);
  });

  it("maps the exercise log to workouts", () => {
    const parsed = parse("fitbit-activity-log", envelope(fitbitFixture("activities-list.json")));
    expect(
      parsed.workouts.map((w) => ({
        type: w.activity_type,
        start: w.start_date.toISOString(),
        end: w.end_date.toISOString(),
        tz: w.timezone,
        moving: w.duration_seconds,
        metres: w.distance_meters,
        kcal: w.total_energy_kcal,
        hr: w.average_heart_rate,
        up: w.elevation_gain_meters,
        steps: w.steps,
        device: w.device,
        id: w.external_id,
      })),
    ).toEqual([
      // 17:40+01:00 = 16:40Z; duration 1 800 000 ms = 30 min; activeDuration 1 740 000 ms = 1740 s; 2.41 km = 2410 m.
      { type: "walking", start: "2024-03-01T16:40:00.000Z", end: "2024-03-01T17:10:00.000Z", tz: "+01:00", moving: 1740, metres: 2410, kcal: 142, hr: 98, up: 6.1, steps: 3120, device: "Charge 6", id: "61234567801" },
      // duration 2 745 000 ms = 45 min 45 s; 7.82 km = 7820 m.
      { type: "running", start: "2024-03-02T07:15:00.000Z", end: "2024-03-02T08:00:45.000Z", tz: "+01:00", moving: 2700, metres: 7820, kcal: 432, hr: 152, up: 38.4, steps: 7650, device: "Charge 6", id: "61234567802" },
      // Logged by hand: no distance, heart rate or device.
      { type: "yoga", start: "2024-03-03T17:00:00.000Z", end: "2024-03-03T18:00:00.000Z", tz: "+01:00", moving: 3600, metres: null, kcal: 168, hr: null, up: null, steps: 0, device: null, id: "61234567803" },
    ]);
  });

  it("reads local times as UTC and records no zone when the profile gave none", () => {
    const parsed = parse("fitbit-sleep", { timezone: null, response: fitbitFixture("sleep.json") });
    expect(parsed.sleepSessions[0]).toMatchObject({ bedtime_start: new Date("2024-03-01T23:12:30Z"), timezone: null });
  });

  it("rejects unreadable entries without quoting values, and refuses a payload that is not an envelope", () => {
    const parsed = parse("fitbit-hrv", envelope({ hrv: [{ dateTime: "03/02/2024", value: { dailyRmssd: 40 } }] }));
    expect(parsed.rejected).toEqual([{ recordKind: "hrv", locator: "[0]", reason: "fitbit-hrv: dateTime or value unreadable" }]);
    expect(() => parse("fitbit-sleep", { sleep: [] })).toThrow(/not a Fitbit answer envelope/);
  });

  it("gives every sample a catalog type and a unit the catalog converts to its storage unit", () => {
    const samples = ([
      ["fitbit-weight", envelope(fitbitFixture("weight.json"))],
      ["fitbit-spo2", envelope(fitbitFixture("spo2.json"))],
      ["fitbit-hrv", envelope(fitbitFixture("hrv.json"))],
      ["fitbit-br", envelope(fitbitFixture("br.json"))],
      ["fitbit-temp-skin", envelope(fitbitFixture("temp-skin.json"))],
      ["fitbit-activity-series", { timezone: "Europe/Berlin", responses: { heart: fitbitFixture("activities-heart.json") } }],
    ] as const).flatMap(([format, payload]) => parse(format, payload).quantitySamples);
    expect(samples.length).toBeGreaterThan(0);
    for (const sample of samples) {
      const type = findQuantityType(sample.type);
      expect(type, sample.type).toBeDefined();
      const stored = toStorageUnit(type!, sample.value, sample.unit);
      expect("error" in stored ? stored.error : null, sample.type).toBeNull();
    }
  });
});
