import { createHmac } from "node:crypto";
import { ProviderError, QUANTITY_TYPES, toStorageUnit, type InboundRequest, type ParsedRecords, type ProviderTokens } from "@svc/core";
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { provider as oura } from "../src/oura/connector.ts";
import { verificationTokenOf } from "../src/oura/webhook.ts";
import { clientHarness, pullHarness } from "./helpers/connector-harness.ts";
import { fakeOuraApi, OURA_USER_ID, ouraFixture } from "./helpers/oura-api.ts";

const API = "https://api.ouraring.com";
const api = fakeOuraApi();
const server = setupServer(...api.handlers);

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => {
  server.resetHandlers();
  api.requests.length = 0;
});
afterAll(() => server.close());

const tokens: ProviderTokens = { accessToken: "test-access-token", refreshToken: "r", expiresAt: null, scopes: null, raw: {} };
const parse = (format: string, payload: unknown): ParsedRecords => {
  const parser = oura.parsers[format];
  if (!parser) throw new Error(`no parser for ${format}`);
  return parser(payload);
};
/** The query of each request to one collection, in order. */
const queriesOf = (collection: string) =>
  api.requests.filter((url) => url.pathname === `/v2/usercollection/${collection}`).map((url) => Object.fromEntries(url.searchParams));

describe("oura connector settings", () => {
  it("names its keys, URLs and OAuth rules as Oura documents them", () => {
    expect(oura.kind).toBe("push");
    expect(oura.keys.map((key) => key.env)).toEqual(["SVC_OURA_CLIENT_ID", "SVC_OURA_CLIENT_SECRET", "SVC_OURA_WEBHOOK_VERIFICATION_TOKEN"]);
    expect(oura.urls.authorize).toBe("https://cloud.ouraring.com/oauth/authorize");
    expect(oura.urls.token).toBe("https://api.ouraring.com/oauth/token");
    // Token requests carry client_id/client_secret in the form body; refresh tokens are single use.
    expect(oura.oauth).toMatchObject({ clientAuth: "client_secret_post", rotatesRefreshToken: true, pkce: false });
    expect(oura.oauth.unwrapTokenResponse).toBeUndefined();
    // Every format the pull stores has a parser.
    for (const name of ["daily_activity", "daily_sleep", "daily_readiness", "daily_spo2", "sleep", "workout", "heartrate", "deletion"]) {
      expect(oura.parsers[`oura-${name}`]).toBeTypeOf("function");
    }
  });
});

describe("oura identify", () => {
  it("answers the id of personal_info", async () => {
    expect(await oura.identify(clientHarness(oura), tokens)).toEqual({ providerUserId: OURA_USER_ID });
  });
});

describe("oura pull", () => {
  it("backfills a long window in 30-day ranges, following next_token, storing every non-empty page", async () => {
    const { context, stored } = pullHarness(oura, { window: { start: new Date("2023-12-01T00:00:00Z"), end: new Date("2024-03-05T00:00:00Z") } });
    await oura.pull(context);

    // Days reach one day around the window (local days), ranges share their edge day.
    const dateRanges = [
      { start_date: "2023-11-30", end_date: "2023-12-30" },
      { start_date: "2023-12-30", end_date: "2024-01-29" },
      { start_date: "2024-01-29", end_date: "2024-02-28" },
      { start_date: "2024-02-28", end_date: "2024-03-05" },
    ];
    // daily_activity: 3 documents in the last range, 2 per page -> a second page by next_token.
    expect(queriesOf("daily_activity")).toEqual([...dateRanges, { ...dateRanges[3], next_token: "page-2" }]);
    // sleep: 4 periods (2024-03-02 to 2024-03-04) -> 2 pages.
    expect(queriesOf("sleep")).toEqual([...dateRanges, { ...dateRanges[3], next_token: "page-2" }]);
    for (const collection of ["daily_sleep", "daily_readiness", "daily_spo2", "workout"]) {
      expect(queriesOf(collection).slice(0, 4)).toEqual(dateRanges);
    }
    // heartrate: the exact window in 30-day parts; 8 rows in the last part -> 4 pages.
    const heartrate = queriesOf("heartrate");
    expect(heartrate.slice(0, 4)).toEqual([
      { start_datetime: "2023-12-01T00:00:00.000Z", end_datetime: "2023-12-31T00:00:00.000Z" },
      { start_datetime: "2023-12-31T00:00:00.000Z", end_datetime: "2024-01-30T00:00:00.000Z" },
      { start_datetime: "2024-01-30T00:00:00.000Z", end_datetime: "2024-02-29T00:00:00.000Z" },
      { start_datetime: "2024-02-29T00:00:00.000Z", end_datetime: "2024-03-05T00:00:00.000Z" },
    ]);
    expect(heartrate.slice(4).map((query) => query.next_token)).toEqual(["page-2", "page-4", "page-6"]);

    const pages = (format: string) => stored.filter((item) => item.format === format).length;
    expect(pages("oura-daily_activity")).toBe(2);
    expect(pages("oura-sleep")).toBe(2);
    expect(pages("oura-heartrate")).toBe(4);
    expect(pages("oura-daily_sleep")).toBe(2);
    expect(pages("oura-workout")).toBe(2);
    // Every document of every fixture was stored once.
    const documents = (format: string) => stored.filter((item) => item.format === format).flatMap((item) => (item.payload as { data: unknown[] }).data);
    expect(documents("oura-daily_activity")).toEqual((ouraFixture("daily_activity.json") as { data: unknown[] }).data);
    expect(documents("oura-heartrate")).toHaveLength(8);
  });

  it("asks an incremental pull for its window only", async () => {
    const { context, stored } = pullHarness(oura, { window: { start: new Date("2024-03-02T00:00:00Z"), end: new Date("2024-03-03T00:00:00Z") } });
    await oura.pull(context);
    const range = { start_date: "2024-03-01", end_date: "2024-03-03" };
    for (const collection of ["daily_activity", "daily_sleep", "daily_readiness", "sleep", "daily_spo2", "workout"]) {
      expect(queriesOf(collection)[0]).toEqual(range);
    }
    // 3 rows on 2024-03-02 (UTC) -> 2 pages of the same range.
    expect(queriesOf("heartrate")).toEqual([
      { start_datetime: "2024-03-02T00:00:00.000Z", end_datetime: "2024-03-03T00:00:00.000Z" },
      { start_datetime: "2024-03-02T00:00:00.000Z", end_datetime: "2024-03-03T00:00:00.000Z", next_token: "page-2" },
    ]);
    expect(stored.length).toBeGreaterThan(0);
  });

  it("pulls only the data type a notification named, and only what the grant's scopes open", async () => {
    const window = { start: new Date("2024-03-02T00:00:00Z"), end: new Date("2024-03-03T00:00:00Z") };
    await oura.pull(pullHarness(oura, { window, dataType: "sleep" }).context);
    expect(new Set(api.requests.map((url) => url.pathname))).toEqual(new Set(["/v2/usercollection/sleep"]));

    api.requests.length = 0;
    await oura.pull(pullHarness(oura, { window, scopes: ["daily"] }).context);
    const asked = new Set(api.requests.map((url) => url.pathname.replace("/v2/usercollection/", "")));
    expect(asked).toEqual(new Set(["daily_activity", "daily_sleep", "daily_readiness", "sleep"]));
  });

  it("turns a refused grant (401) into ProviderError refused", async () => {
    const { context } = pullHarness(oura, { window: { start: new Date("2024-03-02T00:00:00Z"), end: new Date("2024-03-03T00:00:00Z") }, accessToken: "revoked" });
    await expect(oura.pull(context)).rejects.toMatchObject({ name: "ProviderError", kind: "refused", status: 401 });
  });

  it("turns a 429 with Retry-After into ProviderError rate_limited", async () => {
    server.use(
      http.get(`${API}/v2/usercollection/daily_activity`, () =>
        new HttpResponse(null, { status: 429, headers: { "Retry-After": "120", "X-RateLimit-Tier": "token" } }),
      ),
    );
    const { context } = pullHarness(oura, { window: { start: new Date("2024-03-02T00:00:00Z"), end: new Date("2024-03-03T00:00:00Z") } });
    const error = await oura.pull(context).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ kind: "rate_limited", retryAfterSeconds: 120 });
  });

  it("stops on a provider that repeats its next_token", async () => {
    server.use(http.get(`${API}/v2/usercollection/daily_activity`, () => HttpResponse.json({ data: [{ id: "x" }], next_token: "same" })));
    const { context } = pullHarness(oura, { window: { start: new Date("2024-03-02T00:00:00Z"), end: new Date("2024-03-03T00:00:00Z") } });
    await expect(oura.pull(context)).rejects.toMatchObject({ kind: "failed" });
  });
});

describe("oura notifications", () => {
  const keys = { CLIENT_ID: "oura-client", CLIENT_SECRET: "oura-secret" };
  const otherKeys = { CLIENT_ID: "tenant-client", CLIENT_SECRET: "tenant-secret", WEBHOOK_VERIFICATION_TOKEN: "tenant-token" };
  const signed = (body: string, secret: string, timestamp = "1709370000"): InboundRequest => ({
    method: "POST",
    headers: { "x-oura-signature": createHmac("sha256", secret).update(timestamp + body).digest("hex").toUpperCase(), "x-oura-timestamp": timestamp },
    query: {},
    rawBody: Buffer.from(body),
  });
  const event = (eventType: string, dataType: string) =>
    JSON.stringify({ event_type: eventType, data_type: dataType, object_id: "4e5f6a7b-0d2e-4f4a-9b6c-8d9e0f1a2bfb", event_time: "2024-03-02T06:10:00+00:00", user_id: OURA_USER_ID });
  const handle = oura.notifications!.handle;

  it("pulls the named data type of the named user when a key set's secret signed it", () => {
    const answer = handle(signed(event("update", "sleep"), "tenant-secret"), [keys, otherKeys]);
    expect(answer).toEqual({ status: 200, pulls: [{ providerUserId: OURA_USER_ID, dataType: "sleep" }] });
    // The signature's hex may come in lower case.
    const lower = signed(event("create", "daily_readiness"), "oura-secret");
    const answerLower = handle({ ...lower, headers: { ...lower.headers, "x-oura-signature": lower.headers["x-oura-signature"]!.toLowerCase() } }, [keys]);
    expect(answerLower.pulls).toEqual([{ providerUserId: OURA_USER_ID, dataType: "daily_readiness" }]);
  });

  it("refuses a bad or missing signature with 401 and no pulls", () => {
    const body = event("update", "sleep");
    expect(handle(signed(body, "not-the-secret"), [keys, otherKeys])).toMatchObject({ status: 401 });
    expect(handle({ ...signed(body, "oura-secret"), rawBody: Buffer.from(body.replace("sleep", "workout")) }, [keys]).pulls).toBeUndefined();
    expect(handle({ method: "POST", headers: {}, query: {}, rawBody: Buffer.from(body) }, [keys])).toMatchObject({ status: 401 });
  });

  it("answers the subscription handshake with the challenge when the verification token is a key set's", () => {
    const handshake = (token: string): InboundRequest => ({ method: "GET", headers: {}, query: { verification_token: token, challenge: "c-81f3" }, rawBody: Buffer.alloc(0) });
    expect(handle(handshake("tenant-token"), [keys, otherKeys])).toEqual({ status: 200, body: { challenge: "c-81f3" } });
    // Without WEBHOOK_VERIFICATION_TOKEN the token is derived from the client secret.
    expect(handle(handshake(verificationTokenOf(keys)!), [keys])).toEqual({ status: 200, body: { challenge: "c-81f3" } });
    expect(handle(handshake("guess"), [keys, otherKeys])).toMatchObject({ status: 401 });
  });

  it("hands a delete event on as a deletion of the document, and ignores data types it does not pull", () => {
    const answer = handle(signed(event("delete", "workout"), "oura-secret"), [keys]);
    expect(answer.pulls).toBeUndefined();
    expect(answer.payloads).toEqual([
      { providerUserId: OURA_USER_ID, format: "oura-deletion", payload: { data_type: "workout", object_id: "4e5f6a7b-0d2e-4f4a-9b6c-8d9e0f1a2bfb" } },
    ]);
    expect(parse("oura-deletion", answer.payloads![0]!.payload).deletedExternalIds).toEqual(["4e5f6a7b-0d2e-4f4a-9b6c-8d9e0f1a2bfb"]);
    expect(handle(signed(event("update", "tag"), "oura-secret"), [keys])).toEqual({ status: 200 });
  });
});

describe("oura subscriptions and revoke", () => {
  it("creates the application's missing subscriptions, renews one about to expire, and answers no per-user ids", async () => {
    const calls: Array<{ method: string; path: string; headers: Record<string, string | null>; body: unknown }> = [];
    const record = async (request: Request) => {
      const url = new URL(request.url);
      calls.push({
        method: request.method,
        path: url.pathname,
        headers: { id: request.headers.get("x-client-id"), secret: request.headers.get("x-client-secret"), authorization: request.headers.get("authorization") },
        body: request.method === "POST" ? await request.json() : null,
      });
    };
    server.use(
      http.get(`${API}/v2/webhook/subscription`, async ({ request }) => {
        await record(request);
        return HttpResponse.json(ouraFixture("webhook_subscriptions.json") as unknown[]);
      }),
      http.post(`${API}/v2/webhook/subscription`, async ({ request }) => {
        await record(request);
        return HttpResponse.json({ id: "new" }, { status: 201 });
      }),
      http.put(`${API}/v2/webhook/subscription/renew/:id`, async ({ request }) => {
        await record(request);
        return HttpResponse.json({ id: "renewed" });
      }),
    );
    const keys = { CLIENT_ID: "oura-client", CLIENT_SECRET: "oura-secret", WEBHOOK_VERIFICATION_TOKEN: "vt-1" };
    const callbackUrl = "https://svc.example.com/providers/oura/notifications";
    const ids = await oura.subscribe!(clientHarness(oura, { keys }), { providerUserId: OURA_USER_ID, callbackUrl });
    expect(ids).toEqual([]);
    expect(calls.every((call) => call.headers.id === "oura-client" && call.headers.secret === "oura-secret" && call.headers.authorization === null)).toBe(true);
    // 6 data types x 3 event types = 18; update/sleep exists, create/sleep exists but expires (renewed).
    const created = calls.filter((call) => call.method === "POST");
    expect(created).toHaveLength(16);
    expect(created[0]!.body).toEqual({ callback_url: callbackUrl, verification_token: "vt-1", event_type: "create", data_type: "daily_activity" });
    expect(calls.filter((call) => call.method === "PUT").map((call) => call.path)).toEqual(["/v2/webhook/subscription/renew/7a1c9e2f-3b4d-4e5f-a6b7-c8d9e0f1a2b3"]);
  });

  it("revokes the access token (best effort)", async () => {
    let revoked: string | null = null;
    server.use(
      http.get(`${API}/oauth/revoke`, ({ request }) => {
        revoked = new URL(request.url).searchParams.get("access_token");
        return new HttpResponse(null, { status: 200 });
      }),
    );
    await oura.revoke!(clientHarness(oura), tokens);
    expect(revoked).toBe("test-access-token");
  });
});

describe("oura mapping", () => {
  it("maps daily_activity to daily summaries", () => {
    const records = parse("oura-daily_activity", ouraFixture("daily_activity.json"));
    expect(records.rejected).toEqual([]);
    expect(records.dailySummaries).toHaveLength(3);
    // active_seconds = low + medium + high activity time: 10380 + 2520 + 600 = 13500 s.
    expect(records.dailySummaries[0]).toMatchObject({
      date: "2024-03-01",
      steps: 9105,
      active_energy_kcal: 412,
      total_energy_kcal: 2398,
      active_seconds: 13500,
      score: 82,
      timezone: "+01:00",
      source: "oura",
      metadata: { oura_id: "a8c3f0e1-5b7d-4c21-9e3a-0d1f2b3c4a51", equivalent_walking_distance_meters: 7310 },
    });
    // Third day: 8760 + 1140 + 0 = 9900 s.
    expect(records.dailySummaries[2]).toMatchObject({ date: "2024-03-03", steps: 5230, active_seconds: 9900, score: 71 });
    // Oura's walking-equivalent is not a distance covered.
    expect(records.dailySummaries[0]!.distance_meters).toBeUndefined();
  });

  it("maps daily_sleep, daily_readiness and daily_spo2 to daily figures at the local midnight of their day", () => {
    const sleep = parse("oura-daily_sleep", ouraFixture("daily_sleep.json")).quantitySamples;
    // 2024-03-01T00:00+01:00 is 2024-02-29T23:00Z.
    expect(sleep[0]).toMatchObject({ type: "sleep_score", value: 74, unit: "score", start_date: new Date("2024-02-29T23:00:00Z"), timezone: "+01:00", external_id: "d1f2a3b4-3c5d-4e7f-8a9b-1c2d3e4f5a84" });
    expect(sleep.map((sample) => sample.value)).toEqual([74, 81, 86]);

    const readiness = parse("oura-daily_readiness", ouraFixture("daily_readiness.json")).quantitySamples;
    expect(readiness.map((sample) => [sample.type, sample.value, sample.unit, sample.start_date.toISOString()])).toEqual([
      ["readiness_score", 79, "score", "2024-03-01T23:00:00.000Z"],
      ["skin_temperature_deviation", -0.12, "degC", "2024-03-01T23:00:00.000Z"],
      ["readiness_score", 85, "score", "2024-03-02T23:00:00.000Z"],
      ["skin_temperature_deviation", 0.21, "degC", "2024-03-02T23:00:00.000Z"],
    ]);

    // daily_spo2 has no timestamp: UTC midnight of the day, no zone. The BDI is per hour of sleep.
    const spo2 = parse("oura-daily_spo2", ouraFixture("daily_spo2.json")).quantitySamples;
    expect(spo2.map((sample) => [sample.type, sample.value, sample.unit, sample.start_date.toISOString(), sample.timezone])).toEqual([
      ["oxygen_saturation", 96.742, "%", "2024-03-02T00:00:00.000Z", null],
      ["sleeping_breathing_disturbances", 4, "count/h", "2024-03-02T00:00:00.000Z", null],
      ["oxygen_saturation", 97.318, "%", "2024-03-03T00:00:00.000Z", null],
    ]);
  });

  it("maps sleep periods to sessions with stages, night figures and deletions", () => {
    const records = parse("oura-sleep", ouraFixture("sleep.json"));
    expect(records.rejected).toEqual([]);
    // The `rest` period (rejected by the user) is reported deleted, not stored.
    expect(records.deletedExternalIds).toEqual(["7b8c9d0e-3a5b-4c7d-8e9f-1a2b3c4d5e2e"]);
    expect(records.sleepSessions).toHaveLength(3);
    const [night, secondNight, nap] = records.sleepSessions;
    // 23:12:30+01:00 -> 22:12:30Z; efficiency 90 -> 0.9.
    expect(night).toMatchObject({
      kind: "sleep",
      bedtime_start: new Date("2024-03-01T22:12:30Z"),
      bedtime_end: new Date("2024-03-02T06:02:30Z"),
      timezone: "+01:00",
      total_sleep_seconds: 25500,
      awake_seconds: 2700,
      light_seconds: 13500,
      deep_seconds: 4800,
      rem_seconds: 7200,
      latency_seconds: 1200,
      efficiency: 0.9,
      average_heart_rate: 56.375,
      lowest_heart_rate: 49,
      average_hrv: 48,
      respiratory_rate: 14.625,
      external_id: "4e5f6a7b-0d2e-4f4a-9b6c-8d9e0f1a2bfb",
    });
    // Hypnogram 4444|22222222|1111111111|...: 14 runs; the first 4 characters are 20 minutes awake.
    const phases = night!.phases!;
    expect(phases).toHaveLength(14);
    expect(phases[0]).toEqual({ stage: "awake", start_date: new Date("2024-03-01T22:12:30Z"), end_date: new Date("2024-03-01T22:32:30Z") });
    expect(phases[1]).toEqual({ stage: "light", start_date: new Date("2024-03-01T22:32:30Z"), end_date: new Date("2024-03-01T23:12:30Z") });
    // Last run: characters 91-93 -> 22:12:30Z + 455 min = 05:47:30Z to bedtime_end.
    expect(phases[13]).toEqual({ stage: "awake", start_date: new Date("2024-03-02T05:47:30Z"), end_date: new Date("2024-03-02T06:02:30Z") });
    // The stages add up to the document's durations.
    const seconds = (stage: string) => phases.filter((p) => p.stage === stage).reduce((sum, p) => sum + (p.end_date.getTime() - p.start_date.getTime()) / 1000, 0);
    expect([seconds("awake"), seconds("light"), seconds("deep"), seconds("rem")]).toEqual([2700, 13500, 4800, 7200]);

    expect(secondNight).toMatchObject({ kind: "sleep", efficiency: 0.94, total_sleep_seconds: 24600 });
    // A `sleep` period (15 min to 3 h) is a nap: 222|11|2 -> light 10 min... 3 runs.
    expect(nap).toMatchObject({ kind: "nap", bedtime_start: new Date("2024-03-03T14:10:00Z"), bedtime_end: new Date("2024-03-03T14:40:00Z") });
    expect(nap!.phases!.map((p) => [p.stage, p.start_date.toISOString().slice(11, 16), p.end_date.toISOString().slice(11, 16)])).toEqual([
      ["light", "14:10", "14:25"],
      ["deep", "14:25", "14:35"],
      ["light", "14:35", "14:40"],
    ]);

    // Night figures at the end of each long_sleep (the morning it belongs to); none for the nap.
    expect(records.quantitySamples.map((s) => [s.type, s.value, s.unit, s.start_date.toISOString()])).toEqual([
      ["resting_heart_rate", 49, "count/min", "2024-03-02T06:02:30.000Z"],
      ["hrv_rmssd", 48, "ms", "2024-03-02T06:02:30.000Z"],
      ["respiratory_rate", 14.625, "count/min", "2024-03-02T06:02:30.000Z"],
      ["resting_heart_rate", 47, "count/min", "2024-03-03T05:55:00.000Z"],
      ["hrv_rmssd", 53, "ms", "2024-03-03T05:55:00.000Z"],
      ["respiratory_rate", 14.25, "count/min", "2024-03-03T05:55:00.000Z"],
    ]);
  });

  it("maps workouts", () => {
    const records = parse("oura-workout", ouraFixture("workout.json"));
    expect(records.workouts.map((w) => [w.activity_type, w.name, w.start_date.toISOString(), w.end_date.toISOString(), w.distance_meters, w.active_energy_kcal, w.timezone])).toEqual([
      ["walking", null, "2024-03-01T16:05:00.000Z", "2024-03-01T16:48:00.000Z", 3650.2, 187.5, "+01:00"],
      ["cycling", "Commute", "2024-03-02T09:00:00.000Z", "2024-03-02T10:15:00.000Z", 24980, 512, "+01:00"],
      ["strength_training", null, "2024-03-03T17:05:00.000Z", "2024-03-03T17:40:00.000Z", null, 143, "+01:00"],
    ]);
    expect(records.workouts[1]).toMatchObject({ external_id: "9d0e1f2a-5c7d-4e9f-8a1b-3c4d5e6f7a40", metadata: { intensity: "hard", workout_source: "manual" } });
  });

  it("maps heart rate rows to readings", () => {
    const samples = parse("oura-heartrate", ouraFixture("heartrate.json")).quantitySamples;
    expect(samples).toHaveLength(8);
    expect(samples[0]).toMatchObject({ type: "heart_rate", value: 58, unit: "count/min", start_date: new Date("2024-03-01T05:02:11Z"), metadata: { context: "rest" } });
    expect(samples[7]).toMatchObject({ value: 81, start_date: new Date("2024-03-03T12:44:21Z"), metadata: { context: "live" } });
  });

  it("gives every sample a catalog type and a unit that converts to its storage unit unchanged", () => {
    for (const name of ["daily_sleep", "daily_readiness", "daily_spo2", "sleep", "heartrate"]) {
      for (const sample of parse(`oura-${name}`, ouraFixture(`${name}.json`)).quantitySamples) {
        const type = QUANTITY_TYPES.find((candidate) => candidate.name === sample.type);
        expect(type, sample.type).toBeDefined();
        // Every figure is already in the storage unit (a temperature deviation stays a difference).
        expect(toStorageUnit(type!, sample.value, sample.unit)).toMatchObject({ value: sample.value });
      }
    }
  });

  it("rejects documents it cannot read (never quoting a value) and refuses a payload that is not a list", () => {
    const records = parse("oura-daily_sleep", { data: [{ id: "x", score: 80 }, "nonsense", { day: "2024-03-01", score: 70 }], next_token: null });
    expect(records.quantitySamples).toEqual([]);
    expect(records.rejected).toEqual([
      { recordKind: "quantity_sample", locator: "data[0]", reason: "day is not a YYYY-MM-DD date" },
      { recordKind: "quantity_sample", locator: "data[1]", reason: "the document is not an object" },
      { recordKind: "quantity_sample", locator: "data[2]", reason: "id is missing" },
    ]);
    const workouts = parse("oura-workout", { data: [{ id: "w", activity: "walking", start_datetime: "2024-03-01T18:00:00+01:00", end_datetime: "2024-03-01T17:00:00+01:00" }] });
    expect(workouts.rejected).toEqual([{ recordKind: "workout", locator: "data[0]", reason: "end_datetime is before start_datetime" }]);
    expect(() => parse("oura-sleep", { detail: "not a list" })).toThrow(/data array/);
  });
});
