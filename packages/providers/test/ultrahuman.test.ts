import { readFileSync } from "node:fs";
import { exchangeCode, findQuantityType, ProviderError, refreshTokens, toStorageUnit, type ProviderKeys } from "@svc/core";
import { http, HttpResponse, type JsonBodyType } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { provider as ultrahuman } from "../src/ultrahuman/connector.ts";
import { clientHarness, pullHarness } from "./helpers/connector-harness.ts";

// Fixtures built from the Ultrahuman Partner API documentation (fixtures/ultrahuman/README.md).
const fixture = (name: string): JsonBodyType => JSON.parse(readFileSync(new URL(`./fixtures/ultrahuman/${name}`, import.meta.url), "utf8"));

const API = "https://partner.ultrahuman.com/api/partners/v1";
const TOKEN = "https://partner.ultrahuman.com/api/partners/oauth/token";
const REVOKE = "https://partner.ultrahuman.com/api/partners/oauth/revoke";
const KEYS: ProviderKeys = { CLIENT_ID: "uh-client-id", CLIENT_SECRET: "uh-test-secret" };

const server = setupServer();
const requests: Array<{ url: URL; method: string; authorization: string | null }> = [];
server.events.on("request:start", ({ request }) => {
  requests.push({ url: new URL(request.url), method: request.method, authorization: request.headers.get("authorization") });
});
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => {
  server.resetHandlers();
  requests.length = 0;
});
afterAll(() => server.close());

/** GET /user_data/metrics: the fixture's day for 2024-03-14, an empty day otherwise. */
function metricsApi(days: Record<string, unknown> = { "2024-03-14": fixture("metrics-2024-03-14.json") }) {
  return http.get(`${API}/user_data/metrics`, ({ request }) => {
    const date = new URL(request.url).searchParams.get("date") ?? "";
    return HttpResponse.json((days[date] ?? { data: { metric_data: [] } }) as JsonBodyType);
  });
}

const dates = () => requests.map((r) => r.url.searchParams.get("date"));
const MARCH_14 = { start: new Date("2024-03-14T00:00:00Z"), end: new Date("2024-03-15T00:00:00Z") };
const refusal = (status: number, headers: Record<string, string> = {}) => new HttpResponse(null, { status, headers });

describe("ultrahuman pull", () => {
  it("asks one date at a time, from the day before the window to its last day, and stores the days with metrics", async () => {
    server.use(metricsApi());
    const harness = pullHarness(ultrahuman, { window: MARCH_14, keys: KEYS, accessToken: "uh-user-token" });
    await ultrahuman.pull(harness.context);
    expect(dates()).toEqual(["2024-03-13", "2024-03-14"]);
    expect(requests.every((r) => r.url.pathname === "/api/partners/v1/user_data/metrics" && r.authorization === "Bearer uh-user-token")).toBe(true);
    expect(harness.stored.map((s) => s.format)).toEqual(["ultrahuman-metrics"]);
    expect(harness.stored[0]?.payload).toMatchObject({ date: "2024-03-14", metric_data: expect.any(Array) });
  });

  it("a backfill window asks every date of it", async () => {
    server.use(metricsApi());
    const harness = pullHarness(ultrahuman, { window: { start: new Date("2024-03-10T00:00:00Z"), end: new Date("2024-03-14T12:00:00Z") }, keys: KEYS });
    await ultrahuman.pull(harness.context);
    expect(dates()).toEqual(["2024-03-09", "2024-03-10", "2024-03-11", "2024-03-12", "2024-03-13", "2024-03-14"]);
    expect(harness.stored).toHaveLength(1);
  });

  it("a refused grant (401) is refused, a missing scope (403) is permission, a 429 waits, a 5xx fails", async () => {
    const cases: Array<[() => Response, object]> = [
      [() => refusal(401), { kind: "refused" }],
      [() => refusal(403), { kind: "permission" }],
      [() => refusal(429, { "retry-after": "120" }), { kind: "rate_limited", retryAfterSeconds: 120 }],
      [() => refusal(503), { kind: "failed" }],
    ];
    for (const [answer, expected] of cases) {
      server.use(http.get(`${API}/user_data/metrics`, answer));
      const pull = ultrahuman.pull(pullHarness(ultrahuman, { window: MARCH_14, keys: KEYS }).context);
      await expect(pull).rejects.toBeInstanceOf(ProviderError);
      await expect(ultrahuman.pull(pullHarness(ultrahuman, { window: MARCH_14, keys: KEYS }).context)).rejects.toMatchObject(expected);
    }
  });

  it("refuses an answer of another shape", async () => {
    server.use(http.get(`${API}/user_data/metrics`, () => HttpResponse.json({ data: { metrics: {} } })));
    await expect(ultrahuman.pull(pullHarness(ultrahuman, { window: MARCH_14, keys: KEYS }).context)).rejects.toMatchObject({ kind: "failed" });
  });
});

describe("ultrahuman grant", () => {
  const urls = { ...ultrahuman.urls };
  const exchange = { code: "uh-c0de-41", codeVerifier: "v".repeat(43), redirectUri: "https://svc.example/oauth/ultrahuman/callback" };

  it("exchanges the code with the client secret in the form, and identifies the user with GET /user_data/user_info", async () => {
    const sent: { form?: URLSearchParams } = {};
    server.use(
      http.post(TOKEN, async ({ request }) => {
        sent.form = new URLSearchParams(await request.text());
        return HttpResponse.json(fixture("token.json"));
      }),
      http.get(`${API}/user_data/user_info`, () => HttpResponse.json(fixture("user-info.json"))),
    );
    const tokens = await exchangeCode(ultrahuman, urls, KEYS, exchange);
    expect(Object.fromEntries(sent.form ?? [])).toMatchObject({
      grant_type: "authorization_code",
      code: "uh-c0de-41",
      client_id: "uh-client-id",
      client_secret: "uh-test-secret",
      redirect_uri: "https://svc.example/oauth/ultrahuman/callback",
    });
    expect(sent.form?.has("code_verifier")).toBe(false);
    expect(tokens).toMatchObject({ accessToken: "uh-access-5b2e9c1d7a", refreshToken: "uh-refresh-8d4f0a6c3e", scopes: ["profile", "ring_data"] });
    expect(await ultrahuman.identify(clientHarness(ultrahuman, { keys: KEYS, accessToken: tokens.accessToken }), tokens)).toEqual({ providerUserId: "uh-70215" });
    expect(requests.at(-1)?.authorization).toBe("Bearer uh-access-5b2e9c1d7a");
  });

  it("reads the user id inside `data` too; an answer without one fails the grant", async () => {
    const tokens = { accessToken: "t", refreshToken: null, expiresAt: null, scopes: null, raw: {} };
    server.use(http.get(`${API}/user_data/user_info`, () => HttpResponse.json({ data: { user_id: 90210 } })));
    expect(await ultrahuman.identify(clientHarness(ultrahuman, { keys: KEYS }), tokens)).toEqual({ providerUserId: "90210" });
    server.use(http.get(`${API}/user_data/user_info`, () => HttpResponse.json({ email: "x@example.com" })));
    await expect(ultrahuman.identify(clientHarness(ultrahuman, { keys: KEYS }), tokens)).rejects.toMatchObject({ kind: "failed" });
  });

  it("refreshes with the refresh token; a refused refresh (401) is refused", async () => {
    const sent: { form?: URLSearchParams } = {};
    server.use(
      http.post(TOKEN, async ({ request }) => {
        sent.form = new URLSearchParams(await request.text());
        return HttpResponse.json({ ...(fixture("token.json") as object), access_token: "new-access", refresh_token: "new-refresh" });
      }),
    );
    const tokens = await refreshTokens(ultrahuman, urls, KEYS, "old-refresh");
    expect(sent.form?.get("grant_type")).toBe("refresh_token");
    expect(sent.form?.get("refresh_token")).toBe("old-refresh");
    expect(tokens).toMatchObject({ accessToken: "new-access", refreshToken: "new-refresh" });
    server.use(http.post(TOKEN, () => HttpResponse.json({ error: "invalid_grant" }, { status: 401 })));
    await expect(refreshTokens(ultrahuman, urls, KEYS, "spent-refresh")).rejects.toMatchObject({ kind: "refused" });
  });

  it("authorize settings: profile and ring_data, no PKCE, client_secret_post", () => {
    expect(ultrahuman.oauth).toMatchObject({ scopes: ["profile", "ring_data"], pkce: false, clientAuth: "client_secret_post" });
  });

  it("revokes the access token with the application's credentials in a form", async () => {
    const sent: { form?: URLSearchParams; authorization?: string | null } = {};
    server.use(
      http.post(REVOKE, async ({ request }) => {
        sent.form = new URLSearchParams(await request.text());
        sent.authorization = request.headers.get("authorization");
        return HttpResponse.json({});
      }),
    );
    await ultrahuman.revoke?.(clientHarness(ultrahuman, { keys: KEYS }), { accessToken: "uh-access-to-revoke", refreshToken: null, expiresAt: null, scopes: null, raw: {} });
    expect(Object.fromEntries(sent.form ?? [])).toEqual({ token: "uh-access-to-revoke", client_id: "uh-client-id", client_secret: "uh-test-secret" });
    expect(sent.authorization).toBeNull();
  });
});

describe("ultrahuman parser", () => {
  const parse = ultrahuman.parsers["ultrahuman-metrics"]!;
  const day = () => ({ date: "2024-03-14", metric_data: (fixture("metrics-2024-03-14.json") as { data: { metric_data: unknown[] } }).data.metric_data });

  it("maps heart rate, HRV (RMSSD), steps, recovery index and VO2 max to catalog types in their units", () => {
    const out = parse(day());
    expect(out.rejected).toEqual([]);
    const samples = out.quantitySamples.map((s) => [s.type, s.value, s.start_date.toISOString()]);
    expect(samples).toEqual([
      ["heart_rate", 64, "2024-03-14T08:00:00.000Z"],
      ["heart_rate", 71, "2024-03-14T08:05:00.000Z"],
      ["hrv_rmssd", 48, "2024-03-13T22:50:00.000Z"],
      ["hrv_rmssd", 52, "2024-03-13T22:55:00.000Z"],
      ["step_count", 420, "2024-03-14T10:00:00.000Z"],
      ["step_count", 1180, "2024-03-14T11:00:00.000Z"],
      ["recovery_score", 78, "2024-03-14T00:00:00.000Z"],
      ["vo2_max", 41, "2024-03-14T00:00:00.000Z"],
    ]);
    for (const s of out.quantitySamples) {
      const type = findQuantityType(s.type);
      expect(type).toBeTruthy();
      if (type) expect("error" in toStorageUnit(type, s.value, s.unit)).toBe(false);
      expect(s).toMatchObject({ source: "ultrahuman", on_body: true });
    }
    expect(out.quantitySamples.find((s) => s.type === "recovery_score")?.external_id).toBe("recovery_score-2024-03-14");
  });

  it("maps the night with its stage totals, efficiency as a fraction, keyed by its start", () => {
    const [night] = parse(day()).sleepSessions;
    expect(night).toMatchObject({
      kind: "sleep",
      bedtime_start: new Date("2024-03-13T22:40:00Z"),
      bedtime_end: new Date("2024-03-14T06:10:00Z"),
      deep_seconds: 4800,
      light_seconds: 13200,
      rem_seconds: 6000,
      awake_seconds: 3000,
      total_sleep_seconds: 24000,
      efficiency: 0.89,
      external_id: "sleep-1710369600",
      metadata: { day: "2024-03-14", time_in_bed_seconds: 27000 },
    });
  });

  it("rejects readings and nights it cannot read without quoting them, and refuses a payload of another shape", () => {
    const out = parse({
      date: "2024-03-14",
      metric_data: [
        { type: "hr", object: { values: [{ value: 70, timestamp: "soon" }, { value: -1, timestamp: 1710403200 }] } },
        { type: "Sleep", object: { bedtime_start: 1710396600, bedtime_end: 1710369600 } },
        { object: {} },
      ],
    });
    expect(out.quantitySamples).toEqual([]);
    expect(out.sleepSessions).toEqual([]);
    expect(out.rejected.map((r) => r.locator)).toEqual(["metric_data[0].object.values[0]", "metric_data[0].object.values[1]", "metric_data[1]", "metric_data[2]"]);
    expect(JSON.stringify(out.rejected)).not.toContain("70");
    expect(() => parse([])).toThrow();
    expect(() => parse({ date: "yesterday", metric_data: [] })).toThrow();
  });
});
