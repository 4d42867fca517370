import { createHmac } from "node:crypto";
import { readFileSync } from "node:fs";
import { findQuantityType, toStorageUnit, type InboundRequest, type ProviderKeys, type ProviderTokens, type QuantitySampleRecord } from "@svc/core";
import { http, HttpResponse, type JsonBodyType } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { provider as polar } from "../src/polar/connector.ts";
import { clientHarness, pullHarness } from "./helpers/connector-harness.ts";

const API = "https://www.polaraccesslink.com";
const fixtureText = (name: string): string => readFileSync(new URL(`./fixtures/polar/${name}`, import.meta.url), "utf8");
const own = (name: string): JsonBodyType => JSON.parse(fixtureText(name)) as JsonBodyType;

interface Call {
  method: string;
  path: string;
  query: string;
  authorization: string | null;
}
let calls: Call[] = [];
const notFound = () => new HttpResponse(null, { status: 404 });

/** AccessLink with data for May 2024: one night in detail, lists, one day of continuous heart rate. */
const server = setupServer(
  http.all(`${API}/v3/*`, async ({ request }) => {
    const url = new URL(request.url);
    calls.push({ method: request.method, path: url.pathname, query: url.search, authorization: request.headers.get("authorization") });
    const path = url.pathname;
    if (path === "/v3/exercises") return HttpResponse.json(own("exercises.json"));
    if (path === "/v3/users/sleep") return HttpResponse.json(own("sleep_list.json"));
    if (path === "/v3/users/sleep/available") return HttpResponse.json(own("sleep_available.json"));
    if (path === "/v3/users/sleep/2024-05-02") return HttpResponse.json(own("sleep_2024-05-02.json"));
    if (path === "/v3/users/nightly-recharge") return HttpResponse.json(own("nightly_recharge_list.json"));
    if (path === "/v3/users/nightly-recharge/2024-05-02") return HttpResponse.json(own("nightly_recharge_2024-05-02.json"));
    if (path === "/v3/users/activities") return HttpResponse.json(url.searchParams.get("from") === "2024-04-06" ? own("activities.json") : []);
    if (path === "/v3/users/continuous-heart-rate/2024-05-02") return HttpResponse.json(own("continuous_heart_rate_2024-05-02.json"));
    return notFound();
  }),
);

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => {
  server.resetHandlers();
  calls = [];
});
afterAll(() => server.close());

const tokens: ProviderTokens = { accessToken: "polar-token", refreshToken: null, expiresAt: null, scopes: null, raw: own("token.json") as Record<string, unknown> };

describe("polar connector: OAuth and registration", () => {
  it("uses Polar's consent and token endpoints with basic client authentication and no PKCE", () => {
    expect(polar.urls.authorize).toBe("https://flow.polar.com/oauth2/authorization");
    expect(polar.urls.token).toBe("https://polarremote.com/v2/oauth2/token");
    expect(polar.oauth).toMatchObject({ scopes: ["accesslink.read_all"], clientAuth: "client_secret_basic", pkce: false, rotatesRefreshToken: false });
    expect(polar.keys.map((k) => [k.name, k.env, k.required, k.secret])).toEqual([
      ["CLIENT_ID", "SVC_POLAR_CLIENT_ID", true, false],
      ["CLIENT_SECRET", "SVC_POLAR_CLIENT_SECRET", true, true],
      ["WEBHOOK_SIGNATURE_KEY", "SVC_POLAR_WEBHOOK_SIGNATURE_KEY", false, true],
    ]);
  });

  it("identifies the user by x_user_id and registers them (member-id) so AccessLink gives their data", async () => {
    const bodies: unknown[] = [];
    server.use(
      http.post(`${API}/v3/users`, async ({ request }) => {
        bodies.push(await request.json());
        calls.push({ method: "POST", path: "/v3/users", query: "", authorization: request.headers.get("authorization") });
        return HttpResponse.json(own("register_user.json"));
      }),
    );
    await expect(polar.identify(clientHarness(polar, { accessToken: "polar-token" }), tokens)).resolves.toEqual({ providerUserId: "48201937" });
    expect(bodies).toEqual([{ "member-id": "48201937" }]);
    expect(calls[0]?.authorization).toBe("Bearer polar-token");
  });

  it("takes 409 (already registered) as registered, and refuses what Polar refuses", async () => {
    server.use(http.post(`${API}/v3/users`, () => new HttpResponse(null, { status: 409 })));
    await expect(polar.identify(clientHarness(polar), tokens)).resolves.toEqual({ providerUserId: "48201937" });
    // 403: the user has not accepted Polar's mandatory consents.
    server.use(http.post(`${API}/v3/users`, () => new HttpResponse(null, { status: 403 })));
    await expect(polar.identify(clientHarness(polar), tokens)).rejects.toMatchObject({ kind: "permission", status: 403 });
    await expect(polar.identify(clientHarness(polar), { ...tokens, raw: { access_token: "x" } })).rejects.toMatchObject({ kind: "failed" });
  });

  it("revokes by de-registering the user", async () => {
    await polar.revoke!(clientHarness(polar, { accessToken: "polar-token" }), tokens);
    expect(calls).toEqual([{ method: "DELETE", path: "/v3/users/48201937", query: "", authorization: "Bearer polar-token" }]);
  });
});

describe("polar connector: pulls", () => {
  it("backfills 30 days: the exercise list, the night lists, activity in 28-day ranges, heart rate by date", async () => {
    const window = { start: new Date("2024-04-07T00:00:00Z"), end: new Date("2024-05-07T00:00:00Z") };
    const { context, stored } = pullHarness(polar, { window, accessToken: "polar-token" });
    await polar.pull(context);

    const asked = calls.map((c) => `${c.path}${c.query}`);
    // Device dates in any zone: 2024-04-06 (a day before the first UTC date) to 2024-05-07 (a day after the last): 32 dates.
    const heartRateDates = asked.filter((p) => p.startsWith("/v3/users/continuous-heart-rate/"));
    expect(heartRateDates).toHaveLength(32);
    expect(heartRateDates[0]).toBe("/v3/users/continuous-heart-rate/2024-04-06");
    expect(heartRateDates.at(-1)).toBe("/v3/users/continuous-heart-rate/2024-05-07");
    expect(asked.filter((p) => !p.startsWith("/v3/users/continuous-heart-rate/"))).toEqual([
      "/v3/exercises?route=true",
      "/v3/users/sleep",
      "/v3/users/nightly-recharge",
      // At most 28 days a request: 04-06..05-03, then 05-04..05-07.
      "/v3/users/activities?from=2024-04-06&to=2024-05-03",
      "/v3/users/activities?from=2024-05-04&to=2024-05-07",
      "/v3/users/sleep/available",
    ]);
    expect(calls.every((c) => c.authorization === "Bearer polar-token")).toBe(true);

    expect(stored.map((s) => s.format)).toEqual(["polar-exercises", "polar-nights", "polar-nights", "polar-nights", "polar-activities", "polar-continuous-heart-rate"]);
    // Exercises starting in the window (the one of April 3 is left out; one without an offset is kept for its parser to reject).
    expect((stored[0]?.payload as Array<{ id: string }>).map((e) => e.id)).toEqual(["Xk2Pq9", "Ab7Rt3", "Bad001"]);
    // Nights of the window's dates from the two lists; 2024-03-30 is outside it.
    expect(stored.slice(1, 4).map((s) => s.payload)).toEqual([
      { date: "2024-05-02", sleep: expect.objectContaining({ sleep_score: 78 }), nightly_recharge: expect.objectContaining({ heart_rate_variability_avg: 48 }) },
      { date: "2024-05-03", sleep: expect.objectContaining({ sleep_score: 82 }), nightly_recharge: null },
      { date: "2024-05-04", sleep: null, nightly_recharge: expect.objectContaining({ heart_rate_variability_avg: 39 }) },
    ]);
    // The offset of 2024-05-02 from its wake-up time (06:48 at +02:00).
    expect(stored[5]?.payload).toEqual({ utc_offset_minutes: 120, continuous_heart_rate: own("continuous_heart_rate_2024-05-02.json") });
  });

  it("pulls a notification's night date by date: only the dates of its window", async () => {
    const window = { start: new Date("2024-05-02T00:00:00Z"), end: new Date("2024-05-03T00:00:00Z") };
    const { context, stored } = pullHarness(polar, { window, dataType: "sleep" });
    await polar.pull(context);
    expect(calls.map((c) => c.path)).toEqual([
      "/v3/users/sleep/2024-05-01",
      "/v3/users/nightly-recharge/2024-05-01",
      "/v3/users/sleep/2024-05-02",
      "/v3/users/nightly-recharge/2024-05-02",
      "/v3/users/sleep/2024-05-03",
      "/v3/users/nightly-recharge/2024-05-03",
    ]);
    expect(stored).toEqual([
      { format: "polar-nights", payload: { date: "2024-05-02", sleep: own("sleep_2024-05-02.json"), nightly_recharge: own("nightly_recharge_2024-05-02.json") } },
    ]);
  });

  it("pulls an incremental exercise window: the list, kept to the window", async () => {
    const window = { start: new Date("2024-05-04T00:00:00Z"), end: new Date("2024-05-05T00:00:00Z") };
    const { context, stored } = pullHarness(polar, { window, dataType: "exercise" });
    await polar.pull(context);
    expect(calls.map((c) => `${c.path}${c.query}`)).toEqual(["/v3/exercises?route=true"]);
    expect((stored[0]?.payload as Array<{ id: string }>).map((e) => e.id)).toEqual(["Ab7Rt3", "Bad001"]);
  });

  it("maps refusals: 401 refuses the grant, 429 waits for Retry-After", async () => {
    const window = { start: new Date("2024-05-04T00:00:00Z"), end: new Date("2024-05-05T00:00:00Z") };
    server.use(http.get(`${API}/v3/exercises`, () => new HttpResponse(null, { status: 401 })));
    await expect(polar.pull(pullHarness(polar, { window, dataType: "exercise" }).context)).rejects.toMatchObject({ kind: "refused", status: 401 });
    server.use(http.get(`${API}/v3/exercises`, () => new HttpResponse(null, { status: 429, headers: { "retry-after": "900" } })));
    await expect(polar.pull(pullHarness(polar, { window, dataType: "exercise" }).context)).rejects.toMatchObject({
      kind: "rate_limited",
      retryAfterSeconds: 900,
    });
  });
});

describe("polar connector: webhooks", () => {
  const key = "abe1f3ae-fd33-11e8-8eb2-f2801f1b9fd1";
  const keySets: ProviderKeys[] = [{ CLIENT_ID: "other-tenant", CLIENT_SECRET: "s" }, { CLIENT_ID: "polar-client", CLIENT_SECRET: "s", WEBHOOK_SIGNATURE_KEY: key }];
  const request = (body: string, signature: string | undefined, event?: string): InboundRequest => ({
    method: "POST",
    headers: { "content-type": "application/json", "polar-webhook-signature": signature, "polar-webhook-event": event },
    query: {},
    rawBody: Buffer.from(body),
  });
  const sign = (body: string, with_ = key) => createHmac("sha256", with_).update(body).digest("hex");
  const handle = (r: InboundRequest) => polar.notifications!.handle(r, keySets);

  it("pulls the exercise list for a signed EXERCISE event of its user", () => {
    const body = fixtureText("webhook_exercise.json");
    const answer = handle(request(body, sign(body), "EXERCISE"));
    expect(answer.status).toBe(200);
    // List exercises covers 30 days: the window ends a day after the event (2024-05-02T18:22:24Z) and starts 30 days before it.
    expect(answer.pulls).toEqual([
      {
        providerUserId: "48201937",
        dataType: "exercise",
        window: { start: new Date("2024-04-02T18:22:24Z"), end: new Date("2024-05-03T18:22:24Z") },
      },
    ]);
    expect(answer.payloads).toBeUndefined();
  });

  it("pulls the named date of a SLEEP event (its UTC day)", () => {
    const body = fixtureText("webhook_sleep.json");
    expect(handle(request(body, sign(body).toUpperCase(), "SLEEP")).pulls).toEqual([
      { providerUserId: "48201937", dataType: "sleep", window: { start: new Date("2024-05-02T00:00:00Z"), end: new Date("2024-05-03T00:00:00Z") } },
    ]);
    const heartRate = JSON.stringify({ event: "CONTINUOUS_HEART_RATE", user_id: 48201937, date: "2024-05-02", timestamp: "2024-05-02T05:10:12Z" });
    expect(handle(request(heartRate, sign(heartRate))).pulls?.[0]?.dataType).toBe("continuous_heart_rate");
    const activity = JSON.stringify({ event: "ACTIVITY_SUMMARY", user_id: 48201937, date: "2024-05-02", timestamp: "2024-05-02T05:10:12Z" });
    expect(handle(request(activity, sign(activity))).pulls?.[0]?.dataType).toBe("activity");
  });

  it("refuses a bad, missing or unknown signature with 401 and no pulls", () => {
    const body = fixtureText("webhook_sleep.json");
    expect(handle(request(body, sign(body, "another-key")))).toEqual({ status: 401 });
    expect(handle(request(body, undefined))).toEqual({ status: 401 });
    expect(handle(request(`${body} `, sign(body)))).toEqual({ status: 401 });
    expect(polar.notifications!.handle(request(body, sign(body)), [{ CLIENT_ID: "polar-client", CLIENT_SECRET: "s" }])).toEqual({ status: 401 });
  });

  it("answers the PING of webhook creation with 200 (it comes before anyone has the key)", () => {
    expect(handle(request(fixtureText("webhook_ping.json"), undefined, "PING"))).toEqual({ status: 200 });
  });

  it("acknowledges signed events it does not pull for", () => {
    const body = JSON.stringify({ event: "PHYSICAL_INFORMATION", user_id: 48201937, timestamp: "2024-05-02T05:10:12Z" });
    expect(handle(request(body, sign(body)))).toEqual({ status: 200 });
  });
});

function expectStorable(samples: readonly QuantitySampleRecord[]): void {
  for (const s of samples) {
    const type = findQuantityType(s.type);
    expect(type, s.type).toBeDefined();
    const converted = toStorageUnit(type!, s.value, s.unit);
    expect("error" in converted ? converted.error : converted.unit, `${s.type} in ${s.unit}`).toBe(type!.unit);
  }
}

describe("polar connector: mapping", () => {
  const parse = (format: string, payload: unknown) => polar.parsers[format]!(payload);

  it("maps exercises: local start less its UTC offset, duration, sport, energy, heart rate, route", () => {
    const records = parse("polar-exercises", own("exercises.json"));
    expect(records.workouts).toHaveLength(3);
    const [run, ride, strength] = records.workouts;
    // 19:05:12 local at UTC+120 min = 17:05:12Z; PT52M41S = 3161 s, so it ends at 17:57:53Z.
    expect(run).toMatchObject({
      activity_type: "running",
      start_date: new Date("2024-05-02T17:05:12Z"),
      end_date: new Date("2024-05-02T17:57:53Z"),
      timezone: "+02:00",
      duration_seconds: 3161,
      distance_meters: 10240.5,
      total_energy_kcal: 615,
      average_heart_rate: 151,
      max_heart_rate: 178,
      external_id: "Xk2Pq9",
      device: "Polar Vantage V3",
      source: "polar",
      on_body: true,
    });
    expect(run?.metadata).toMatchObject({ polar_sport: "RUNNING", training_load: 134.7, running_index: 52, fat_percentage: 34, device_id: "B2C4E6F8" });
    // Route points at start + their time: +0 s and +30.5 s; the third (latitude 160.5) is passed on for the writer to leave out.
    expect(run?.route?.slice(0, 2)).toEqual([
      { timestamp: new Date("2024-05-02T17:05:12Z"), latitude: 60.1699, longitude: 24.9384 },
      { timestamp: new Date("2024-05-02T17:05:42.500Z"), latitude: 60.17012, longitude: 24.93911 },
    ]);
    // 07:30 local at UTC-240 min = 11:30Z; PT1H5M30S = 3930 s. INDOOR_CYCLING is cycling.
    expect(ride).toMatchObject({ activity_type: "cycling", start_date: new Date("2024-05-04T11:30:00Z"), duration_seconds: 3930, timezone: "-04:00", total_energy_kcal: 540 });
    expect(ride?.route).toBeUndefined();
    // sport OTHER, detailed STRENGTH_TRAINING: the detailed sport wins.
    expect(strength).toMatchObject({ activity_type: "strength_training", duration_seconds: 2700, distance_meters: null });
    expect(records.rejected).toEqual([
      { recordKind: "workout", locator: "[3]", reason: "polar exercise: id, start_time, start_time_utc_offset or duration is missing or invalid" },
    ]);
  });

  it("maps a night: session from sleep times, stages, hypnogram phases, Nightly Recharge HRV and breathing", () => {
    const records = parse("polar-nights", { date: "2024-05-02", sleep: own("sleep_2024-05-02.json"), nightly_recharge: own("nightly_recharge_2024-05-02.json") });
    expect(records.rejected).toEqual([]);
    const [session] = records.sleepSessions;
    // 23:12:30+02:00 = 21:12:30Z; 06:48:00+02:00 = 04:48:00Z.
    expect(session).toMatchObject({
      kind: "sleep",
      bedtime_start: new Date("2024-05-01T21:12:30Z"),
      bedtime_end: new Date("2024-05-02T04:48:00Z"),
      timezone: "+02:00",
      total_sleep_seconds: 24900, // light 12600 + deep 5400 + REM 6300 + unrecognised 600
      light_seconds: 12600,
      deep_seconds: 5400,
      rem_seconds: 6300,
      awake_seconds: 2430, // total_interruption_duration
      score: 78,
      average_hrv: 48, // Nightly Recharge RMSSD, ms
      respiratory_rate: 14.2,
      external_id: "sleep:2024-05-02",
      device: "B2C4E6F8",
    });
    expect(session?.metadata).toMatchObject({ date: "2024-05-02", sleep_cycles: 5, continuity: 3.4, nightly_recharge_ans_charge: 2.5, nightly_recharge_heart_rate_avg: 57 });
    // Hypnogram local times at +02:00, rolling over midnight; the first starts at the bedtime (23:12:00 is before 23:12:30).
    const z = (iso: string) => new Date(iso);
    expect(session?.phases).toEqual([
      { stage: "light", start_date: z("2024-05-01T21:12:30Z"), end_date: z("2024-05-01T21:40:00Z") },
      { stage: "deep", start_date: z("2024-05-01T21:40:00Z"), end_date: z("2024-05-01T22:35:00Z") },
      { stage: "light", start_date: z("2024-05-01T22:35:00Z"), end_date: z("2024-05-01T23:20:00Z") },
      { stage: "rem", start_date: z("2024-05-01T23:20:00Z"), end_date: z("2024-05-02T00:05:00Z") },
      { stage: "awake", start_date: z("2024-05-02T00:05:00Z"), end_date: z("2024-05-02T00:10:00Z") },
      { stage: "light", start_date: z("2024-05-02T00:10:00Z"), end_date: z("2024-05-02T02:30:00Z") },
      { stage: "rem", start_date: z("2024-05-02T02:30:00Z"), end_date: z("2024-05-02T03:40:00Z") },
      { stage: "asleep", start_date: z("2024-05-02T03:40:00Z"), end_date: z("2024-05-02T03:50:00Z") },
      { stage: "light", start_date: z("2024-05-02T03:50:00Z"), end_date: z("2024-05-02T04:40:00Z") },
      { stage: "awake", start_date: z("2024-05-02T04:40:00Z"), end_date: z("2024-05-02T04:48:00Z") },
    ]);
    expectStorable(records.quantitySamples);
    expect(records.quantitySamples.map((s) => [s.type, s.value, s.start_date.toISOString(), s.end_date?.toISOString()])).toEqual([
      ["sleep_score", 78, "2024-05-01T21:12:30.000Z", "2024-05-02T04:48:00.000Z"],
      // 5-minute heart rate averages at their local times (+02:00).
      ["heart_rate", 64, "2024-05-01T21:15:00.000Z", undefined],
      ["heart_rate", 61, "2024-05-01T21:20:00.000Z", undefined],
      ["heart_rate", 55, "2024-05-01T22:00:00.000Z", undefined],
      ["heart_rate", 52, "2024-05-02T01:00:00.000Z", undefined],
      ["heart_rate", 60, "2024-05-02T04:45:00.000Z", undefined],
      // Nightly Recharge: 4 hours from 30 minutes after falling asleep (21:42:30Z to 01:42:30Z).
      ["hrv_rmssd", 48, "2024-05-01T21:42:30.000Z", "2024-05-02T01:42:30.000Z"],
      ["respiratory_rate", 14.2, "2024-05-01T21:42:30.000Z", "2024-05-02T01:42:30.000Z"],
    ]);
  });

  it("rejects a Nightly Recharge without its night's sleep (its times are not known)", () => {
    const records = parse("polar-nights", { date: "2024-05-04", sleep: null, nightly_recharge: { date: "2024-05-04", heart_rate_variability_avg: 39 } });
    expect(records.quantitySamples).toEqual([]);
    expect(records.rejected).toEqual([{ recordKind: "quantity_sample", locator: "nightly_recharge", reason: "polar nightly recharge: the night's sleep times are not known" }]);
  });

  it("maps daily activity to daily summaries by the device's date", () => {
    const records = parse("polar-activities", own("activities.json"));
    expect(records.dailySummaries).toEqual([
      expect.objectContaining({
        date: "2024-05-01",
        steps: 11234,
        distance_meters: 8391.7,
        active_seconds: 9060, // PT2H31M
        active_energy_kcal: 846,
        total_energy_kcal: 2512,
        source: "polar",
        metadata: { daily_activity_percent: 104.2, inactivity_alert_count: 1, inactive_seconds: 40350 }, // PT11H12M30S
      }),
      expect.objectContaining({ date: "2024-05-02", steps: 9120, active_seconds: 6495 }), // PT1H48M15S
    ]);
    expect(records.rejected).toEqual([{ recordKind: "daily_summary", locator: "[2]", reason: "polar activity: its date (start_time) is missing or invalid" }]);
  });

  it("maps a day of continuous heart rate at its device times in the day's offset", () => {
    const records = parse("polar-continuous-heart-rate", { utc_offset_minutes: 120, continuous_heart_rate: own("continuous_heart_rate_2024-05-02.json") });
    expectStorable(records.quantitySamples);
    // 00:02:08 at +02:00 is 2024-05-01T22:02:08Z.
    expect(records.quantitySamples.map((s) => [s.value, s.start_date.toISOString(), s.timezone, s.external_id])).toEqual([
      [63, "2024-05-01T22:02:08.000Z", "+02:00", "chr:2024-05-02T00:02:08"],
      [62, "2024-05-01T22:07:08.000Z", "+02:00", "chr:2024-05-02T00:07:08"],
      [88, "2024-05-02T10:32:08.000Z", "+02:00", "chr:2024-05-02T12:32:08"],
    ]);
    expect(records.rejected).toEqual([{ recordKind: "quantity_sample", locator: "heart_rate_samples[2]", reason: "polar continuous heart rate: sample_time or heart_rate is invalid" }]);
    const unplaced = parse("polar-continuous-heart-rate", { utc_offset_minutes: null, continuous_heart_rate: own("continuous_heart_rate_2024-05-02.json") });
    expect(unplaced.quantitySamples).toEqual([]);
    expect(unplaced.rejected).toEqual([{ recordKind: "quantity_sample", locator: "heart_rate_samples", reason: "polar continuous heart rate: no UTC offset is known for the day" }]);
  });
});
