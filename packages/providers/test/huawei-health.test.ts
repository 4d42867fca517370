import { createHmac } from "node:crypto";
import { readFileSync } from "node:fs";
import { exchangeCode, findQuantityType, refreshTokens, toStorageUnit, type ProviderKeys } from "@svc/core";
import { http, HttpResponse, type JsonBodyType } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { provider as huawei } from "../src/huawei_health/connector.ts";
import { clientHarness, pullHarness } from "./helpers/connector-harness.ts";

// Fixtures built from the Health Kit and HUAWEI ID REST documentation (fixtures/huawei_health/README.md).
const fixture = (name: string): JsonBodyType => JSON.parse(readFileSync(new URL(`./fixtures/huawei_health/${name}`, import.meta.url), "utf8"));

const API = "https://health-api.cloud.huawei.com/healthkit";
const OAUTH = "https://oauth-login.cloud.huawei.com";
const TOKEN_INFO = "https://api.cloud.huawei.com/rest.php";
const KEYS: ProviderKeys = { CLIENT_ID: "104857600", CLIENT_SECRET: "huawei-test-secret" };
const POLYMERIZE = `${API}/v2/sampleSet:polymerize`;
const HEALTH_RECORDS = `${API}/v2/healthRecords`;
const ACTIVITY_RECORDS = `${API}/v2/activityRecords`;
const SCOPE = "https://www.huawei.com/healthkit/";

const server = setupServer();
const requests: Array<{ url: URL; method: string; authorization: string | null; clientId: string | null; body: string }> = [];
server.events.on("request:start", async ({ request }) => {
  const body = request.method === "POST" ? await request.clone().text() : "";
  requests.push({ url: new URL(request.url), method: request.method, authorization: request.headers.get("authorization"), clientId: request.headers.get("x-client-id"), body });
});
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => {
  server.resetHandlers();
  requests.length = 0;
});
afterAll(() => server.close());

const refusal = (status: number, headers: Record<string, string> = {}) => new HttpResponse(null, { status, headers });
/** Grouped requests answer the daily statistics, detail requests the readings; sleep records; activity records in two pages. */
const healthKit = () => [
  http.post(POLYMERIZE, async ({ request }) => {
    const body = (await request.json()) as { groupByTime?: unknown };
    return HttpResponse.json(body.groupByTime ? fixture("daily-statistics.json") : fixture("readings.json"));
  }),
  http.get(HEALTH_RECORDS, () => HttpResponse.json(fixture("sleep-records.json"))),
  http.get(ACTIVITY_RECORDS, ({ request }) => HttpResponse.json(new URL(request.url).searchParams.has("cursor") ? fixture("activity-records-page-2.json") : fixture("activity-records.json"))),
];
const gets = (pathname: string) => requests.filter((r) => r.method === "GET" && r.url.pathname === pathname).map((r) => Object.fromEntries(r.url.searchParams));
const bodies = () => requests.filter((r) => r.url.pathname === "/healthkit/v2/sampleSet:polymerize").map((r) => JSON.parse(r.body) as Record<string, unknown>);

const JUNE_1 = Date.parse("2024-06-01T00:00:00Z");
const DAY = 86_400_000;

describe("huawei health pull", () => {
  it("backfill: daily statistics of the window's UTC days, then the readings a day at a time", async () => {
    server.use(...healthKit());
    // A window from mid-day: statistics cover whole UTC days, readings the window itself.
    const window = { start: new Date(JUNE_1 + 12 * 3_600_000), end: new Date(JUNE_1 + 2 * DAY) };
    const harness = pullHarness(huawei, { window, keys: KEYS });
    await huawei.pull(harness.context);

    expect(bodies()).toEqual([
      {
        polymerizeWith: [{ dataTypeName: "com.huawei.continuous.steps.delta" }, { dataTypeName: "com.huawei.continuous.distance.delta" }, { dataTypeName: "com.huawei.continuous.calories.burnt" }],
        startTime: JUNE_1,
        endTime: JUNE_1 + 2 * DAY,
        groupByTime: { groupPeriod: { timeZone: "+0000", unit: "day", value: 1 } },
      },
      { polymerizeWith: READINGS, startTime: JUNE_1 + 12 * 3_600_000, endTime: JUNE_1 + 36 * 3_600_000 },
      { polymerizeWith: READINGS, startTime: JUNE_1 + 36 * 3_600_000, endTime: JUNE_1 + 2 * DAY },
    ]);
    expect(harness.stored.map((s) => s.format)).toEqual([
      "huawei-health-daily-activity",
      "huawei-health-readings",
      "huawei-health-readings",
      "huawei-health-sleep",
      "huawei-health-workouts",
      "huawei-health-workouts",
    ]);
  });

  it("sends the user's token and the App ID (x-client-id) on every call", async () => {
    server.use(...healthKit());
    await huawei.pull(pullHarness(huawei, { window: { start: new Date(JUNE_1), end: new Date(JUNE_1 + DAY) }, keys: KEYS, accessToken: "hw-user-token" }).context);
    // Statistics, readings, sleep records, and two pages of activity records.
    expect(requests.length).toBe(5);
    for (const request of requests) expect([request.authorization, request.clientId]).toEqual(["Bearer hw-user-token", "104857600"]);
  });

  it("asks statistics at most 31 days a request", async () => {
    server.use(...healthKit());
    const window = { start: new Date(JUNE_1), end: new Date(JUNE_1 + 40 * DAY) };
    await huawei.pull(pullHarness(huawei, { window, keys: KEYS, scopes: ["openid", `${SCOPE}step.read`] }).context);
    // Only steps is granted: no readings are asked; the statistics name steps alone.
    expect(bodies().map((b) => [b.startTime, b.endTime, b.polymerizeWith])).toEqual([
      [JUNE_1, JUNE_1 + 31 * DAY, [{ dataTypeName: "com.huawei.continuous.steps.delta" }]],
      [JUNE_1 + 31 * DAY, JUNE_1 + 40 * DAY, [{ dataTypeName: "com.huawei.continuous.steps.delta" }]],
    ]);
  });

  it("names only the granted data types in the detail requests", async () => {
    server.use(...healthKit());
    await huawei.pull(pullHarness(huawei, { window: { start: new Date(JUNE_1), end: new Date(JUNE_1 + DAY) }, keys: KEYS, scopes: ["openid", `${SCOPE}heartrate.read`, `${SCOPE}bloodpressure.read`] }).context);
    expect(bodies()).toEqual([
      {
        polymerizeWith: [
          { dataTypeName: "com.huawei.instantaneous.heart_rate" },
          { dataTypeName: "com.huawei.instantaneous.resting_heart_rate" },
          { dataTypeName: "com.huawei.heart_rate_variability" },
          { dataTypeName: "com.huawei.instantaneous.blood_pressure" },
        ],
        startTime: JUNE_1,
        endTime: JUNE_1 + DAY,
      },
    ]);
    // Neither sleep.read nor activityrecord.read: no record queries.
    expect(requests.filter((r) => r.method === "GET")).toEqual([]);
  });

  it("a refused grant (401) is kind refused, a scope refused (403) kind permission, a 429 kind rate_limited with its wait, a 503 kind failed", async () => {
    const window = { start: new Date(JUNE_1), end: new Date(JUNE_1 + DAY) };
    for (const [status, kind] of [
      [401, "refused"],
      [403, "permission"],
      [503, "failed"],
    ] as const) {
      server.use(http.post(POLYMERIZE, () => refusal(status)));
      await expect(huawei.pull(pullHarness(huawei, { window, keys: KEYS }).context)).rejects.toMatchObject({ kind, status });
    }
    server.use(http.post(POLYMERIZE, () => refusal(429, { "retry-after": "60" })));
    await expect(huawei.pull(pullHarness(huawei, { window, keys: KEYS }).context)).rejects.toMatchObject({ kind: "rate_limited", retryAfterSeconds: 60 });
  });

  it("refuses answers of another shape", async () => {
    server.use(http.post(POLYMERIZE, () => HttpResponse.json({ group: "none" })));
    await expect(huawei.pull(pullHarness(huawei, { window: { start: new Date(JUNE_1), end: new Date(JUNE_1 + DAY) }, keys: KEYS }).context)).rejects.toMatchObject({ kind: "failed" });
  });
});

const READINGS = [
  { dataTypeName: "com.huawei.instantaneous.heart_rate" },
  { dataTypeName: "com.huawei.instantaneous.resting_heart_rate" },
  { dataTypeName: "com.huawei.heart_rate_variability" },
  { dataTypeName: "com.huawei.instantaneous.spo2" },
  { dataTypeName: "com.huawei.instantaneous.blood_pressure" },
  { dataTypeName: "com.huawei.instantaneous.body_weight" },
  { dataTypeName: "com.huawei.instantaneous.body.temperature" },
];

describe("huawei health grant", () => {
  const urls = { ...huawei.urls };
  const exchange = { code: "hw-code-7d1e", codeVerifier: "v".repeat(43), redirectUri: "https://svc.example/oauth/huawei_health/callback" };

  it("exchanges the code with the client secret in the form, and names the user by getTokenInfo's open_id", async () => {
    const sent: { form?: URLSearchParams; info?: URLSearchParams } = {};
    server.use(
      http.post(`${OAUTH}/oauth2/v3/token`, async ({ request }) => {
        sent.form = new URLSearchParams(await request.text());
        return HttpResponse.json(fixture("token.json"));
      }),
      http.post(TOKEN_INFO, async ({ request }) => {
        sent.info = new URLSearchParams(await request.text());
        // getTokenInfo answers JSON as text/plain.
        return new HttpResponse(JSON.stringify(fixture("token-info.json")), { headers: { "content-type": "text/plain; charset=UTF-8" } });
      }),
    );
    const tokens = await exchangeCode(huawei, urls, KEYS, exchange);
    expect(Object.fromEntries(sent.form ?? [])).toMatchObject({ grant_type: "authorization_code", code: "hw-code-7d1e", client_id: "104857600", client_secret: "huawei-test-secret" });
    expect(tokens).toMatchObject({ accessToken: "hw-access-token-1", refreshToken: "hw-refresh-token-1" });
    expect(await huawei.identify(clientHarness(huawei, { keys: KEYS }), tokens)).toEqual({ providerUserId: "MDFAM2Q0OTk5LWZha2Utb3Blbi1pZA" });
    const info = requests.find((r) => r.url.pathname === "/rest.php");
    expect([info?.url.searchParams.get("nsp_svc"), info?.url.searchParams.get("nsp_fmt"), info?.authorization]).toEqual(["huawei.oauth2.user.getTokenInfo", "JSON", null]);
    expect(Object.fromEntries(sent.info ?? [])).toEqual({ open_id: "OPENID", access_token: "hw-access-token-1" });
  });

  it("a getTokenInfo answer without open_id fails the grant", async () => {
    server.use(http.post(TOKEN_INFO, () => HttpResponse.json({ client_id: "104857600", expire_in: 3599 })));
    const tokens = { accessToken: "hw-access-token-1", refreshToken: null, expiresAt: null, scopes: null, raw: {} };
    await expect(huawei.identify(clientHarness(huawei, { keys: KEYS }), tokens)).rejects.toMatchObject({ kind: "failed" });
  });

  it("a refresh answers a new access token and keeps the refresh token", async () => {
    const sent: { form?: URLSearchParams } = {};
    server.use(
      http.post(`${OAUTH}/oauth2/v3/token`, async ({ request }) => {
        sent.form = new URLSearchParams(await request.text());
        return HttpResponse.json({ access_token: "hw-access-token-2", expires_in: 3600, token_type: "Bearer", scope: "openid" });
      }),
    );
    const tokens = await refreshTokens(huawei, urls, KEYS, "hw-refresh-token-1");
    expect(Object.fromEntries(sent.form ?? [])).toMatchObject({ grant_type: "refresh_token", refresh_token: "hw-refresh-token-1", client_id: "104857600", client_secret: "huawei-test-secret" });
    expect(tokens.accessToken).toBe("hw-access-token-2");
  });

  it("a refused refresh (401) is kind refused", async () => {
    server.use(http.post(`${OAUTH}/oauth2/v3/token`, () => refusal(401)));
    await expect(refreshTokens(huawei, urls, KEYS, "spent-refresh")).rejects.toMatchObject({ kind: "refused" });
  });

  it("authorize settings: openid, the Health Kit read scopes and the month of history, access_type=offline, client_secret_post", () => {
    expect(huawei.oauth).toMatchObject({ pkce: false, clientAuth: "client_secret_post", rotatesRefreshToken: false });
    expect(huawei.oauth.scopes[0]).toBe("openid");
    expect(huawei.oauth.scopes.slice(1).every((scope) => scope.startsWith(SCOPE) && (scope.endsWith(".read") || scope === `${SCOPE}historydata.open.month`))).toBe(true);
    expect(new Set(huawei.oauth.scopes).size).toBe(huawei.oauth.scopes.length);
    expect(huawei.oauth.scopes).toEqual(expect.arrayContaining([`${SCOPE}sleep.read`, `${SCOPE}activityrecord.read`, `${SCOPE}historydata.open.month`]));
    expect(huawei.oauth.authorizeParams?.(KEYS)).toEqual({ access_type: "offline" });
  });

  it("revokes the refresh token at oauth2/v3/revoke (the access token when there is none)", async () => {
    server.use(http.post(`${OAUTH}/oauth2/v3/revoke`, () => new HttpResponse(null, { status: 200 })));
    const client = clientHarness(huawei, { keys: KEYS, accessToken: "user-token" });
    await huawei.revoke?.(client, { accessToken: "user-token", refreshToken: "user-refresh", expiresAt: null, scopes: null, raw: {} });
    await huawei.revoke?.(client, { accessToken: "user-token", refreshToken: null, expiresAt: null, scopes: null, raw: {} });
    expect(requests.map((r) => [r.method, r.url.pathname, r.body, r.authorization])).toEqual([
      ["POST", "/oauth2/v3/revoke", "token=user-refresh", null],
      ["POST", "/oauth2/v3/revoke", "token=user-token", null],
    ]);
  });
});

describe("huawei health mapping", () => {
  const parse = (format: string, payload: unknown) => huawei.parsers[format]!(payload);

  it("daily statistics: steps, distance and calories per UTC day; a day without figures is left out", () => {
    const parsed = parse("huawei-health-daily-activity", fixture("daily-statistics.json"));
    expect(parsed.dailySummaries).toEqual([{ date: "2024-06-01", steps: 8412, distance_meters: 6130.5, total_energy_kcal: 2104.2, source: "huawei", on_body: true, metadata: {}, locator: "2024-06-01" }]);
    expect(parsed.rejected).toEqual([]);
  });

  it("readings: heart rate, resting heart rate, HRV, SpO2, blood pressure, weight and temperature, in the catalog's units", () => {
    const parsed = parse("huawei-health-readings", fixture("readings.json"));
    expect(parsed.quantitySamples.map((s) => [s.type, s.value, s.unit, s.start_date.toISOString()])).toEqual([
      ["heart_rate", 61, "count/min", "2024-06-01T07:30:00.000Z"],
      ["heart_rate", 64, "count/min", "2024-06-01T07:31:00.000Z"],
      ["resting_heart_rate", 52, "count/min", "2024-06-01T06:00:00.000Z"],
      ["hrv_rmssd", 48, "ms", "2024-06-01T03:00:00.000Z"],
      ["oxygen_saturation", 97, "%", "2024-06-01T07:31:00.000Z"],
      ["blood_pressure_systolic", 118, "mmHg", "2024-06-01T08:00:00.000Z"],
      ["blood_pressure_diastolic", 76, "mmHg", "2024-06-01T08:00:00.000Z"],
      ["body_mass", 71.4, "kg", "2024-06-01T08:05:00.000Z"],
      ["body_temperature", 36.6, "degC", "2024-06-01T08:10:00.000Z"],
    ]);
    for (const s of parsed.quantitySamples) {
      const type = findQuantityType(s.type);
      expect(type, s.type).toBeDefined();
      if (type) expect("error" in toStorageUnit(type, s.value, s.unit)).toBe(false);
    }
    expect(parsed.quantitySamples[0]?.metadata).toEqual({ data_collector: "raw:com.huawei.instantaneous.heart_rate:watch-7a1c" });
  });

  it("rejects points with unreadable times without quoting them, skips unknown types, refuses a payload of another shape", () => {
    const payload = { group: [{ sampleSet: [{ samplePoints: [
      { startTime: "yesterday", dataTypeName: "com.huawei.instantaneous.heart_rate", value: [{ fieldName: "bpm", floatValue: 70 }] },
      { startTime: 1717227000000000000, endTime: 1717227000000000000, dataTypeName: "com.huawei.instantaneous.stress", value: [{ fieldName: "score", integerValue: 30 }] },
    ] }] }] };
    const parsed = parse("huawei-health-readings", payload);
    expect(parsed.quantitySamples).toEqual([]);
    expect(parsed.rejected).toEqual([{ recordKind: "quantity_sample", locator: "samplePoints[0]", reason: expect.not.stringContaining("70") }]);
    expect(() => parse("huawei-health-readings", [])).toThrow();
    expect(() => parse("huawei-health-daily-activity", { groups: [] })).toThrow();
  });
});

describe("huawei health records pull", () => {
  const NS = 1_000_000n;

  it("sleep: healthRecords of the sleep record type with its fragments as sub data, nanoseconds, a week a request", async () => {
    server.use(...healthKit());
    const window = { start: new Date(JUNE_1), end: new Date(JUNE_1 + 10 * DAY) };
    const harness = pullHarness(huawei, { window, keys: KEYS, scopes: ["openid", `${SCOPE}sleep.read`] });
    await huawei.pull(harness.context);
    const sleep = { dataType: "com.huawei.health.record.sleep", subDataType: "com.huawei.continuous.sleep.fragment" };
    expect(gets("/healthkit/v2/healthRecords")).toEqual([
      { startTime: String(BigInt(JUNE_1) * NS), endTime: String(BigInt(JUNE_1 + 7 * DAY) * NS), ...sleep },
      { startTime: String(BigInt(JUNE_1 + 7 * DAY) * NS), endTime: String(BigInt(JUNE_1 + 10 * DAY) * NS), ...sleep },
    ]);
    expect(harness.stored.map((s) => s.format)).toEqual(["huawei-health-sleep", "huawei-health-sleep"]);
    expect(requests.filter((r) => r.url.pathname !== "/healthkit/v2/healthRecords")).toEqual([]);
  });

  it("workouts: activityRecords in milliseconds, at most 31 days a request, following the cursor while hasMoreData", async () => {
    server.use(...healthKit());
    const window = { start: new Date(JUNE_1), end: new Date(JUNE_1 + 40 * DAY) };
    const harness = pullHarness(huawei, { window, keys: KEYS, scopes: ["openid", `${SCOPE}activityrecord.read`] });
    await huawei.pull(harness.context);
    expect(gets("/healthkit/v2/activityRecords")).toEqual([
      { startTime: String(JUNE_1), endTime: String(JUNE_1 + 31 * DAY) },
      { cursor: "Y3Vyc29yLXBhZ2UtMg" },
      { startTime: String(JUNE_1 + 31 * DAY), endTime: String(JUNE_1 + 40 * DAY) },
      { cursor: "Y3Vyc29yLXBhZ2UtMg" },
    ]);
    expect(harness.stored.map((s) => s.format)).toEqual(Array(4).fill("huawei-health-workouts"));
  });

  it("a notified pull asks only the part its event named", async () => {
    server.use(...healthKit());
    const window = { start: new Date(JUNE_1), end: new Date(JUNE_1 + DAY) };
    await huawei.pull(pullHarness(huawei, { window, keys: KEYS, dataType: "sleep" }).context);
    expect(requests.map((r) => r.url.pathname)).toEqual(["/healthkit/v2/healthRecords"]);
    requests.length = 0;
    await huawei.pull(pullHarness(huawei, { window, keys: KEYS, dataType: "workouts" }).context);
    expect(requests.map((r) => r.url.pathname)).toEqual(["/healthkit/v2/activityRecords", "/healthkit/v2/activityRecords"]);
    requests.length = 0;
    await huawei.pull(pullHarness(huawei, { window, keys: KEYS, dataType: "samples" }).context);
    expect(requests.map((r) => r.url.pathname)).toEqual(["/healthkit/v2/sampleSet:polymerize", "/healthkit/v2/sampleSet:polymerize"]);
  });

  it("record queries: a refused grant (401) is kind refused, a scope refused (403) kind permission, a 429 rate_limited, an answer of another shape failed", async () => {
    const window = { start: new Date(JUNE_1), end: new Date(JUNE_1 + DAY) };
    for (const [url, dataType] of [
      [HEALTH_RECORDS, "sleep"],
      [ACTIVITY_RECORDS, "workouts"],
    ] as const) {
      for (const [status, kind] of [
        [401, "refused"],
        [403, "permission"],
      ] as const) {
        server.use(http.get(url, () => refusal(status)));
        await expect(huawei.pull(pullHarness(huawei, { window, keys: KEYS, dataType }).context)).rejects.toMatchObject({ kind, status });
      }
      server.use(http.get(url, () => refusal(429, { "retry-after": "120" })));
      await expect(huawei.pull(pullHarness(huawei, { window, keys: KEYS, dataType }).context)).rejects.toMatchObject({ kind: "rate_limited", retryAfterSeconds: 120 });
      server.use(http.get(url, () => HttpResponse.json({ healthRecords: {}, activityRecord: "none" })));
      await expect(huawei.pull(pullHarness(huawei, { window, keys: KEYS, dataType }).context)).rejects.toMatchObject({ kind: "failed" });
    }
  });

  it("an answer without records is stored as an empty list", async () => {
    server.use(http.get(HEALTH_RECORDS, () => HttpResponse.json({})), http.get(ACTIVITY_RECORDS, () => HttpResponse.json({})));
    const window = { start: new Date(JUNE_1), end: new Date(JUNE_1 + DAY) };
    const harness = pullHarness(huawei, { window, keys: KEYS, scopes: [`${SCOPE}sleep.read`, `${SCOPE}activityrecord.read`] });
    await huawei.pull(harness.context);
    expect(harness.stored).toEqual([
      { format: "huawei-health-sleep", payload: { healthRecords: [] } },
      { format: "huawei-health-workouts", payload: { activityRecord: [], deletedActivityRecord: [] } },
    ]);
  });
});

describe("huawei health sleep and workout mapping", () => {
  const parse = (format: string, payload: unknown) => huawei.parsers[format]!(payload);

  it("sleep: a night with its stage minutes, score, bedtime and fragments as phases; a nap", () => {
    const parsed = parse("huawei-health-sleep", fixture("sleep-records.json"));
    expect(parsed.rejected).toEqual([]);
    const [night, nap] = parsed.sleepSessions;
    expect(night).toMatchObject({
      kind: "sleep",
      bedtime_start: new Date("2024-05-31T22:55:00Z"),
      bedtime_end: new Date("2024-06-01T06:40:00Z"),
      total_sleep_seconds: 435 * 60,
      light_seconds: 295 * 60,
      deep_seconds: 70 * 60,
      rem_seconds: 70 * 60,
      awake_seconds: 15 * 60,
      latency_seconds: 15 * 60,
      score: 82,
      source: "huawei",
      external_id: "c2xlZXAtcmVjb3JkLTIwMjQwNjAx",
      metadata: { sleep_type: 1, wakeup_count: 1, data_collector: "raw:com.huawei.health.record.sleep:band-51c0" },
    });
    expect(night?.phases?.map((p) => [p.stage, p.start_date.toISOString(), p.end_date.toISOString()])).toEqual([
      ["light", "2024-05-31T23:10:00.000Z", "2024-06-01T00:40:00.000Z"],
      ["deep", "2024-06-01T00:40:00.000Z", "2024-06-01T01:50:00.000Z"],
      ["awake", "2024-06-01T01:50:00.000Z", "2024-06-01T02:05:00.000Z"],
      ["light", "2024-06-01T02:05:00.000Z", "2024-06-01T05:30:00.000Z"],
      ["rem", "2024-06-01T05:30:00.000Z", "2024-06-01T06:40:00.000Z"],
    ]);
    // sleep_type 3 is a nap; without fragments the stored phases stay.
    expect(nap).toMatchObject({ kind: "nap", bedtime_start: new Date("2024-06-01T13:20:00Z"), bedtime_end: new Date("2024-06-01T13:45:00Z"), total_sleep_seconds: 25 * 60, latency_seconds: null });
    expect(nap && "phases" in nap).toBe(false);
  });

  it("sleep: a nap fragment (sleep_state 5) is asleep of unknown stage; a record whose wake-up is not after falling asleep is rejected without quoting it", () => {
    const t = (iso: string) => Date.parse(iso);
    const ns = (iso: string) => String(BigInt(t(iso)) * 1_000_000n);
    const parsed = parse("huawei-health-sleep", {
      healthRecords: [
        {
          startTime: ns("2024-06-02T13:00:00Z"),
          endTime: ns("2024-06-02T13:30:00Z"),
          value: [{ fieldName: "sleep_type", integerValue: 3 }],
          subData: { "com.huawei.continuous.sleep.fragment": { samplePoints: [{ startTime: ns("2024-06-02T13:00:00Z"), endTime: ns("2024-06-02T13:30:00Z"), value: [{ fieldName: "sleep_state", integerValue: 5 }] }] } },
        },
        { value: [{ fieldName: "fall_asleep_time", longValue: t("2024-06-03T23:00:00Z") }, { fieldName: "wakeup_time", longValue: t("2024-06-03T22:00:00Z") }] },
        { dataTypeName: "com.huawei.health.record.bradycardia", value: [] },
      ],
    });
    expect(parsed.sleepSessions.map((s) => [s.kind, s.bedtime_start.toISOString(), s.phases?.map((p) => p.stage)])).toEqual([["nap", "2024-06-02T13:00:00.000Z", ["asleep"]]]);
    expect(parsed.rejected).toEqual([{ recordKind: "sleep_session", locator: "healthRecords[1]", reason: expect.not.stringMatching(/2024|\d{10}/) }]);
    expect(() => parse("huawei-health-sleep", { group: [] })).toThrow();
  });

  it("workouts: an activity record's type, times, zone, active time and summary figures; later pages and deletions", () => {
    const first = parse("huawei-health-workouts", fixture("activity-records.json"));
    expect(first.workouts).toEqual([
      {
        activity_type: "basketball",
        name: "Evening basketball",
        start_date: new Date("2024-06-01T17:10:00Z"),
        end_date: new Date("2024-06-01T18:05:00Z"),
        timezone: "+02:00",
        duration_seconds: 3120,
        distance_meters: null,
        total_energy_kcal: 412.5,
        average_heart_rate: 138,
        max_heart_rate: 171,
        steps: 5210,
        source: "huawei",
        on_body: true,
        source_name: "HUAWEI Health",
        external_id: "1717223400000",
        metadata: { huawei_activity_type: 5 },
        locator: "activityRecord[0]",
      },
    ]);
    expect(first.deletedExternalIds).toBeUndefined();
    const second = parse("huawei-health-workouts", fixture("activity-records-page-2.json"));
    // A type Huawei's readable pages do not name is `other`, its number kept.
    expect(second.workouts.map((w) => [w.activity_type, w.distance_meters, w.duration_seconds, w.metadata])).toEqual([["other", 7420.4, 2460, { huawei_activity_type: 97 }]]);
    expect(second.deletedExternalIds).toEqual(["1717131600000"]);
  });

  it("workouts: a record still in progress (no end) is rejected, a payload of another shape refused", () => {
    const parsed = parse("huawei-health-workouts", { activityRecord: [{ id: "live", startTime: JUNE_1, activityType: 5 }], deletedActivityRecord: [] });
    expect(parsed.workouts).toEqual([]);
    expect(parsed.rejected).toEqual([{ recordKind: "workout", locator: "activityRecord[0]", reason: expect.any(String) }]);
    expect(() => parse("huawei-health-workouts", { healthRecords: [] })).toThrow();
  });
});

describe("huawei health notifications", () => {
  const SECRET = Buffer.from("huawei-subscriber-secret-0123456789").toString("base64");
  const signed = { ...KEYS, SUBSCRIBER_SECRET: SECRET };
  const OPEN_ID = "MDFAM2Q0OTk5LWZha2Utb3Blbi1pZA";
  const sign = (event: { openId: string; eventType: string; eventTime: number | string }, secret = SECRET) =>
    createHmac("sha256", Buffer.from(secret, "base64")).update(`${event.openId}_${event.eventType}_${event.eventTime}`).digest("base64");
  const post = (event: Record<string, unknown>, signature: string | undefined, keySets: ProviderKeys[] = [signed]) =>
    huawei.notifications!.handle({ method: "POST", headers: signature === undefined ? {} : { "x-notification-signature": signature }, query: {}, rawBody: Buffer.from(JSON.stringify(event)) }, keySets);
  const event = (eventType: string) => ({ openId: OPEN_ID, eventType, eventTime: 1717228800000, subscriptionId: "sub-2b7e" });

  it("a signed event pulls the part it concerns of the named user, answered 204", () => {
    for (const [eventType, dataType] of [
      ["ACTIVITY_RECORD_EVENT$UPDATE", "workouts"],
      ["ACTIVITY_RECORD_EVENT$DELETE", "workouts"],
      ["HEALTH_RECORD_EVENT$UPDATE$com.huawei.health.record.sleep", "sleep"],
      ["SAMPLESET_EVENT$UPDATE$com.huawei.continuous.steps.delta", "samples"],
    ] as const) {
      const e = event(eventType);
      expect(post(e, sign(e))).toEqual({ status: 204, pulls: [{ providerUserId: OPEN_ID, dataType }] });
    }
  });

  it("the signature covers eventTime as sent, a number or its digits", () => {
    const e = { ...event("ACTIVITY_RECORD_EVENT$UPDATE"), eventTime: "1717228800000" };
    expect(post(e, sign(e)).status).toBe(204);
  });

  it("a revocation, account deletion or lapsed refresh token names the user as revoked and pulls nothing", () => {
    for (const eventType of ["USER_EVENT$REVOKE_ALL", "USER_EVENT$DELETE_USER", "USER_EVENT$REFRESH_TOKEN_INVALID"]) {
      const e = event(eventType);
      expect(post(e, sign(e))).toEqual({ status: 204, revoked: [{ providerUserId: OPEN_ID }] });
    }
  });

  it("a signed event of data svc does not read is acknowledged without effect", () => {
    const e = event("HEALTH_RECORD_EVENT$UPDATE$com.huawei.health.record.bradycardia");
    expect(post(e, sign(e))).toEqual({ status: 204 });
  });

  it("refuses a missing, wrong or other application's signature (401), changes nothing", () => {
    const e = event("USER_EVENT$REVOKE_ALL");
    expect(post(e, undefined)).toEqual({ status: 401 });
    expect(post(e, sign(e, Buffer.from("another-subscriber").toString("base64")))).toEqual({ status: 401 });
    expect(post(e, sign({ ...e, openId: "someone-else" }))).toEqual({ status: 401 });
    expect(post(e, "not base64 at all!")).toEqual({ status: 401 });
    // An application without a subscriber secret verifies nothing.
    expect(post(e, sign(e), [KEYS])).toEqual({ status: 401 });
  });

  it("answers 404 when no application is configured, 204 to the console's connectivity test, 405 to other methods, 400 to a body that is not an event", () => {
    const e = event("ACTIVITY_RECORD_EVENT$UPDATE");
    expect(post(e, sign(e), [])).toEqual({ status: 404 });
    const request = (method: string, body = "") => huawei.notifications!.handle({ method, headers: {}, query: {}, rawBody: Buffer.from(body) }, [signed]);
    expect(request("GET")).toEqual({ status: 204 });
    expect(request("PUT").status).toBe(405);
    for (const body of ["", "not json", "[]", JSON.stringify({ openId: OPEN_ID, eventType: "USER_EVENT$REVOKE_ALL" }), JSON.stringify({ ...e, eventTime: "yesterday" }), JSON.stringify({ ...e, openId: 42 })]) {
      expect(request("POST", body).status, body).toBe(400);
    }
  });

  it("checks the subscriber secret is Base64", () => {
    expect(huawei.checkKeys?.({ ...KEYS, SUBSCRIBER_SECRET: SECRET })).toBeNull();
    expect(huawei.checkKeys?.(KEYS)).toBeNull();
    expect(huawei.checkKeys?.({ ...KEYS, SUBSCRIBER_SECRET: "not base64!" })).toEqual(expect.any(String));
  });
});
