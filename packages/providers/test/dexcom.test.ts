import { exchangeCode, findQuantityType, ProviderError, refreshTokens, resolveProviderUrls, toStorageUnit, type ParsedRecords, type ProviderTokens } from "@svc/core";
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { apiBase } from "../src/dexcom/api.ts";
import { provider as dexcom } from "../src/dexcom/connector.ts";
import { clientHarness, pullHarness } from "./helpers/connector-harness.ts";
import { DEXCOM_USER_ID, dexcomFixture, fakeDexcomApi } from "./helpers/dexcom-api.ts";

const PRODUCTION_KEYS = { CLIENT_ID: "test-client-id", CLIENT_SECRET: "test-client-secret", ENVIRONMENT: "production" };
const SANDBOX_KEYS = { ...PRODUCTION_KEYS, ENVIRONMENT: "sandbox" };
const production = fakeDexcomApi();
const sandbox = fakeDexcomApi({ base: "https://sandbox-api.dexcom.com" });
const server = setupServer(...production.handlers, ...sandbox.handlers);

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => {
  server.resetHandlers();
  production.requests.length = 0;
  sandbox.requests.length = 0;
});
afterAll(() => server.close());

const tokens: ProviderTokens = { accessToken: "test-access-token", refreshToken: "r", expiresAt: null, scopes: null, raw: {} };
const parse = (format: string, payload: unknown): ParsedRecords => {
  const parser = dexcom.parsers[format];
  if (!parser) throw new Error(`no parser for ${format}`);
  return parser(payload);
};
const queries = (api: { requests: URL[] }) => api.requests.map((url) => `${url.pathname}?${url.searchParams.toString()}`);

describe("dexcom connector settings", () => {
  it("names its keys, URLs and OAuth rules as Dexcom documents them", () => {
    expect(dexcom.kind).toBe("oauth");
    expect(dexcom.keys.map((key) => key.env)).toEqual(["SVC_DEXCOM_CLIENT_ID", "SVC_DEXCOM_CLIENT_SECRET", "SVC_DEXCOM_ENVIRONMENT"]);
    expect(dexcom.applicationKeys).toEqual(["CLIENT_ID", "ENVIRONMENT"]);
    expect(dexcom.urls).toEqual({
      authorize: "https://api.dexcom.com/v2/oauth2/login",
      token: "https://api.dexcom.com/v2/oauth2/token",
      api: "https://api.dexcom.com",
      sandbox_api: "https://sandbox-api.dexcom.com",
    });
    // Single-use refresh tokens, client_secret in the form, scope offline_access.
    expect(dexcom.oauth).toMatchObject({ scopes: ["offline_access"], clientAuth: "client_secret_post", rotatesRefreshToken: true, pkce: false });
    expect(dexcom.notifications).toBeUndefined();
  });

  it("refuses an ENVIRONMENT other than production or sandbox", () => {
    expect(dexcom.checkKeys?.(PRODUCTION_KEYS)).toBeNull();
    expect(dexcom.checkKeys?.(SANDBOX_KEYS)).toBeNull();
    expect(dexcom.checkKeys?.({ ...PRODUCTION_KEYS, ENVIRONMENT: "staging" })).toBe("ENVIRONMENT must be production or sandbox.");
    expect(dexcom.checkKeys?.({ CLIENT_ID: "a", CLIENT_SECRET: "b" })).toBe("ENVIRONMENT must be production or sandbox.");
  });

  it("picks the API host from ENVIRONMENT, each host overridable by its environment variable", () => {
    const urls = resolveProviderUrls(dexcom, { env: { SVC_DEXCOM_SANDBOX_API_URL: "http://127.0.0.1:9911/dexcom-sandbox" }, publicUrl: () => "http://svc.test" });
    expect(apiBase({ urls, keys: PRODUCTION_KEYS })).toBe("https://api.dexcom.com");
    expect(apiBase({ urls, keys: SANDBOX_KEYS })).toBe("http://127.0.0.1:9911/dexcom-sandbox");
  });
});

describe("dexcom token answers", () => {
  it("exchanges a code with client_id and client_secret in the form, and rotates the refresh token", async () => {
    const forms: URLSearchParams[] = [];
    server.use(
      http.post("https://api.dexcom.com/v2/oauth2/token", async ({ request }) => {
        const form = new URLSearchParams(await request.text());
        forms.push(form);
        const answer = dexcomFixture("token.json");
        return HttpResponse.json(form.get("grant_type") === "refresh_token" ? { ...answer, refresh_token: "dexcom-second-refresh-token" } : answer);
      }),
    );
    const redirectUri = "https://svc.example/oauth/dexcom/callback";
    const granted = await exchangeCode(dexcom, dexcom.urls, PRODUCTION_KEYS, { code: "the-code", codeVerifier: "unused", redirectUri });
    expect(granted).toMatchObject({ accessToken: "dexcom-fixture-access-token", refreshToken: "dexcom-fixture-refresh-token" });
    expect(Object.fromEntries(forms[0] ?? [])).toMatchObject({
      grant_type: "authorization_code",
      code: "the-code",
      redirect_uri: redirectUri,
      client_id: "test-client-id",
      client_secret: "test-client-secret",
    });
    // No PKCE with Dexcom.
    expect(forms[0]?.has("code_verifier")).toBe(false);

    const refreshed = await refreshTokens(dexcom, dexcom.urls, PRODUCTION_KEYS, "dexcom-fixture-refresh-token");
    expect(refreshed.refreshToken).toBe("dexcom-second-refresh-token");
    expect(Object.fromEntries(forms[1] ?? [])).toMatchObject({ grant_type: "refresh_token", refresh_token: "dexcom-fixture-refresh-token" });
  });
});

describe("dexcom identify", () => {
  it("answers the userId of dataRange", async () => {
    expect(await dexcom.identify(clientHarness(dexcom, { keys: PRODUCTION_KEYS }), tokens)).toEqual({ providerUserId: DEXCOM_USER_ID });
    expect(queries(production)).toEqual(["/v3/users/self/dataRange?"]);
  });
});

describe("dexcom pull", () => {
  it("backfills 90 days in pieces of at most 30 days, egvs and events for each", async () => {
    const { context, stored } = pullHarness(dexcom, {
      keys: PRODUCTION_KEYS,
      window: { start: new Date("2023-12-06T00:00:00Z"), end: new Date("2024-03-05T00:00:00Z") },
    });
    await dexcom.pull(context);
    const pieces = [
      "startDate=2023-12-06T00%3A00%3A00&endDate=2024-01-05T00%3A00%3A00",
      "startDate=2024-01-05T00%3A00%3A00&endDate=2024-02-04T00%3A00%3A00",
      "startDate=2024-02-04T00%3A00%3A00&endDate=2024-03-05T00%3A00%3A00",
    ];
    expect(queries(production)).toEqual(pieces.flatMap((piece) => [`/v3/users/self/egvs?${piece}`, `/v3/users/self/events?${piece}`]));
    expect(stored.map((s) => s.format)).toEqual(["dexcom-egvs", "dexcom-events", "dexcom-egvs", "dexcom-events", "dexcom-egvs", "dexcom-events"]);
    const egvCounts = stored.filter((s) => s.format === "dexcom-egvs").map((s) => (s.payload as { records: unknown[] }).records.length);
    expect(egvCounts).toEqual([0, 1, 6]);
    expect(sandbox.requests).toEqual([]);
  });

  it("pulls an incremental window with one request per endpoint, only that window", async () => {
    const { context, stored } = pullHarness(dexcom, {
      keys: PRODUCTION_KEYS,
      window: { start: new Date("2024-03-04T05:00:00Z"), end: new Date("2024-03-04T06:00:00Z") },
    });
    await dexcom.pull(context);
    const window = "startDate=2024-03-04T05%3A00%3A00&endDate=2024-03-04T06%3A00%3A00";
    expect(queries(production)).toEqual([`/v3/users/self/egvs?${window}`, `/v3/users/self/events?${window}`]);
    const egvs = parse("dexcom-egvs", stored[0]?.payload);
    expect(egvs.quantitySamples.map((s) => s.value)).toEqual([86]);
  });

  it("calls the sandbox host for a sandbox application", async () => {
    const { context } = pullHarness(dexcom, { keys: SANDBOX_KEYS, window: { start: new Date("2024-03-02T00:00:00Z"), end: new Date("2024-03-03T00:00:00Z") } });
    await dexcom.pull(context);
    expect(sandbox.requests).toHaveLength(2);
    expect(production.requests).toEqual([]);
  });

  it("turns a refused grant into a refused ProviderError", async () => {
    const { context } = pullHarness(dexcom, { keys: PRODUCTION_KEYS, accessToken: "revoked", window: { start: new Date("2024-03-02T00:00:00Z"), end: new Date("2024-03-03T00:00:00Z") } });
    const error = await dexcom.pull(context).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ kind: "refused", status: 401 });
  });

  it("turns a 429 into rate_limited with Retry-After", async () => {
    server.use(http.get("https://api.dexcom.com/v3/users/self/egvs", () => new HttpResponse(null, { status: 429, headers: { "Retry-After": "120" } })));
    const { context, stored } = pullHarness(dexcom, { keys: PRODUCTION_KEYS, window: { start: new Date("2024-03-02T00:00:00Z"), end: new Date("2024-03-03T00:00:00Z") } });
    const error = await dexcom.pull(context).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: "rate_limited", status: 429, retryAfterSeconds: 120 });
    expect(stored).toEqual([]);
  });
});

describe("dexcom mapping", () => {
  it("maps every EGV to a blood glucose sample at its systemTime, checked by hand", () => {
    const parsed = parse("dexcom-egvs", dexcomFixture("egvs.json"));
    const samples = parsed.quantitySamples.map((s) => ({
      value: s.value,
      unit: s.unit,
      at: s.start_date.toISOString(),
      timezone: s.timezone,
      device: s.device,
      id: s.external_id,
      trend: s.metadata?.trend,
      trendRate: s.metadata?.trend_rate,
    }));
    expect(samples).toEqual([
      // A receiver record: no offsets; systemTime is UTC, the display clock runs 1 h 0 min 26 s
      // ahead, which rounds to the quarter hour as +01:00.
      { value: 98, unit: "mg/dL", at: "2024-01-20T08:00:05.000Z", timezone: "+01:00", device: "Dexcom G6", id: "0c1f6a52-7d1e-4b0e-9f51-2f3a4b5c6d01", trend: "flat", trendRate: 0.1 },
      // iPhone records: systemTime 06:55:12+00:00, displayTime 07:55:12+01:00.
      { value: 104, unit: "mg/dL", at: "2024-03-02T06:55:12.000Z", timezone: "+01:00", device: "Dexcom G7", id: "7e2d4c1a-3b5f-4e6a-8c9d-0e1f2a3b4c01", trend: "flat", trendRate: -0.3 },
      { value: 109, unit: "mg/dL", at: "2024-03-02T07:00:12.000Z", timezone: "+01:00", device: "Dexcom G7", id: "7e2d4c1a-3b5f-4e6a-8c9d-0e1f2a3b4c02", trend: "fortyFiveUp", trendRate: 1.2 },
      { value: 117, unit: "mg/dL", at: "2024-03-02T07:05:12.000Z", timezone: "+01:00", device: "Dexcom G7", id: "7e2d4c1a-3b5f-4e6a-8c9d-0e1f2a3b4c03", trend: "singleUp", trendRate: 2.1 },
      { value: 142, unit: "mg/dL", at: "2024-03-03T21:10:05.000Z", timezone: "+01:00", device: "Dexcom G6", id: "9a8b7c6d-5e4f-4a3b-9c2d-1e0f9a8b7c01", trend: "flat", trendRate: 0.4 },
      { value: 86, unit: "mg/dL", at: "2024-03-04T05:40:12.000Z", timezone: "+01:00", device: "Dexcom G7", id: "2f3e4d5c-6b7a-4899-8a7b-6c5d4e3f2a01", trend: "fortyFiveDown", trendRate: -1.4 },
    ]);
    for (const sample of parsed.quantitySamples) {
      expect(sample).toMatchObject({ type: "blood_glucose", source: "dexcom", on_body: true });
      expect(sample.end_date).toBeUndefined();
    }
    // The reading above the sensor's range has status high and no value.
    expect(parsed.rejected).toEqual([{ recordKind: "egv", locator: "records[5]", reason: "egv: value is missing (out of the sensor's range or not computed)" }]);
  });

  it("keeps mmol/L EGVs in mmol/L for the writer, which stores mg/dL", () => {
    const record = { recordId: "r1", systemTime: "2024-03-02T06:55:12+00:00", displayTime: "2024-03-02T07:55:12+01:00", value: 6.1, unit: "mmol/L", transmitterGeneration: "g7" };
    const [sample] = parse("dexcom-egvs", { recordType: "egv", records: [record] }).quantitySamples;
    expect(sample).toMatchObject({ value: 6.1, unit: "mmol/L" });
    // 6.1 mmol/L × 180.156 g/mol ÷ 10 dL/L = 109.895 mg/dL.
    const stored = toStorageUnit(findQuantityType("blood_glucose")!, 6.1, "mmol/L");
    expect("value" in stored && stored.value).toBeCloseTo(109.895, 2);
  });

  it("maps carbs, insulin and fingerstick events, drops other event types and deletes deleted events", () => {
    const parsed = parse("dexcom-events", dexcomFixture("events.json"));
    expect(
      parsed.quantitySamples.map((s) => ({ type: s.type, value: s.value, unit: s.unit, at: s.start_date.toISOString(), id: s.external_id, user: s.was_user_entered, sub: s.metadata?.event_sub_type })),
    ).toEqual([
      // value "45", unit grams -> 45 g.
      { type: "dietary_carbohydrates", value: 45, unit: "g", at: "2024-03-02T07:20:00.000Z", id: "4c5d6e7f-8a9b-4c0d-9e1f-2a3b4c5d6e01", user: true, sub: undefined },
      // value "4.5", unit units -> 4.5 IU of fast-acting insulin.
      { type: "insulin_delivery", value: 4.5, unit: "IU", at: "2024-03-02T07:21:30.000Z", id: "4c5d6e7f-8a9b-4c0d-9e1f-2a3b4c5d6e02", user: true, sub: "fastActing" },
      { type: "blood_glucose", value: 126, unit: "mg/dL", at: "2024-03-03T18:45:00.000Z", id: "4c5d6e7f-8a9b-4c0d-9e1f-2a3b4c5d6e04", user: true, sub: undefined },
    ]);
    expect(parsed.quantitySamples.every((s) => s.on_body === false && s.timezone === "+01:00")).toBe(true);
    expect(parsed.deletedExternalIds).toEqual(["4c5d6e7f-8a9b-4c0d-9e1f-2a3b4c5d6e05"]);
    expect(parsed.rejected).toEqual([]);
  });

  it("rejects unreadable records without quoting values, and refuses a payload without records", () => {
    const parsed = parse("dexcom-egvs", { records: [{ recordId: "x", systemTime: "yesterday", value: 100, unit: "mg/dL" }, { recordId: "y", systemTime: "2024-03-02T06:55:12", value: 100, unit: "unknown" }] });
    expect(parsed.rejected.map((r) => r.reason)).toEqual(["egv: systemTime is missing or not a time", "egv: unit is not mg/dL or mmol/L"]);
    expect(() => parse("dexcom-egvs", { error: "nope" })).toThrow(/no records array/);
  });

  it("gives every sample a catalog type and a unit the catalog converts to its storage unit", () => {
    const samples = ([["dexcom-egvs", dexcomFixture("egvs.json")], ["dexcom-events", dexcomFixture("events.json")]] as const).flatMap(([format, payload]) => parse(format, payload).quantitySamples);
    expect(samples.length).toBeGreaterThan(0);
    for (const sample of samples) {
      const type = findQuantityType(sample.type);
      expect(type, sample.type).toBeDefined();
      const stored = toStorageUnit(type!, sample.value, sample.unit);
      expect("error" in stored ? stored.error : null, sample.type).toBeNull();
    }
  });
});
