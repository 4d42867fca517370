import { exchangeCode, findQuantityType, ProviderError, refreshTokens, toStorageUnit, type ParsedRecords, type ProviderTokens } from "@svc/core";
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { provider as googleHealth } from "../src/google_health/connector.ts";
import { clientHarness, pullHarness } from "./helpers/connector-harness.ts";
import { fakeGoogleHealthApi, GOOGLE_HEALTH_USER_ID, googleHealthFixture } from "./helpers/google-health-api.ts";

const api = fakeGoogleHealthApi();
const server = setupServer(...api.handlers);

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => {
  server.resetHandlers();
  api.requests.length = 0;
});
afterAll(() => server.close());

const SCOPE = (name: string) => `https://www.googleapis.com/auth/googlehealth.${name}.readonly`;
const KEYS = { CLIENT_ID: "1234567890-fixture.apps.googleusercontent.com", CLIENT_SECRET: "GOCSPX-fixture-secret" };
const tokens: ProviderTokens = { accessToken: "test-access-token", refreshToken: "1//refresh", expiresAt: null, scopes: null, raw: {} };
const parse = (format: string, payload: unknown): ParsedRecords => {
  const parser = googleHealth.parsers[format];
  if (!parser) throw new Error(`no parser for ${format}`);
  return parser(payload);
};
/** The list requests of one data type: their query, decoded. */
const listQueries = (dataType: string) =>
  api.requests.filter((r) => r.method === "GET" && r.url.pathname.includes(`/dataTypes/${dataType}/`)).map((r) => Object.fromEntries(r.url.searchParams));
/** The civil ranges of the dailyRollUp requests of one data type. */
const rollupRanges = (dataType: string) =>
  api.requests
    .filter((r) => r.method === "POST" && decodeURIComponent(r.url.pathname).endsWith(`/dataTypes/${dataType}/dataPoints:dailyRollUp`))
    .map((r) => {
      const range = (r.body as { range: { start: { date: Record<string, number> }; end: { date: Record<string, number> } } }).range;
      const text = (d: Record<string, number>) => `${d.year}-${String(d.month).padStart(2, "0")}-${String(d.day).padStart(2, "0")}`;
      return `${text(range.start.date)}/${text(range.end.date)}`;
    });
const points = (name: string, timezone: string | null = "Europe/Berlin") => ({ dataType: name, timezone, response: googleHealthFixture(`${name}.json`) });

describe("google health connector settings", () => {
  it("names its keys, URLs and OAuth rules as Google documents them", () => {
    expect(googleHealth.kind).toBe("oauth");
    expect(googleHealth.keys.map((key) => key.env)).toEqual(["SVC_GOOGLE_HEALTH_CLIENT_ID", "SVC_GOOGLE_HEALTH_CLIENT_SECRET"]);
    expect(googleHealth.urls).toEqual({
      authorize: "https://accounts.google.com/o/oauth2/v2/auth",
      token: "https://oauth2.googleapis.com/token",
      api: "https://health.googleapis.com",
      revoke: "https://oauth2.googleapis.com/revoke",
    });
    expect(googleHealth.oauth.scopes).toEqual([SCOPE("activity_and_fitness"), SCOPE("health_metrics_and_measurements"), SCOPE("sleep"), SCOPE("settings")]);
    expect(googleHealth.oauth).toMatchObject({ pkce: true, clientAuth: "client_secret_post", rotatesRefreshToken: false });
    // A refresh token only comes with offline access, and again on a reconnect with prompt=consent.
    expect(googleHealth.oauth.authorizeParams?.(KEYS)).toEqual({ access_type: "offline", prompt: "consent" });
    expect(googleHealth.rateLimits).toEqual({ app: { requests: 120_000, windowSeconds: 60 }, user: { requests: 300, windowSeconds: 60 } });
  });
});

describe("google health token answers", () => {
  it("exchanges a code with the client secret in the form and the PKCE verifier; refresh keeps the refresh token", async () => {
    const forms: URLSearchParams[] = [];
    server.use(
      http.post("https://oauth2.googleapis.com/token", async ({ request }) => {
        const form = new URLSearchParams(await request.text());
        forms.push(form);
        const answer = googleHealthFixture("token.json");
        // Google sends no new refresh token on a refresh.
        if (form.get("grant_type") === "refresh_token") delete answer.refresh_token;
        return HttpResponse.json(answer);
      }),
    );
    const granted = await exchangeCode(googleHealth, googleHealth.urls, KEYS, { code: "4/0Afixture", codeVerifier: "v".repeat(43), redirectUri: "https://svc.example/oauth/google_health/callback" });
    expect(Object.fromEntries(forms[0] ?? [])).toMatchObject({ grant_type: "authorization_code", client_id: KEYS.CLIENT_ID, client_secret: KEYS.CLIENT_SECRET, code_verifier: "v".repeat(43) });
    expect(granted).toMatchObject({ accessToken: "ya29.google-health-fixture-access-token", refreshToken: "1//google-health-fixture-refresh-token" });
    expect(granted.scopes).toEqual(googleHealth.oauth.scopes);
    const refreshed = await refreshTokens(googleHealth, googleHealth.urls, KEYS, "1//google-health-fixture-refresh-token");
    expect(refreshed.refreshToken).toBe("1//google-health-fixture-refresh-token");
  });
});

describe("google health identify and revoke", () => {
  it("answers the healthUserId of users/me/identity", async () => {
    expect(await googleHealth.identify(clientHarness(googleHealth, { keys: KEYS }), tokens)).toEqual({ providerUserId: GOOGLE_HEALTH_USER_ID });
    expect(api.requests.map((r) => r.url.pathname)).toEqual(["/v4/users/me/identity"]);
  });

  it("revokes the refresh token at Google's revoke endpoint", async () => {
    await googleHealth.revoke!(clientHarness(googleHealth, { keys: KEYS }), tokens);
    expect(api.requests.map((r) => [r.url.href, r.body])).toEqual([["https://oauth2.googleapis.com/revoke", "token=1%2F%2Frefresh"]]);
  });
});

describe("google health pull", () => {
  it("backfills: the settings' zone, daily rollups in 14-day ranges, then every data type page by page", async () => {
    const { context, stored } = pullHarness(googleHealth, { keys: KEYS, window: { start: new Date("2023-12-06T00:00:00Z"), end: new Date("2024-03-05T00:00:00Z") } });
    await googleHealth.pull(context);
    expect(api.requests[0]?.url.pathname).toBe("/v4/users/me/settings");
    // Local dates 2023-12-06 to 2024-03-05 in Berlin, [start, end) civil ranges of at most 14 days.
    const ranges = ["2023-12-06/2023-12-20", "2023-12-20/2024-01-03", "2024-01-03/2024-01-17", "2024-01-17/2024-01-31", "2024-01-31/2024-02-14", "2024-02-14/2024-02-28", "2024-02-28/2024-03-06"];
    for (const dataType of ["steps", "distance", "floors", "total-calories", "active-energy-burned", "active-minutes"]) expect(rollupRanges(dataType)).toEqual(ranges);

    const physical = (field: string) => `${field} >= "2023-12-06T00:00:00.000Z" AND ${field} < "2024-03-05T00:00:00.000Z"`;
    const civil = (field: string) => `${field} >= "2023-12-06" AND ${field} < "2024-03-06"`;
    // Heart rate through reconcile, 5 points in pages of 2 (the fake's cap) -> 3 pages.
    expect(api.requests.filter((r) => r.url.pathname.endsWith(":reconcile"))).toHaveLength(3);
    expect(listQueries("heart-rate")).toEqual([
      { filter: physical("heart_rate.sample_time.physical_time"), pageSize: "10000" },
      { filter: physical("heart_rate.sample_time.physical_time"), pageSize: "10000", pageToken: "page-2" },
      { filter: physical("heart_rate.sample_time.physical_time"), pageSize: "10000", pageToken: "page-4" },
    ]);
    expect(listQueries("weight")).toEqual([{ filter: physical("weight.sample_time.physical_time"), pageSize: "1000" }]);
    expect(listQueries("daily-resting-heart-rate")).toEqual([
      { filter: civil("daily_resting_heart_rate.date"), pageSize: "1000" },
      { filter: civil("daily_resting_heart_rate.date"), pageSize: "1000", pageToken: "page-2" },
    ]);
    // Sleep filters on its end time, exercise on its civil start date; both at most 25 per page.
    expect(listQueries("sleep")).toEqual([{ filter: physical("sleep.interval.end_time"), pageSize: "25" }]);
    expect(listQueries("exercise")).toEqual([{ filter: civil("exercise.interval.civil_start_time"), pageSize: "25" }]);

    expect(stored.filter((s) => s.format === "google_health-daily-rollups")).toHaveLength(7);
    expect(stored.filter((s) => s.format === "google_health-data-points")).toHaveLength(3 + 1 + 1 + 2 + 4 + 1 + 1);
    const all = stored.map((s) => parse(s.format, s.payload));
    expect(all.reduce((n, p) => n + p.dailySummaries.length, 0)).toBe(4);
    expect(all.reduce((n, p) => n + p.sleepSessions.length, 0)).toBe(2);
    expect(all.reduce((n, p) => n + p.workouts.length, 0)).toBe(2);
    expect(all.flatMap((p) => p.rejected)).toEqual([]);
  });

  it("pulls an incremental window: one rollup range and filters of that window only", async () => {
    const { context } = pullHarness(googleHealth, { keys: KEYS, window: { start: new Date("2024-03-04T05:00:00Z"), end: new Date("2024-03-04T07:00:00Z") } });
    await googleHealth.pull(context);
    expect(rollupRanges("steps")).toEqual(["2024-03-04/2024-03-05"]);
    expect(listQueries("heart-rate")).toEqual([
      { filter: 'heart_rate.sample_time.physical_time >= "2024-03-04T05:00:00.000Z" AND heart_rate.sample_time.physical_time < "2024-03-04T07:00:00.000Z"', pageSize: "10000" },
    ]);
    expect(listQueries("daily-heart-rate-variability")).toEqual([{ filter: 'daily_heart_rate_variability.date >= "2024-03-04" AND daily_heart_rate_variability.date < "2024-03-05"', pageSize: "1000" }]);
    // settings + 6 rollups + 10 lists.
    expect(api.requests).toHaveLength(17);
  });

  it("skips the data types whose scope was not granted, and pads the dates a day each side without the settings' zone", async () => {
    const { context } = pullHarness(googleHealth, { keys: KEYS, scopes: [SCOPE("activity_and_fitness")], window: { start: new Date("2024-03-04T05:00:00Z"), end: new Date("2024-03-04T07:00:00Z") } });
    await googleHealth.pull(context);
    const paths = new Set(api.requests.map((r) => decodeURIComponent(r.url.pathname).replace(/^\/v4\/users\/me\/dataTypes\//, "")));
    expect(paths).toEqual(new Set(["steps/dataPoints:dailyRollUp", "distance/dataPoints:dailyRollUp", "floors/dataPoints:dailyRollUp", "total-calories/dataPoints:dailyRollUp", "active-energy-burned/dataPoints:dailyRollUp", "active-minutes/dataPoints:dailyRollUp", "exercise/dataPoints"]));
    expect(rollupRanges("steps")).toEqual(["2024-03-03/2024-03-06"]);
    expect(listQueries("exercise")).toEqual([{ filter: 'exercise.interval.civil_start_time >= "2024-03-03" AND exercise.interval.civil_start_time < "2024-03-06"', pageSize: "25" }]);
  });

  it("turns a refused grant into a refused ProviderError", async () => {
    const { context } = pullHarness(googleHealth, { keys: KEYS, accessToken: "revoked", window: { start: new Date("2024-03-02T00:00:00Z"), end: new Date("2024-03-03T00:00:00Z") } });
    const error = await googleHealth.pull(context).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ kind: "refused", status: 401 });
  });

  it("turns a 429 into rate_limited with Retry-After", async () => {
    server.use(http.post("https://health.googleapis.com/v4/users/me/dataTypes/steps/*", () => new HttpResponse(null, { status: 429, headers: { "Retry-After": "30" } })));
    const { context } = pullHarness(googleHealth, { keys: KEYS, window: { start: new Date("2024-03-02T00:00:00Z"), end: new Date("2024-03-03T00:00:00Z") } });
    expect(await googleHealth.pull(context).catch((e: unknown) => e)).toMatchObject({ kind: "rate_limited", status: 429, retryAfterSeconds: 30 });
  });
});

describe("google health mapping", () => {
  it("maps the daily rollups to one daily summary per date, checked by hand", () => {
    const responses: Record<string, unknown> = {};
    for (const type of ["steps", "distance", "floors", "total-calories", "active-energy-burned", "active-minutes"]) responses[type] = googleHealthFixture(`rollup-${type}.json`);
    const parsed = parse("google_health-daily-rollups", { timezone: "Europe/Berlin", responses });
    expect(parsed.dailySummaries.map(({ locator: _locator, ...summary }) => summary)).toEqual([
      // distance "6210000" mm = 6210 m; active (21 moderate + 18 vigorous) min = 2340 s.
      { date: "2024-03-01", timezone: "Europe/Berlin", steps: 8523, distance_meters: 6210, floors_climbed: 9, total_energy_kcal: 2311.4, active_energy_kcal: 834.2, active_seconds: 2340 },
      { date: "2024-03-02", timezone: "Europe/Berlin", steps: 11042, distance_meters: 8050, floors_climbed: 14, total_energy_kcal: 2540, active_energy_kcal: 1051, active_seconds: 4560 },
      { date: "2024-03-03", timezone: "Europe/Berlin", steps: 4317, distance_meters: 3140, floors_climbed: 3, total_energy_kcal: 2012.7, active_energy_kcal: 512.5, active_seconds: 480 },
      { date: "2024-03-04", timezone: "Europe/Berlin", steps: 9870, distance_meters: 7190, floors_climbed: 11, total_energy_kcal: 2405.2, active_energy_kcal: 903.9, active_seconds: 2520 },
    ]);
  });

  it("maps reconciled heart rate to samples at their physical time with the offset as zone", () => {
    const parsed = parse("google_health-data-points", points("heart-rate"));
    expect(parsed.quantitySamples.map((s) => [s.type, s.value, s.unit, s.start_date.toISOString(), s.timezone, s.metadata?.motion_context])).toEqual([
      // beatsPerMinute is an int64 string; utcOffset "3600s" = +01:00.
      ["heart_rate", 61, "count/min", "2024-03-04T05:40:00.000Z", "+01:00", "SEDENTARY"],
      ["heart_rate", 148, "count/min", "2024-03-02T07:30:00.000Z", "+01:00", "ACTIVE"],
      ["heart_rate", 62, "count/min", "2024-03-02T06:00:00.000Z", "+01:00", "SEDENTARY"],
      ["heart_rate", 97, "count/min", "2024-03-01T17:00:00.000Z", "+01:00", "ACTIVE"],
      ["heart_rate", 66, "count/min", "2024-01-20T09:00:00.000Z", "+01:00", "SEDENTARY"],
    ]);
    // Reconciled points carry no data source.
    expect(parsed.quantitySamples[0]).toMatchObject({ source: null, source_name: "Google Health", external_id: null });
  });

  it("maps weight (grams to kg) and body fat with their data source", () => {
    const weight = parse("google_health-data-points", points("weight")).quantitySamples;
    expect(weight.map((s) => [s.type, s.value, s.unit, s.start_date.toISOString(), s.device, s.on_body, s.was_user_entered, s.source, s.external_id])).toEqual([
      // 76100 g / 1000 = 76.1 kg, typed into a phone.
      ["body_mass", 76.1, "kg", "2024-03-04T06:15:00.000Z", "Pixel 8", false, true, "fitbit", "7301924650018734593"],
      // 76300 g = 76.3 kg from the scale.
      ["body_mass", 76.3, "kg", "2024-03-02T06:35:14.000Z", "Aria Air", false, false, "fitbit", "7301924650018734592"],
    ]);
    expect(parse("google_health-data-points", points("body-fat")).quantitySamples.map((s) => [s.type, s.value, s.unit])).toEqual([["body_fat_percentage", 18.6, "%"]]);
  });

  it("maps the daily types to samples over the local day of the settings' zone", () => {
    const row = (name: string) =>
      parse("google_health-data-points", points(name)).quantitySamples.map((s) => [s.type, s.value, s.unit, s.start_date.toISOString(), s.end_date?.toISOString(), s.external_id]);
    // Berlin midnight of 2024-03-04 is 2024-03-03T23:00Z (UTC+1 in March).
    expect(row("daily-resting-heart-rate")).toEqual([
      ["resting_heart_rate", 59, "count/min", "2024-03-03T23:00:00.000Z", "2024-03-04T23:00:00.000Z", "resting_heart_rate:2024-03-04"],
      ["resting_heart_rate", 57, "count/min", "2024-03-01T23:00:00.000Z", "2024-03-02T23:00:00.000Z", "resting_heart_rate:2024-03-02"],
      ["resting_heart_rate", 58, "count/min", "2024-02-29T23:00:00.000Z", "2024-03-01T23:00:00.000Z", "resting_heart_rate:2024-03-01"],
    ]);
    const day = ["2024-03-01T23:00:00.000Z", "2024-03-02T23:00:00.000Z"];
    expect(row("daily-heart-rate-variability")).toEqual([["hrv_rmssd", 41.327, "ms", ...day, "hrv_rmssd:2024-03-02"]]);
    expect(row("daily-oxygen-saturation")).toEqual([["oxygen_saturation", 95.7, "%", ...day, "oxygen_saturation:2024-03-02"]]);
    expect(row("daily-respiratory-rate")).toEqual([["respiratory_rate", 15.2, "count/min", ...day, "respiratory_rate:2024-03-02"]]);
    // Nightly 33.41 °C; deviation from the 33.62 °C baseline = -0.21 °C.
    expect(row("daily-sleep-temperature-derivations")).toEqual([
      ["sleeping_wrist_temperature", 33.41, "degC", ...day, "sleeping_wrist_temperature:2024-03-02"],
      ["skin_temperature_deviation", -0.21, "degC", ...day, "skin_temperature_deviation:2024-03-02"],
    ]);
    // Without the settings' zone the day is the UTC day.
    expect(parse("google_health-data-points", points("daily-respiratory-rate", null)).quantitySamples[0]).toMatchObject({ start_date: new Date("2024-03-02T00:00:00Z"), timezone: null });
  });

  it("maps sleep sessions with stages", () => {
    const [nap, main] = parse("google_health-data-points", points("sleep")).sleepSessions;
    expect(main).toMatchObject({
      kind: "sleep",
      bedtime_start: new Date("2024-03-01T22:12:30Z"),
      bedtime_end: new Date("2024-03-02T05:54:30Z"),
      timezone: "+01:00",
      // Minutes (int64 strings) × 60.
      total_sleep_seconds: 25_140,
      awake_seconds: 2580,
      light_seconds: 14_460,
      deep_seconds: 4680,
      rem_seconds: 6000,
      latency_seconds: 0,
      external_id: "a1f3d9e2-7c4b-4a61-8e25-3b9d0c7f5e13",
      source: "fitbit",
      device: "Charge 6",
      on_body: true,
    });
    // 419 asleep of 462 minutes in the sleep period.
    expect(main?.efficiency).toBeCloseTo(419 / 462, 10);
    expect(main?.phases).toHaveLength(11);
    expect(main?.phases?.[2]).toEqual({ stage: "deep", start_date: new Date("2024-03-01T22:47:30Z"), end_date: new Date("2024-03-01T23:27:30Z") });
    expect(nap).toMatchObject({ kind: "nap", total_sleep_seconds: 2160, awake_seconds: 120, light_seconds: null, deep_seconds: null, rem_seconds: null });
    expect(nap?.efficiency).toBeCloseTo(36 / 42, 10);
    // RESTLESS counts as awake.
    expect(nap?.phases?.map((p) => p.stage)).toEqual(["asleep", "awake", "asleep", "awake", "awake"]);
  });

  it("maps exercises to workouts", () => {
    const workouts = parse("google_health-data-points", points("exercise")).workouts;
    expect(
      workouts.map((w) => [w.activity_type, w.name, w.start_date.toISOString(), w.end_date.toISOString(), w.timezone, w.duration_seconds, w.distance_meters, w.total_energy_kcal, w.average_heart_rate, w.elevation_gain_meters, w.steps, w.external_id]),
    ).toEqual([
      // activeDuration "2700s"; 7 820 000 mm = 7820 m; elevation 38 400 mm = 38.4 m.
      ["running", "Run", "2024-03-02T07:15:00.000Z", "2024-03-02T08:00:45.000Z", "+01:00", 2700, 7820, 432, 152, 38.4, 7650, "2026443605080188808"],
      ["walking", "Walk", "2024-03-01T16:40:00.000Z", "2024-03-01T17:10:00.000Z", "+01:00", 1740, 2410, 142, 98, 6.1, 3120, "2026443605080188801"],
    ]);
    expect(workouts[0]?.metadata).toMatchObject({ run_vo2_max: 47.2, platform: "FITBIT" });
  });

  it("rejects points it cannot read without quoting values, and refuses a payload that is not an envelope", () => {
    const parsed = parse("google_health-data-points", {
      dataType: "weight",
      timezone: null,
      response: { dataPoints: [{ weight: { sampleTime: { physicalTime: "yesterday" }, weightGrams: 1 } }, { steps: { count: "12" } }, { weight: { sampleTime: { physicalTime: "2024-03-02T06:35:14Z" } } }] },
    });
    expect(parsed.rejected).toEqual([
      { recordKind: "weight", locator: "dataPoints[0]", reason: "weight: sampleTime.physicalTime is not an RFC 3339 time" },
      { recordKind: "data_point", locator: "dataPoints[1]", reason: "data_point: a data type svc does not read" },
      { recordKind: "weight", locator: "dataPoints[2]", reason: "weight: the value is missing or not a number" },
    ]);
    expect(() => parse("google_health-data-points", { dataPoints: [] })).toThrow(/not a data points envelope/);
    // An empty page has no dataPoints field at all.
    expect(parse("google_health-data-points", { dataType: "sleep", timezone: null, response: {} }).sleepSessions).toEqual([]);
  });

  it("gives every sample a catalog type and a unit the catalog converts to its storage unit", () => {
    const samples = (["heart-rate", "weight", "body-fat", "daily-resting-heart-rate", "daily-heart-rate-variability", "daily-oxygen-saturation", "daily-respiratory-rate", "daily-sleep-temperature-derivations"].map(
      (name) => ["google_health-data-points", points(name)] as const,
    )).flatMap(([format, payload]) => parse(format, payload).quantitySamples);
    expect(samples.length).toBeGreaterThan(0);
    for (const sample of samples) {
      const type = findQuantityType(sample.type);
      expect(type, sample.type).toBeDefined();
      const stored = toStorageUnit(type!, sample.value, sample.unit);
      expect("error" in stored ? stored.error : null, sample.type).toBeNull();
    }
  });
});
