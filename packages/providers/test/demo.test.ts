import { readFileSync } from "node:fs";
import { ProviderError, type ParsedRecords, type ProviderTokens } from "@svc/core";
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { provider as demo, windowChunks } from "../src/demo/connector.ts";
import { DEMO_COLLECTIONS, DEMO_FORMATS, demoPage, type DemoActivityDay, type DemoSleepSession } from "../src/demo/index.ts";
import { clientHarness, pullHarness } from "./helpers/connector-harness.ts";

// The demo provider: the generator the instance serves (determinism, windows), the connector's
// pull against it (served here by msw at the harness's public URL), and the parsers' mapping
// of hand-written pages checked by hand.

const API = "http://svc.test/demo/api";
const USER = "demo-0123456789abcdef01234567";
const fixture = (name: string): unknown => JSON.parse(readFileSync(new URL(`./fixtures/demo/${name}.json`, import.meta.url), "utf8"));

interface Call {
  path: string;
  start: string | null;
  end: string | null;
  authorization: string | null;
}
let calls: Call[] = [];
/** The time the msw-served demo API takes as now. */
let apiNow = new Date("2025-03-12T10:30:00Z");

const server = setupServer(
  http.get(`${API}/v1/profile`, () => HttpResponse.json({ user_id: USER, timezone: "Europe/Berlin" })),
  http.get(`${API}/v1/:collection`, ({ request, params }) => {
    const url = new URL(request.url);
    calls.push({ path: url.pathname, start: url.searchParams.get("start"), end: url.searchParams.get("end"), authorization: request.headers.get("authorization") });
    const collection = String(params.collection) as (typeof DEMO_COLLECTIONS)[number];
    const window = { start: new Date(url.searchParams.get("start")!), end: new Date(url.searchParams.get("end")!) };
    return HttpResponse.json(demoPage(collection, USER, window, apiNow));
  }),
);

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => {
  server.resetHandlers();
  calls = [];
  apiNow = new Date("2025-03-12T10:30:00Z");
});
afterAll(() => server.close());

const tokens: ProviderTokens = { accessToken: "demo_at.x", refreshToken: "demo_rt.y", expiresAt: null, scopes: null, raw: {} };

function parse(format: string, payload: unknown): ParsedRecords {
  const parser = demo.parsers[format];
  if (!parser) throw new Error(`no parser for ${format}`);
  return parser(JSON.parse(JSON.stringify(payload)));
}

describe("demo connector: settings", () => {
  it("is built in: no keys, instance URLs, PKCE, rotating refresh tokens, a 30-day backfill", () => {
    expect(demo.builtIn).toBe(true);
    expect(demo.kind).toBe("oauth");
    expect(demo.keys).toEqual([]);
    expect(demo.applicationKeys).toEqual([]);
    expect(demo.urls).toMatchObject({
      authorize: "{public_url}/demo/oauth/authorize",
      token: "{public_url}/demo/oauth/token",
      api: "{public_url}/demo/api",
    });
    expect(demo.oauth).toMatchObject({ pkce: true, rotatesRefreshToken: true, scopes: ["activity", "heart", "sleep", "body", "workouts"] });
    expect(demo.backfillDays).toBe(30);
    expect(demo.notifications).toBeUndefined();
    expect(Object.keys(demo.parsers).sort()).toEqual(Object.values(DEMO_FORMATS).sort());
  });
});

describe("demo data: the generator the instance serves", () => {
  const window = { start: new Date("2025-02-01T00:00:00Z"), end: new Date("2025-03-01T00:00:00Z") };
  const now = new Date("2025-03-12T10:30:00Z");

  it("gives the same page for the same user and window, every time", () => {
    for (const collection of DEMO_COLLECTIONS) {
      expect(JSON.stringify(demoPage(collection, USER, window, now))).toBe(JSON.stringify(demoPage(collection, USER, window, now)));
    }
  });

  it("gives past days the same data whenever it is asked (now only cuts off what is not over)", () => {
    const later = new Date("2026-01-01T00:00:00Z");
    for (const collection of DEMO_COLLECTIONS) {
      expect(demoPage(collection, USER, window, later)).toEqual(demoPage(collection, USER, window, now));
    }
  });

  it("gives another user other data", () => {
    expect(demoPage("activity", "demo-someone-else", window, now)).not.toEqual(demoPage("activity", USER, window, now));
  });

  it("has a realistic month: daily steps, a night per day, a few workouts a week, weekly weigh-ins", () => {
    const activity = demoPage("activity", USER, window, now).data as DemoActivityDay[];
    const sleep = demoPage("sleep", USER, window, now).data as DemoSleepSession[];
    const workouts = demoPage("workouts", USER, window, now).data;
    const body = demoPage("body", USER, window, now).data;
    const heart = demoPage("heart", USER, window, now).data as Array<{ samples: unknown[] }>;
    // The person's zone is Europe/Berlin (UTC+1 in February): the window's local days are Feb 1 to Mar 1.
    expect(demoPage("activity", USER, window, now).timezone).toBe("Europe/Berlin");
    expect(activity.map((day) => day.day)).toEqual([...Array.from({ length: 28 }, (_, i) => `2025-02-${String(i + 1).padStart(2, "0")}`), "2025-03-01"]);
    for (const day of activity) {
      expect(day.steps).toBeGreaterThan(2000);
      expect(day.steps).toBeLessThan(30000);
      expect(day.steps).toBe(day.intervals.reduce((sum, interval) => sum + interval.steps, 0));
      expect(day.total_kcal).toBeGreaterThan(day.active_kcal);
    }
    expect(sleep).toHaveLength(29);
    for (const night of sleep) {
      const hours = (Date.parse(night.bedtime_end) - Date.parse(night.bedtime_start)) / 3_600_000;
      expect(hours).toBeGreaterThan(5.5);
      expect(hours).toBeLessThan(10);
      expect(night.phases[0]!.start).toBe(night.bedtime_start);
      expect(night.phases.at(-1)!.end).toBe(night.bedtime_end);
    }
    expect(workouts.length).toBeGreaterThanOrEqual(4);
    expect(workouts.length).toBeLessThanOrEqual(20);
    expect(body.length).toBeGreaterThanOrEqual(4);
    expect(body.length).toBeLessThanOrEqual(8);
    // Every 5 minutes from 07:00 to 22:55.
    for (const day of heart) expect(day.samples).toHaveLength(192);
  });

  it("leaves out what is not over yet: today's hours so far, no night still running, nothing in the future", () => {
    // 10:30 UTC is 11:30 in Berlin: the hours from 06:00 to 11:00 are over.
    const today = demoPage("activity", USER, { start: new Date("2025-03-12T00:00:00Z"), end: new Date("2025-03-14T00:00:00Z") }, now);
    expect(today.data).toHaveLength(1);
    const day = today.data[0] as DemoActivityDay;
    expect(day.day).toBe("2025-03-12");
    expect(day.intervals.map((interval) => interval.start.slice(11, 16))).toEqual(["06:00", "07:00", "08:00", "09:00", "10:00"]);
    const heart = demoPage("heart", USER, { start: new Date("2025-03-12T00:00:00Z"), end: new Date("2025-03-13T00:00:00Z") }, now).data as Array<{ samples: Array<{ time: string }> }>;
    expect(heart[0]!.samples.at(-1)!.time).toBe("2025-03-12T11:25:00+01:00");
    expect(demoPage("sleep", USER, { start: new Date("2025-03-13T00:00:00Z"), end: new Date("2025-03-14T00:00:00Z") }, now).data).toEqual([]);
  });

  it("parses a generated month with nothing rejected", () => {
    for (const collection of DEMO_COLLECTIONS) {
      const parsed = parse(DEMO_FORMATS[collection], demoPage(collection, USER, window, now));
      expect(parsed.rejected).toEqual([]);
    }
  });
});

describe("demo connector: identify and pull", () => {
  it("identifies the user by the profile call, with the bearer token", async () => {
    const client = clientHarness(demo, { accessToken: "demo_at.abc", keys: {} });
    expect(await demo.identify(client, tokens)).toEqual({ providerUserId: USER });
  });

  it("backfills 30 days in 7-day requests per collection and stores each non-empty page", async () => {
    const end = new Date("2025-03-12T10:30:00Z");
    const start = new Date(end.getTime() - 30 * 86_400_000);
    const { context, stored } = pullHarness(demo, { window: { start, end }, accessToken: "demo_at.abc", keys: {} });
    await demo.pull(context);

    const expectedChunks = [
      ["2025-02-10T10:30:00.000Z", "2025-02-17T10:30:00.000Z"],
      ["2025-02-17T10:30:00.000Z", "2025-02-24T10:30:00.000Z"],
      ["2025-02-24T10:30:00.000Z", "2025-03-03T10:30:00.000Z"],
      ["2025-03-03T10:30:00.000Z", "2025-03-10T10:30:00.000Z"],
      ["2025-03-10T10:30:00.000Z", "2025-03-12T10:30:00.000Z"],
    ];
    for (const collection of DEMO_COLLECTIONS) {
      const made = calls.filter((call) => call.path === `/demo/api/v1/${collection}`).map((call) => [call.start, call.end]);
      expect(made).toEqual(expectedChunks);
    }
    expect(calls.every((call) => call.authorization === "Bearer demo_at.abc")).toBe(true);
    // Activity, heart and sleep have data in every chunk; body and workouts in most.
    expect(stored.filter((s) => s.format === "demo-activity")).toHaveLength(5);
    expect(stored.filter((s) => s.format === "demo-sleep")).toHaveLength(5);
    for (const { format, payload } of stored) {
      expect((payload as { data: unknown[] }).data.length).toBeGreaterThan(0);
      expect(parse(format, payload).rejected).toEqual([]);
    }
  });

  it("pulls an incremental window with one request per collection, for that window only", async () => {
    const window = { start: new Date("2025-03-12T08:00:00Z"), end: new Date("2025-03-12T10:00:00Z") };
    const { context, stored } = pullHarness(demo, { window, accessToken: "demo_at.abc", keys: {} });
    await demo.pull(context);
    expect(calls.map((call) => [call.path, call.start, call.end])).toEqual(
      DEMO_COLLECTIONS.map((collection) => [`/demo/api/v1/${collection}`, "2025-03-12T08:00:00.000Z", "2025-03-12T10:00:00.000Z"]),
    );
    // The local day of the window (Mar 12 in Berlin): its hours so far, its heart rate, last night's sleep.
    expect(stored.map((s) => s.format).sort()).toEqual(expect.arrayContaining(["demo-activity", "demo-heart", "demo-sleep"]));
  });

  it("pulls only the collections the grant's scopes name", async () => {
    const window = { start: new Date("2025-03-11T00:00:00Z"), end: new Date("2025-03-12T00:00:00Z") };
    const { context } = pullHarness(demo, { window, accessToken: "demo_at.abc", keys: {}, scopes: ["sleep", "body"] });
    await demo.pull(context);
    expect(calls.map((call) => call.path)).toEqual(["/demo/api/v1/sleep", "/demo/api/v1/body"]);
  });

  it("a refused grant (401) is a ProviderError refused", async () => {
    server.use(http.get(`${API}/v1/:collection`, () => new HttpResponse(null, { status: 401 })));
    const { context } = pullHarness(demo, { window: { start: new Date("2025-03-11T00:00:00Z"), end: new Date("2025-03-12T00:00:00Z") }, keys: {} });
    await expect(demo.pull(context)).rejects.toMatchObject({ name: "ProviderError", kind: "refused", status: 401 });
  });

  it("a 429 with Retry-After is a ProviderError rate_limited with the seconds to wait", async () => {
    server.use(http.get(`${API}/v1/:collection`, () => new HttpResponse(null, { status: 429, headers: { "Retry-After": "42" } })));
    const { context } = pullHarness(demo, { window: { start: new Date("2025-03-11T00:00:00Z"), end: new Date("2025-03-12T00:00:00Z") }, keys: {} });
    const error = await demo.pull(context).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ kind: "rate_limited", retryAfterSeconds: 42 });
  });

  it("revokes the grant with the refresh token at the revoke URL (no bearer)", async () => {
    let body = "";
    let authorization: string | null = "unset";
    server.use(
      http.post("http://svc.test/demo/oauth/revoke", async ({ request }) => {
        body = await request.text();
        authorization = request.headers.get("authorization");
        return new HttpResponse(null, { status: 200 });
      }),
    );
    await demo.revoke!(clientHarness(demo, { keys: {} }), tokens);
    expect(Object.fromEntries(new URLSearchParams(body))).toEqual({ token: "demo_rt.y", client_id: "demo" });
    expect(authorization).toBeNull();
  });

  it("splits windows into pieces of at most 7 days", () => {
    const start = new Date("2025-01-01T00:00:00Z");
    expect(windowChunks({ start, end: new Date("2025-01-15T00:00:00Z") })).toHaveLength(2);
    expect(windowChunks({ start, end: new Date("2025-01-15T00:00:01Z") })).toHaveLength(3);
    expect(windowChunks({ start, end: start })).toEqual([]);
  });
});

describe("demo parsers: fixtures checked by hand (units are already the catalog's: nothing converted)", () => {
  const provenance = { source: "demo", device: "Demo Watch", on_body: true, timezone: "Europe/Berlin" };

  it("activity: a daily summary per day and hourly steps, distance and active energy", () => {
    const parsed = parse("demo-activity", fixture("activity"));
    expect(parsed.rejected).toEqual([]);
    expect(parsed.dailySummaries).toEqual([
      expect.objectContaining({
        date: "2025-03-10",
        timezone: "Europe/Berlin",
        steps: 1020,
        distance_meters: 735,
        active_energy_kcal: 52.4,
        total_energy_kcal: 1912.4,
        // 9 active minutes * 60
        active_seconds: 540,
        resting_heart_rate: 58,
        source: "demo",
      }),
    ]);
    const byType = (type: string) => parsed.quantitySamples.filter((s) => s.type === type).map((s) => [s.value, s.unit, s.start_date.toISOString(), s.end_date?.toISOString(), s.external_id]);
    // 07:00+01:00 is 06:00Z.
    expect(byType("step_count")).toEqual([
      [412, "count", "2025-03-10T06:00:00.000Z", "2025-03-10T07:00:00.000Z", "activity-2025-03-10-07"],
      [608, "count", "2025-03-10T07:00:00.000Z", "2025-03-10T08:00:00.000Z", "activity-2025-03-10-08"],
    ]);
    expect(byType("distance_walking_running").map((s) => [s[0], s[1]])).toEqual([[297, "m"], [438, "m"]]);
    expect(byType("active_energy_burned").map((s) => [s[0], s[1]])).toEqual([[21.3, "kcal"], [31.1, "kcal"]]);
    expect(parsed.quantitySamples[0]).toMatchObject(provenance);
  });

  it("heart: resting rate and 5-minute samples as instants", () => {
    const parsed = parse("demo-heart", fixture("heart"));
    expect(parsed.rejected).toEqual([]);
    expect(parsed.quantitySamples.map((s) => [s.type, s.value, s.unit, s.start_date.toISOString(), s.end_date?.toISOString()])).toEqual([
      ["resting_heart_rate", 58, "count/min", "2025-03-10T03:00:00.000Z", "2025-03-10T03:00:00.000Z"],
      ["heart_rate", 71, "count/min", "2025-03-10T06:00:00.000Z", "2025-03-10T06:00:00.000Z"],
      ["heart_rate", 74, "count/min", "2025-03-10T06:05:00.000Z", "2025-03-10T06:05:00.000Z"],
      ["heart_rate", 69, "count/min", "2025-03-10T06:10:00.000Z", "2025-03-10T06:10:00.000Z"],
    ]);
    expect(new Set(parsed.quantitySamples.map((s) => s.external_id)).size).toBe(4);
    expect(parsed.quantitySamples[1]).toMatchObject(provenance);
  });

  it("sleep: the night with its phases, and overnight HRV, breathing rate and SpO2", () => {
    const parsed = parse("demo-sleep", fixture("sleep"));
    expect(parsed.rejected).toEqual([]);
    expect(parsed.sleepSessions).toHaveLength(1);
    const night = parsed.sleepSessions[0]!;
    expect(night).toMatchObject({
      kind: "sleep",
      external_id: "sleep-2025-03-10",
      timezone: "Europe/Berlin",
      score: 78,
      efficiency: 0.93,
      average_heart_rate: 61,
      lowest_heart_rate: 55,
      average_hrv: 48,
      respiratory_rate: 14.2,
      // Awake from 23:10 to 23:22: 12 minutes to fall asleep.
      latency_seconds: 720,
    });
    expect(night.bedtime_start.toISOString()).toBe("2025-03-09T22:10:00.000Z");
    expect(night.bedtime_end.toISOString()).toBe("2025-03-10T05:40:00.000Z");
    expect(night.phases!.map((p) => [p.stage, (p.end_date.getTime() - p.start_date.getTime()) / 60_000])).toEqual([
      ["awake", 12],
      ["light", 108],
      ["deep", 90],
      ["rem", 220],
      ["awake", 20],
    ]);
    expect(parsed.quantitySamples.map((s) => [s.type, s.value, s.unit])).toEqual([
      ["hrv_rmssd", 48, "ms"],
      ["respiratory_rate", 14.2, "count/min"],
      ["oxygen_saturation", 96.5, "%"],
    ]);
    expect(parsed.quantitySamples.every((s) => s.start_date.getTime() === night.bedtime_start.getTime() && s.end_date!.getTime() === night.bedtime_end.getTime())).toBe(true);
  });

  it("body: weight in kg and body fat in % from the scale", () => {
    const parsed = parse("demo-body", fixture("body"));
    expect(parsed.quantitySamples.map((s) => [s.type, s.value, s.unit, s.start_date.toISOString(), s.device, s.on_body])).toEqual([
      ["body_mass", 72.4, "kg", "2025-03-10T06:12:00.000Z", "Demo Scale", false],
      ["body_fat_percentage", 19.8, "%", "2025-03-10T06:12:00.000Z", "Demo Scale", false],
    ]);
  });

  it("workouts: type, times, distance, energy, heart rate; missing figures stay null", () => {
    const parsed = parse("demo-workouts", fixture("workouts"));
    expect(parsed.rejected).toEqual([]);
    expect(parsed.workouts).toEqual([
      expect.objectContaining({
        activity_type: "running",
        name: "Evening run",
        start_date: new Date("2025-03-10T17:05:00Z"),
        end_date: new Date("2025-03-10T17:47:00Z"),
        distance_meters: 7560,
        active_energy_kcal: 462.5,
        average_heart_rate: 152,
        max_heart_rate: 171,
        steps: 6930,
        elevation_gain_meters: 48,
        external_id: "workout-2025-03-10-1",
        timezone: "Europe/Berlin",
      }),
      expect.objectContaining({ activity_type: "yoga", distance_meters: null, steps: null, elevation_gain_meters: null, active_energy_kcal: 120 }),
    ]);
  });

  it("rejects an unreadable item by name of the field, keeps the others, and never quotes a value", () => {
    const page = fixture("body") as { data: unknown[] };
    page.data.push({ id: "body-x", day: "2025-03-11", time: "yesterday", weight_kg: 70, body_fat_percent: 20 });
    page.data.push({ id: "body-y", day: "2025-03-12", time: "2025-03-12T07:00:00+01:00", weight_kg: -3, body_fat_percent: 20 });
    const parsed = parse("demo-body", page);
    expect(parsed.quantitySamples).toHaveLength(2);
    expect(parsed.rejected).toEqual([
      { recordKind: "demo_body", locator: "data[1]", reason: "demo_body: time is not an RFC 3339 time with an offset" },
      { recordKind: "demo_body", locator: "data[2]", reason: "demo_body: weight_kg is missing or not a number of at least 0" },
    ]);
  });

  it("refuses a payload that is not a demo page", () => {
    expect(() => parse("demo-heart", { items: [] })).toThrow(/timezone and data/);
  });
});
