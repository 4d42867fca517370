import { createHmac } from "node:crypto";
import { ProviderError, QUANTITY_TYPES, toStorageUnit, type InboundRequest, type ParsedRecords, type ProviderTokens } from "@svc/core";
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { provider as whoop } from "../src/whoop/connector.ts";
import { clientHarness, pullHarness } from "./helpers/connector-harness.ts";
import { fakeWhoopApi, WHOOP_USER_ID, whoopFixture } from "./helpers/whoop-api.ts";

const API = "https://api.prod.whoop.com/developer";
const api = fakeWhoopApi();
const server = setupServer(...api.handlers);

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => {
  server.resetHandlers();
  api.requests.length = 0;
});
afterAll(() => server.close());

const tokens: ProviderTokens = { accessToken: "test-access-token", refreshToken: "r", expiresAt: null, scopes: null, raw: {} };
const parse = (format: string, payload: unknown): ParsedRecords => {
  const parser = whoop.parsers[format];
  if (!parser) throw new Error(`no parser for ${format}`);
  return parser(payload);
};
const queriesOf = (path: string) => api.requests.filter((url) => url.pathname === `/developer${path}`).map((url) => Object.fromEntries(url.searchParams));

describe("whoop connector settings", () => {
  it("names its keys, URLs and OAuth rules as WHOOP documents them", () => {
    expect(whoop.kind).toBe("push");
    expect(whoop.keys.map((key) => key.env)).toEqual(["SVC_WHOOP_CLIENT_ID", "SVC_WHOOP_CLIENT_SECRET"]);
    expect(whoop.urls).toMatchObject({
      authorize: "https://api.prod.whoop.com/oauth/oauth2/auth",
      token: "https://api.prod.whoop.com/oauth/oauth2/token",
      api: "https://api.prod.whoop.com/developer",
    });
    // `offline` brings the refresh token, which rotates on every refresh.
    expect(whoop.oauth.scopes).toContain("offline");
    expect(whoop.oauth).toMatchObject({ clientAuth: "client_secret_post", rotatesRefreshToken: true });
    expect(whoop.oauth.unwrapTokenResponse).toBeUndefined();
    expect(whoop.rateLimits).toEqual({ app: { requests: 100, windowSeconds: 60 } });
  });
});

describe("whoop identify", () => {
  it("answers the user_id of the basic profile, as text", async () => {
    expect(await whoop.identify(clientHarness(whoop), tokens)).toEqual({ providerUserId: WHOOP_USER_ID });
  });
});

describe("whoop pull", () => {
  it("backfills a long window, 25 a page, following nextToken", async () => {
    const window = { start: new Date("2023-10-28T00:00:00Z"), end: new Date("2024-04-26T00:00:00Z") };
    const { context, stored } = pullHarness(whoop, { window });
    await whoop.pull(context);
    const range = { limit: "25", start: "2023-10-28T00:00:00.000Z", end: "2024-04-26T00:00:00.000Z" };
    // The fake answers 2 records a page: 4 cycles, 3 recoveries, 4 sleeps, 3 workouts -> 2 pages each.
    for (const path of ["/v2/cycle", "/v2/recovery", "/v2/activity/sleep", "/v2/activity/workout"]) {
      expect(queriesOf(path)).toEqual([range, { ...range, nextToken: "page-2" }]);
    }
    expect(stored.map((item) => item.format)).toEqual([
      "whoop-cycle",
      "whoop-cycle",
      "whoop-recovery",
      "whoop-recovery",
      "whoop-sleep",
      "whoop-sleep",
      "whoop-workout",
      "whoop-workout",
    ]);
    const records = (format: string) => stored.filter((item) => item.format === format).flatMap((item) => (item.payload as { records: unknown[] }).records);
    expect(records("whoop-sleep")).toEqual((whoopFixture("sleep.json") as { records: unknown[] }).records);
  });

  it("asks an incremental pull for its window only", async () => {
    const window = { start: new Date("2024-04-24T00:00:00Z"), end: new Date("2024-04-25T00:00:00Z") };
    const { context, stored } = pullHarness(whoop, { window });
    await whoop.pull(context);
    const range = { limit: "25", start: "2024-04-24T00:00:00.000Z", end: "2024-04-25T00:00:00.000Z" };
    expect(api.requests.map((url) => [url.pathname, Object.fromEntries(url.searchParams)])).toEqual([
      ["/developer/v2/cycle", range],
      ["/developer/v2/recovery", range],
      ["/developer/v2/activity/sleep", range],
      ["/developer/v2/activity/workout", range],
    ]);
    // The window holds 2 cycles, 1 recovery, 2 sleeps and 1 workout.
    expect(stored.map((item) => (item.payload as { records: unknown[] }).records.length)).toEqual([2, 1, 2, 1]);
  });

  it("pulls what a notification's type changes, within the grant's scopes", async () => {
    const window = { start: new Date("2024-04-24T00:00:00Z"), end: new Date("2024-04-25T00:00:00Z") };
    await whoop.pull(pullHarness(whoop, { window, dataType: "workout" }).context);
    expect(api.requests.map((url) => url.pathname)).toEqual(["/developer/v2/cycle", "/developer/v2/activity/workout"]);

    api.requests.length = 0;
    await whoop.pull(pullHarness(whoop, { window, dataType: "recovery", scopes: ["offline", "read:recovery"] }).context);
    expect(api.requests.map((url) => url.pathname)).toEqual(["/developer/v2/recovery"]);
  });

  it("turns a refused grant (401) into ProviderError refused", async () => {
    const window = { start: new Date("2024-04-24T00:00:00Z"), end: new Date("2024-04-25T00:00:00Z") };
    const { context } = pullHarness(whoop, { window, accessToken: "revoked" });
    await expect(whoop.pull(context)).rejects.toMatchObject({ name: "ProviderError", kind: "refused", status: 401 });
  });

  it("turns a 429 with Retry-After into ProviderError rate_limited", async () => {
    server.use(
      http.get(`${API}/v2/cycle`, () =>
        new HttpResponse(null, { status: 429, headers: { "Retry-After": "37", "X-RateLimit-Limit": "100, 100;window=60, 10000;window=86400", "X-RateLimit-Remaining": "0" } }),
      ),
    );
    const { context } = pullHarness(whoop, { window: { start: new Date("2024-04-24T00:00:00Z"), end: new Date("2024-04-25T00:00:00Z") } });
    const error = await whoop.pull(context).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ kind: "rate_limited", retryAfterSeconds: 37 });
  });
});

describe("whoop notifications", () => {
  const keys = { CLIENT_ID: "whoop-client", CLIENT_SECRET: "whoop-secret" };
  const tenantKeys = { CLIENT_ID: "tenant-client", CLIENT_SECRET: "tenant-secret" };
  const signed = (body: string, secret: string, timestamp = "1714042935000"): InboundRequest => ({
    method: "POST",
    headers: { "x-whoop-signature": createHmac("sha256", secret).update(timestamp + body).digest("base64"), "x-whoop-signature-timestamp": timestamp },
    query: {},
    rawBody: Buffer.from(body),
  });
  const event = (type: string, id = "ecfc6a15-4661-442f-a9a4-f160dd7afae8") => JSON.stringify({ user_id: 10129, id, type, trace_id: "e369c784-5100-49e8-8098-75d35c47b31b" });
  const handle = whoop.notifications!.handle;

  it("pulls the event's type for its user when a key set's secret signed it", () => {
    expect(handle(signed(event("workout.updated"), "tenant-secret"), [keys, tenantKeys])).toEqual({
      status: 200,
      pulls: [{ providerUserId: WHOOP_USER_ID, dataType: "workout" }],
    });
    expect(handle(signed(event("recovery.updated", "b4f1c9e2-7d3a-4e8b-9f10-2a3b4c5d6e71"), "whoop-secret"), [keys]).pulls).toEqual([
      { providerUserId: WHOOP_USER_ID, dataType: "recovery" },
    ]);
  });

  it("refuses a bad or missing signature with 401 and no pulls", () => {
    const request = signed(event("sleep.updated"), "whoop-secret");
    expect(handle(request, [tenantKeys])).toMatchObject({ status: 401 });
    expect(handle({ ...request, headers: { ...request.headers, "x-whoop-signature-timestamp": "1714042999000" } }, [keys]).pulls).toBeUndefined();
    expect(handle({ ...request, headers: {} }, [keys])).toMatchObject({ status: 401 });
    expect(handle({ ...request, method: "GET" }, [keys])).toMatchObject({ status: 405 });
  });

  it("hands deletions on as deletions of the records made from that id", () => {
    const sleepDeleted = handle(signed(event("sleep.deleted", "a3e0b8d1-6c29-4d7a-8e0f-192a3b4c5d60"), "whoop-secret"), [keys]);
    expect(sleepDeleted.payloads).toEqual([
      { providerUserId: WHOOP_USER_ID, format: "whoop-deletion", payload: { type: "sleep.deleted", id: "a3e0b8d1-6c29-4d7a-8e0f-192a3b4c5d60" } },
    ]);
    expect(parse("whoop-deletion", sleepDeleted.payloads![0]!.payload).deletedExternalIds).toEqual(["a3e0b8d1-6c29-4d7a-8e0f-192a3b4c5d60"]);
    // A recovery event names the recovery's sleep; the recovery's records are kept apart from the sleep's.
    const recoveryDeleted = handle(signed(event("recovery.deleted", "a3e0b8d1-6c29-4d7a-8e0f-192a3b4c5d60"), "whoop-secret"), [keys]);
    expect(parse("whoop-deletion", recoveryDeleted.payloads![0]!.payload).deletedExternalIds).toEqual(["recovery-a3e0b8d1-6c29-4d7a-8e0f-192a3b4c5d60"]);
    expect(handle(signed(event("cycle.updated"), "whoop-secret"), [keys])).toEqual({ status: 200 });
  });
});

describe("whoop revoke", () => {
  it("deletes the user's access (best effort)", async () => {
    await whoop.revoke!(clientHarness(whoop), tokens);
    expect(api.requests.map((url) => url.pathname)).toEqual(["/developer/v2/user/access"]);
  });
});

describe("whoop mapping", () => {
  it("maps scored cycles to day strain and energy over the cycle", () => {
    const records = parse("whoop-cycle", whoopFixture("cycle.json"));
    expect(records.rejected).toEqual([]);
    // The UNSCORABLE cycle has no figures; the cycle in progress runs to its last update.
    expect(records.quantitySamples.map((s) => [s.type, s.value, s.unit, s.start_date.toISOString(), s.end_date!.toISOString(), s.external_id])).toEqual([
      ["strain", 4.8123, "score", "2024-04-25T10:31:12.410Z", "2024-04-25T16:02:40.000Z", "93848"],
      ["total_energy_burned", 3120.5, "kJ", "2024-04-25T10:31:12.410Z", "2024-04-25T16:02:40.000Z", "93848"],
      ["strain", 12.4317, "score", "2024-04-24T10:58:02.115Z", "2024-04-25T10:31:12.410Z", "93847"],
      ["total_energy_burned", 9874.2, "kJ", "2024-04-24T10:58:02.115Z", "2024-04-25T10:31:12.410Z", "93847"],
      ["strain", 8.2951, "score", "2024-04-23T11:05:44.300Z", "2024-04-24T10:58:02.115Z", "93846"],
      ["total_energy_burned", 8288.297, "kJ", "2024-04-23T11:05:44.300Z", "2024-04-24T10:58:02.115Z", "93846"],
    ]);
    expect(records.quantitySamples[0]).toMatchObject({ timezone: "-05:00", metadata: { in_progress: true, average_heart_rate: 64, max_heart_rate: 121 } });
    // Stored in kcal: 8288.297 kJ / 4.184 kJ/kcal = 1980.95 kcal.
    const energy = QUANTITY_TYPES.find((type) => type.name === "total_energy_burned")!;
    expect(toStorageUnit(energy, 8288.297, "kJ")).toMatchObject({ unit: "kcal" });
    expect((toStorageUnit(energy, 8288.297, "kJ") as { value: number }).value).toBeCloseTo(1980.9505, 3);
  });

  it("maps scored recoveries to the morning's figures, at the time WHOOP recorded them", () => {
    const samples = parse("whoop-recovery", whoopFixture("recovery.json")).quantitySamples;
    expect(samples.map((s) => [s.type, s.value, s.unit, s.start_date.toISOString(), s.external_id])).toEqual([
      ["recovery_score", 66, "score", "2024-04-25T11:02:15.532Z", "recovery-b4f1c9e2-7d3a-4e8b-9f10-2a3b4c5d6e71"],
      ["resting_heart_rate", 52, "count/min", "2024-04-25T11:02:15.532Z", "recovery-b4f1c9e2-7d3a-4e8b-9f10-2a3b4c5d6e71"],
      ["hrv_rmssd", 61.284, "ms", "2024-04-25T11:02:15.532Z", "recovery-b4f1c9e2-7d3a-4e8b-9f10-2a3b4c5d6e71"],
      ["oxygen_saturation", 96.4375, "%", "2024-04-25T11:02:15.532Z", "recovery-b4f1c9e2-7d3a-4e8b-9f10-2a3b4c5d6e71"],
      ["sleeping_wrist_temperature", 33.6, "degC", "2024-04-25T11:02:15.532Z", "recovery-b4f1c9e2-7d3a-4e8b-9f10-2a3b4c5d6e71"],
      // WHOOP 3.0: no SpO2 or skin temperature. The PENDING_SCORE recovery gives nothing.
      ["recovery_score", 41, "score", "2024-04-24T11:30:02.100Z", "recovery-a3e0b8d1-6c29-4d7a-8e0f-192a3b4c5d60"],
      ["resting_heart_rate", 58, "count/min", "2024-04-24T11:30:02.100Z", "recovery-a3e0b8d1-6c29-4d7a-8e0f-192a3b4c5d60"],
      ["hrv_rmssd", 38.917, "ms", "2024-04-24T11:30:02.100Z", "recovery-a3e0b8d1-6c29-4d7a-8e0f-192a3b4c5d60"],
    ]);
    expect(samples[0]!.metadata).toEqual({ cycle_id: "93848", user_calibrating: false });
  });

  it("maps sleeps and naps to sessions, milliseconds to seconds", () => {
    const records = parse("whoop-sleep", whoopFixture("sleep.json"));
    expect(records.rejected).toEqual([]);
    const [night, nap, previousNight, pending] = records.sleepSessions;
    // Asleep = light + slow wave + REM = 11,520,000 + 5,760,000 + 7,190,000 ms = 24,470 s.
    expect(night).toMatchObject({
      kind: "sleep",
      bedtime_start: new Date("2024-04-25T03:04:50.000Z"),
      bedtime_end: new Date("2024-04-25T10:31:12.410Z"),
      timezone: "-05:00",
      total_sleep_seconds: 24470,
      awake_seconds: 2312.41,
      light_seconds: 11520,
      deep_seconds: 5760,
      rem_seconds: 7190,
      score: 91,
      respiratory_rate: 15.8203125,
      external_id: "b4f1c9e2-7d3a-4e8b-9f10-2a3b4c5d6e71",
      metadata: { cycle_id: "93848", in_bed_seconds: 26782.41, sleep_cycle_count: 5, disturbance_count: 9, sleep_consistency_percentage: 78 },
    });
    // 91.3661 % as a fraction.
    expect(night!.efficiency).toBeCloseTo(0.913661, 9);
    expect(night!.phases).toBeUndefined();
    // Nap: 1,440,000 + 360,000 + 0 ms = 1,800 s asleep; no performance for naps.
    expect(nap).toMatchObject({ kind: "nap", total_sleep_seconds: 1800, awake_seconds: 150, score: null });
    expect(nap!.efficiency).toBeCloseTo(0.923077, 9);
    expect(previousNight).toMatchObject({ total_sleep_seconds: 26400, awake_seconds: 3415.115, score: 84 });
    // A sleep WHOOP has not scored yet keeps its times only.
    expect(pending).toMatchObject({ kind: "sleep", total_sleep_seconds: null, score: null, metadata: { score_state: "PENDING_SCORE" } });
    // Nights (not naps) give the sleep score and breathing rate at their end.
    expect(records.quantitySamples.map((s) => [s.type, s.value, s.start_date.toISOString()])).toEqual([
      ["sleep_score", 91, "2024-04-25T10:31:12.410Z"],
      ["respiratory_rate", 15.8203125, "2024-04-25T10:31:12.410Z"],
      ["sleep_score", 84, "2024-04-24T10:58:02.115Z"],
      ["respiratory_rate", 16.11328125, "2024-04-24T10:58:02.115Z"],
    ]);
  });

  it("maps workouts, kilojoules to kilocalories", () => {
    const workouts = parse("whoop-workout", whoopFixture("workout.json")).workouts;
    expect(workouts).toHaveLength(3);
    // 2736.336 kJ / 4.184 = 654 kcal.
    expect(workouts[0]).toMatchObject({
      activity_type: "running",
      start_date: new Date("2024-04-24T22:10:05.000Z"),
      end_date: new Date("2024-04-24T23:02:41.000Z"),
      timezone: "-05:00",
      distance_meters: 8046.72,
      average_heart_rate: 148,
      max_heart_rate: 176,
      elevation_gain_meters: 46.64384460449,
      external_id: "ecfc6a15-4661-442f-a9a4-f160dd7afae8",
      metadata: { strain: 11.2463, percent_recorded: 100 },
    });
    expect(workouts[0]!.total_energy_kcal).toBeCloseTo(654, 9);
    // 1569.34033203125 kJ / 4.184 = 375.0813 kcal.
    expect(workouts[1]).toMatchObject({ activity_type: "weightlifting", distance_meters: null, average_heart_rate: 112 });
    expect(workouts[1]!.total_energy_kcal).toBeCloseTo(375.0813, 4);
    // WHOOP's generic "activity", not scored yet.
    expect(workouts[2]).toMatchObject({ activity_type: "other", total_energy_kcal: null, average_heart_rate: null, metadata: { score_state: "PENDING_SCORE" } });
  });

  it("gives every sample a catalog type and a unit it converts from", () => {
    for (const name of ["cycle", "recovery", "sleep"]) {
      for (const sample of parse(`whoop-${name}`, whoopFixture(`${name}.json`)).quantitySamples) {
        const type = QUANTITY_TYPES.find((candidate) => candidate.name === sample.type);
        expect(type, sample.type).toBeDefined();
        expect(toStorageUnit(type!, sample.value, sample.unit)).not.toHaveProperty("error");
      }
    }
  });

  it("rejects records it cannot read and refuses a payload that is not a page", () => {
    const records = parse("whoop-workout", { records: [{ id: "w1", start: "2024-04-24T22:10:05Z", end: "yesterday" }, 7] });
    expect(records.rejected).toEqual([
      { recordKind: "workout", locator: "records[0]", reason: "start or end is not a date-time" },
      { recordKind: "workout", locator: "records[1]", reason: "the record is not an object" },
    ]);
    expect(() => parse("whoop-sleep", { data: [] })).toThrow(/records array/);
  });
});
