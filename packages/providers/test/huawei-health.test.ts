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
/** Grouped requests answer the daily statistics, detail requests the readings. */
const healthKit = () =>
  http.post(POLYMERIZE, async ({ request }) => {
    const body = (await request.json()) as { groupByTime?: unknown };
    return HttpResponse.json(body.groupByTime ? fixture("daily-statistics.json") : fixture("readings.json"));
  });
const bodies = () => requests.filter((r) => r.url.pathname === "/healthkit/v2/sampleSet:polymerize").map((r) => JSON.parse(r.body) as Record<string, unknown>);

const JUNE_1 = Date.parse("2024-06-01T00:00:00Z");
const DAY = 86_400_000;

describe("huawei health pull", () => {
  it("backfill: daily statistics of the window's UTC days, then the readings a day at a time", async () => {
    server.use(healthKit());
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
    expect(harness.stored.map((s) => s.format)).toEqual(["huawei-health-daily-activity", "huawei-health-readings", "huawei-health-readings"]);
  });

  it("sends the user's token and the App ID (x-client-id) on every call", async () => {
    server.use(healthKit());
    await huawei.pull(pullHarness(huawei, { window: { start: new Date(JUNE_1), end: new Date(JUNE_1 + DAY) }, keys: KEYS, accessToken: "hw-user-token" }).context);
    expect(requests.length).toBe(2);
    for (const request of requests) expect([request.authorization, request.clientId]).toEqual(["Bearer hw-user-token", "104857600"]);
  });

  it("asks statistics at most 31 days a request", async () => {
    server.use(healthKit());
    const window = { start: new Date(JUNE_1), end: new Date(JUNE_1 + 40 * DAY) };
    await huawei.pull(pullHarness(huawei, { window, keys: KEYS, scopes: ["openid", `${SCOPE}step.read`] }).context);
    // Only steps is granted: no readings are asked; the statistics name steps alone.
    expect(bodies().map((b) => [b.startTime, b.endTime, b.polymerizeWith])).toEqual([
      [JUNE_1, JUNE_1 + 31 * DAY, [{ dataTypeName: "com.huawei.continuous.steps.delta" }]],
      [JUNE_1 + 31 * DAY, JUNE_1 + 40 * DAY, [{ dataTypeName: "com.huawei.continuous.steps.delta" }]],
    ]);
  });

  it("names only the granted data types in the detail requests", async () => {
    server.use(healthKit());
    await huawei.pull(pullHarness(huawei, { window: { start: new Date(JUNE_1), end: new Date(JUNE_1 + DAY) }, keys: KEYS, scopes: ["openid", `${SCOPE}heartrate.read`, `${SCOPE}bloodpressure.read`] }).context);
    expect(bodies()).toEqual([{ polymerizeWith: [{ dataTypeName: "com.huawei.instantaneous.heart_rate" }, { dataTypeName: "com.huawei.instantaneous.blood_pressure" }], startTime: JUNE_1, endTime: JUNE_1 + DAY }]);
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

  it("authorize settings: openid and the Health Kit read scopes, access_type=offline, client_secret_post", () => {
    expect(huawei.oauth).toMatchObject({ pkce: false, clientAuth: "client_secret_post", rotatesRefreshToken: false });
    expect(huawei.oauth.scopes[0]).toBe("openid");
    expect(huawei.oauth.scopes.slice(1).every((scope) => scope.startsWith(SCOPE) && scope.endsWith(".read"))).toBe(true);
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

  it("readings: heart rate, SpO2, blood pressure, weight and temperature, in the catalog's units", () => {
    const parsed = parse("huawei-health-readings", fixture("readings.json"));
    expect(parsed.quantitySamples.map((s) => [s.type, s.value, s.unit, s.start_date.toISOString()])).toEqual([
      ["heart_rate", 61, "count/min", "2024-06-01T07:30:00.000Z"],
      ["heart_rate", 64, "count/min", "2024-06-01T07:31:00.000Z"],
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
