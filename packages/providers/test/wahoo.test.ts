import { readFileSync } from "node:fs";
import { join } from "node:path";
import { exchangeCode, findQuantityType, ProviderError, refreshTokens, toStorageUnit, type InboundRequest, type ParsedRecords, type ProviderKeys } from "@svc/core";
import { fixturesDir } from "@svc/testing";
import { http, HttpResponse, type JsonBodyType } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { provider as wahoo } from "../src/wahoo/connector.ts";
import { clientHarness, pullHarness } from "./helpers/connector-harness.ts";

// Fixtures built from the Wahoo Cloud API documentation (fixtures/wahoo/README.md); the FIT
// file served as the ride's file is a public one (see /work/shared/fixtures/SOURCES.md).
const fixture = (name: string): JsonBodyType => JSON.parse(readFileSync(new URL(`./fixtures/wahoo/${name}`, import.meta.url), "utf8"));
const FIT = readFileSync(join(fixturesDir(), "fitparse_garmin-edge-820-bike.fit"));
const FIT_URL = "https://cdn.wahooligan.com/wahoo-cloud/production/uploads/workout_file/file/Xq4Zb2/2017-06-12-161015-ELEMNT_1A2B-117-0.fit";

const API = "https://api.wahooligan.com";
const KEYS: ProviderKeys = { CLIENT_ID: "wahoo-client-id", CLIENT_SECRET: "wahoo-test-secret", WEBHOOK_TOKEN: "wahoo-webhook-token-6d2f" };

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

/** List workouts by page (fixtures 1 and 2, then empty), and the ride's FIT file. */
function wahooApi(pages: Record<string, unknown> = { "1": fixture("workouts-page-1.json"), "2": fixture("workouts-page-2.json") }) {
  return [
    http.get(`${API}/v1/workouts`, ({ request }) => {
      const page = new URL(request.url).searchParams.get("page") ?? "";
      return HttpResponse.json((pages[page] ?? { workouts: [], total: 4, page: Number(page), per_page: 30, order: "descending", sort: "starts" }) as JsonBodyType);
    }),
    http.get(FIT_URL, () => new HttpResponse(FIT, { headers: { "content-type": "application/octet-stream" } })),
  ];
}

const describeRequest = ({ url }: { url: URL }) => `${url.host}${url.pathname} ${url.search}`;
const list = (page: number) => `api.wahooligan.com/v1/workouts ?page=${page}&per_page=30`;
const fitFile = `cdn.wahooligan.com${new URL(FIT_URL).pathname} `;
const JUNE = { start: new Date("2017-05-20T00:00:00Z"), end: new Date("2017-06-20T00:00:00Z") };

/** A refusal without a body (under msw a cancelled body's promise never settles; status and headers are what count). */
const refusal = (status: number, headers: Record<string, string> = {}) => new HttpResponse(null, { status, headers });

describe("wahoo pull", () => {
  it("backfill: reads the list to its total, stores each finished workout of the window with its FIT file", async () => {
    server.use(...wahooApi());
    const harness = pullHarness(wahoo, { window: JUNE, keys: KEYS });
    await wahoo.pull(harness.context);

    // Page 1 holds 3 of the 4 workouts (per_page 30 reaches the total): no second page.
    expect(requests.map(describeRequest)).toEqual([list(1), fitFile]);
    expect(harness.stored.map((s) => s.format)).toEqual(["wahoo-workout", "wahoo-workout"]);
    const [ride, trainer] = harness.stored.map((s) => s.payload as { workout: { id: number }; workout_summary: { id: number }; fit_file: string | null });
    expect(ride?.workout.id).toBe(2214301);
    expect(ride?.workout_summary.id).toBe(1984773);
    expect(Buffer.from(ride?.fit_file ?? "", "base64").equals(FIT)).toBe(true);
    // The indoor ride's summary names no file; the planned workout has no summary: not stored.
    expect(trainer).toMatchObject({ workout: { id: 2214287 }, fit_file: null });
  });

  it("sends the user's token to the API and none to the file host", async () => {
    server.use(...wahooApi());
    await wahoo.pull(pullHarness(wahoo, { window: JUNE, keys: KEYS, accessToken: "wahoo-user-token" }).context);
    expect(requests[0]?.authorization).toBe("Bearer wahoo-user-token");
    expect(requests[1]?.authorization).toBeNull();
  });

  it("stops at the first page that reaches before the window when the list says it is newest first", async () => {
    const page1 = { ...(fixture("workouts-page-1.json") as object), total: 400 };
    server.use(...wahooApi({ "1": page1 }));
    const harness = pullHarness(wahoo, { window: { start: new Date("2017-06-11T00:00:00Z"), end: new Date("2017-06-20T00:00:00Z") }, keys: KEYS });
    await wahoo.pull(harness.context);
    expect(requests.map(describeRequest)).toEqual([list(1), fitFile]);
    expect(harness.stored).toHaveLength(1);
  });

  it("reads every page, until an empty one, when the list names no order", async () => {
    const unordered = (name: string) => {
      const { order: _order, sort: _sort, ...rest } = fixture(name) as Record<string, unknown>;
      return { ...rest, total: 400 };
    };
    server.use(...wahooApi({ "1": unordered("workouts-page-1.json"), "2": unordered("workouts-page-2.json") }));
    const harness = pullHarness(wahoo, { window: { start: new Date("2017-01-01T00:00:00Z"), end: new Date("2017-07-01T00:00:00Z") }, keys: KEYS });
    await wahoo.pull(harness.context);
    expect(requests.map(describeRequest)).toEqual([list(1), fitFile, list(2), list(3)]);
    expect(harness.stored.map((s) => (s.payload as { workout: { id: number } }).workout.id)).toEqual([2214301, 2214287, 2213950]);
  });

  it("asks for the summary of a workout listed without one; a summary not there yet (404) stores nothing", async () => {
    const page = fixture("workouts-page-1.json") as { workouts: Array<Record<string, unknown>> };
    const withoutSummaries = { ...page, workouts: page.workouts.slice(0, 2).map(({ workout_summary: _summary, ...workout }) => workout) };
    server.use(
      ...wahooApi({ "1": withoutSummaries }),
      http.get(`${API}/v1/workouts/2214301/workout_summary`, () => HttpResponse.json((page.workouts[0] as { workout_summary: JsonBodyType }).workout_summary)),
      http.get(`${API}/v1/workouts/2214287/workout_summary`, () => refusal(404)),
    );
    const harness = pullHarness(wahoo, { window: JUNE, keys: KEYS });
    await wahoo.pull(harness.context);
    expect(requests.map(describeRequest)).toEqual([list(1), "api.wahooligan.com/v1/workouts/2214301/workout_summary ", fitFile, "api.wahooligan.com/v1/workouts/2214287/workout_summary "]);
    expect(harness.stored).toHaveLength(1);
  });

  it("a file the host no longer has (404) leaves the workout with its summary; a failing host (503) fails the run", async () => {
    server.use(http.get(FIT_URL, () => refusal(404)), ...wahooApi());
    const harness = pullHarness(wahoo, { window: JUNE, keys: KEYS });
    await wahoo.pull(harness.context);
    expect(harness.stored.map((s) => (s.payload as { fit_file: unknown }).fit_file)).toEqual([null, null]);

    server.use(http.get(FIT_URL, () => refusal(503)));
    const failing = wahoo.pull(pullHarness(wahoo, { window: JUNE, keys: KEYS }).context);
    await expect(failing).rejects.toMatchObject({ kind: "failed", status: 503 });
  });

  it("a refused grant (401) is a ProviderError of kind refused", async () => {
    server.use(http.get(`${API}/v1/workouts`, () => refusal(401)));
    const pull = wahoo.pull(pullHarness(wahoo, { window: JUNE, keys: KEYS }).context);
    await expect(pull).rejects.toBeInstanceOf(ProviderError);
    await expect(pull).rejects.toMatchObject({ kind: "refused", status: 401 });
  });

  it("a 429 is a ProviderError of kind rate_limited with the seconds to wait", async () => {
    server.use(http.get(`${API}/v1/workouts`, () => refusal(429, { "retry-after": "300", "x-ratelimit-remaining": "4800, 800, 0", "x-ratelimit-reset": "300" })));
    await expect(wahoo.pull(pullHarness(wahoo, { window: JUNE, keys: KEYS }).context)).rejects.toMatchObject({ kind: "rate_limited", retryAfterSeconds: 300 });
  });

  it("refuses a list of another shape, and a pull for another data type asks nothing", async () => {
    server.use(http.get(`${API}/v1/workouts`, () => HttpResponse.json([])));
    await expect(wahoo.pull(pullHarness(wahoo, { window: JUNE, keys: KEYS }).context)).rejects.toMatchObject({ kind: "failed" });
    requests.length = 0;
    await wahoo.pull(pullHarness(wahoo, { window: JUNE, keys: KEYS, dataType: "sleep" }).context);
    expect(requests).toEqual([]);
  });
});

describe("wahoo grant", () => {
  const urls = { ...wahoo.urls };
  const exchange = { code: "c0de-7f2a", codeVerifier: "v".repeat(43), redirectUri: "https://svc.example/oauth/wahoo/callback" };

  it("exchanges the code with the client secret and the PKCE verifier in the form, and identifies the user with GET /v1/user", async () => {
    const sent: { form?: URLSearchParams } = {};
    server.use(
      http.post(`${API}/oauth/token`, async ({ request }) => {
        sent.form = new URLSearchParams(await request.text());
        return HttpResponse.json(fixture("token.json"));
      }),
      http.get(`${API}/v1/user`, () => HttpResponse.json(fixture("user.json"))),
    );
    const tokens = await exchangeCode(wahoo, urls, KEYS, exchange);
    expect(Object.fromEntries(sent.form ?? [])).toMatchObject({
      grant_type: "authorization_code",
      code: "c0de-7f2a",
      client_id: "wahoo-client-id",
      client_secret: "wahoo-test-secret",
      code_verifier: "v".repeat(43),
      redirect_uri: "https://svc.example/oauth/wahoo/callback",
    });
    expect(tokens).toMatchObject({ accessToken: "wahoo-access-7c1e2a9d4b5f", refreshToken: "wahoo-refresh-3f8b6d0c1a2e", scopes: ["user_read", "workouts_read", "offline_data"] });
    expect(await wahoo.identify(clientHarness(wahoo, { keys: KEYS, accessToken: tokens.accessToken }), tokens)).toEqual({ providerUserId: "60462" });
    expect(requests.at(-1)?.authorization).toBe("Bearer wahoo-access-7c1e2a9d4b5f");
  });

  it("a user answer without an id fails the grant", async () => {
    server.use(http.get(`${API}/v1/user`, () => HttpResponse.json({ first: "Sam" })));
    const tokens = { accessToken: "t", refreshToken: null, expiresAt: null, scopes: null, raw: {} };
    await expect(wahoo.identify(clientHarness(wahoo, { keys: KEYS }), tokens)).rejects.toMatchObject({ kind: "failed" });
  });

  it("a refresh answers a new refresh token (single use: rotation)", async () => {
    const sent: { form?: URLSearchParams } = {};
    server.use(
      http.post(`${API}/oauth/token`, async ({ request }) => {
        sent.form = new URLSearchParams(await request.text());
        return HttpResponse.json({ ...(fixture("token.json") as object), access_token: "new-access", refresh_token: "new-refresh" });
      }),
    );
    const tokens = await refreshTokens(wahoo, urls, KEYS, "old-refresh");
    expect(sent.form?.get("grant_type")).toBe("refresh_token");
    expect(sent.form?.get("refresh_token")).toBe("old-refresh");
    expect(tokens).toMatchObject({ accessToken: "new-access", refreshToken: "new-refresh" });
    expect(wahoo.oauth.rotatesRefreshToken).toBe(true);
  });

  it("a refused refresh (401) is a ProviderError of kind refused", async () => {
    server.use(http.post(`${API}/oauth/token`, () => HttpResponse.json({ error: "invalid_grant" }, { status: 401 })));
    await expect(refreshTokens(wahoo, urls, KEYS, "spent-refresh")).rejects.toMatchObject({ kind: "refused" });
  });

  it("authorize settings: space-separated scopes with offline_data, PKCE, client_secret_post", () => {
    expect(wahoo.oauth).toMatchObject({ scopes: ["user_read", "workouts_read", "offline_data"], pkce: true, clientAuth: "client_secret_post" });
    expect(wahoo.oauth.scopeSeparator).toBeUndefined();
  });

  it("revokes the grant with DELETE /v1/permissions and the user's token", async () => {
    server.use(http.delete(`${API}/v1/permissions`, () => new HttpResponse(null, { status: 204 })));
    await wahoo.revoke?.(clientHarness(wahoo, { accessToken: "user-token" }), { accessToken: "user-token", refreshToken: null, expiresAt: null, scopes: null, raw: {} });
    expect(requests.map((r) => [r.method, r.url.pathname, r.authorization])).toEqual([["DELETE", "/v1/permissions", "Bearer user-token"]]);
  });
});

describe("wahoo webhook", () => {
  const handle = (request: Partial<InboundRequest>, keySets: readonly ProviderKeys[] = [KEYS]) =>
    wahoo.notifications!.handle({ method: "POST", headers: {}, query: {}, rawBody: Buffer.alloc(0), ...request }, keySets);
  const post = (body: unknown, keySets?: readonly ProviderKeys[]) =>
    handle({ method: "POST", headers: { "content-type": "application/json" }, rawBody: Buffer.from(JSON.stringify(body)) }, keySets);
  const event = () => fixture("webhook-workout-summary.json") as Record<string, unknown>;

  it("a workout summary with an application's webhook token pulls that user's workouts a day either side of the workout's start", () => {
    const other: ProviderKeys = { CLIENT_ID: "other", CLIENT_SECRET: "x", WEBHOOK_TOKEN: "another-token" };
    const starts = Date.parse("2017-06-12T16:10:15Z");
    expect(post(event(), [other, KEYS])).toEqual({
      status: 200,
      pulls: [{ providerUserId: "60462", dataType: "workout_summary", window: { start: new Date(starts - 86_400_000), end: new Date(starts + 86_400_000) } }],
    });
  });

  it("an event without the workout's start pulls the last 72 hours", () => {
    const { workout: _workout, ...summary } = event().workout_summary as Record<string, unknown>;
    const before = Date.now();
    const window = post({ ...event(), workout_summary: summary }).pulls?.[0]?.window;
    expect(window!.end.getTime() - window!.start.getTime()).toBe(73 * 3_600_000);
    expect(window!.start.getTime()).toBeGreaterThanOrEqual(before - 72 * 3_600_000);
  });

  it("refuses a token no application has, and every event when no application set WEBHOOK_TOKEN", () => {
    const refused = post({ ...event(), webhook_token: "guessed" });
    expect(refused).toEqual({ status: 401 });
    const { WEBHOOK_TOKEN: _token, ...unset } = KEYS;
    expect(post(event(), [unset]).status).toBe(401);
    expect(post({ ...event(), webhook_token: undefined }).status).toBe(401);
  });

  it("acknowledges a verified event svc does not use without a pull", () => {
    expect(post({ ...event(), event_type: "workout" })).toEqual({ status: 200 });
    expect(post({ ...event(), user: { id: "not-an-id" } })).toEqual({ status: 200 });
  });

  it("refuses what is not a Wahoo event, other methods, and answers 404 when no application is configured", () => {
    expect(handle({ rawBody: Buffer.from("not json") }).status).toBe(400);
    expect(handle({ rawBody: Buffer.alloc(70 * 1024, 32) }).status).toBe(400);
    expect(handle({ method: "GET" }).status).toBe(405);
    expect(post(event(), []).status).toBe(404);
  });
});

/** Every sample must be storable in its catalog unit. */
function expectStorable(parsed: ParsedRecords): void {
  for (const s of parsed.quantitySamples) {
    const type = findQuantityType(s.type);
    expect(type, s.type).toBeDefined();
    if (type) expect("error" in toStorageUnit(type, s.value, s.unit)).toBe(false);
  }
}

describe("wahoo mapping", () => {
  const parse = wahoo.parsers["wahoo-workout"]!;
  const page = fixture("workouts-page-1.json") as { workouts: Array<Record<string, unknown>> };
  const [ride, trainer] = page.workouts as [Record<string, unknown>, Record<string, unknown>];
  const payloadOf = (workout: Record<string, unknown>, fit: Buffer | null) => ({ workout, workout_summary: workout.workout_summary, fit_file: fit?.toString("base64") ?? null });

  it("a workout with its FIT file: the file's workout, route and laps, keyed by Wahoo's workout id", () => {
    const parsed = parse(payloadOf(ride, FIT));
    expect(parsed.rejected).toEqual([]);
    expect(parsed.workouts).toHaveLength(1);
    const [workout] = parsed.workouts;
    expect(workout).toMatchObject({
      activity_type: "cycling",
      name: "Cycling",
      start_date: new Date("2017-06-12T16:10:15Z"),
      end_date: new Date("2017-06-12T16:11:22Z"),
      distance_meters: 457.12,
      average_heart_rate: 116,
      external_id: "2214301",
      metadata: { file_format: "fit", fit_sport: "cycling", wahoo_workout_id: "2214301", wahoo_workout_type_id: 15, wahoo_workout_summary_id: "1984773", cadence_avg: 81 },
    });
    expect(workout?.route).toHaveLength(15);
    expect(workout?.route?.[0]).toMatchObject({ latitude: expect.closeTo(37.4148, 4), longitude: expect.closeTo(-122.0689, 4) });
    expect((workout?.metadata?.laps as unknown[]).length).toBe(1);
    expect(parsed.quantitySamples.some((s) => s.type === "heart_rate")).toBe(true);
    expectStorable(parsed);
  });

  it("a workout without a file: the summary's figures (decimal strings) make the workout", () => {
    const parsed = parse(payloadOf(trainer, null));
    expect(parsed.rejected).toEqual([]);
    expect(parsed.workouts).toEqual([
      {
        activity_type: "cycling", // 61 BIKING_INDOOR_TRAINER
        name: "KICKR",
        start_date: new Date("2017-06-10T14:00:00Z"),
        end_date: new Date("2017-06-10T14:46:00Z"), // starts + duration_total_accum 2760 s
        duration_seconds: 2700, // duration_active_accum
        distance_meters: 21850.4,
        total_energy_kcal: 512,
        average_heart_rate: 138.2,
        elevation_gain_meters: 0,
        source: "wahoo",
        source_name: "Wahoo",
        device: null,
        on_body: true,
        external_id: "2214287",
        metadata: {
          wahoo_workout_id: "2214287",
          wahoo_workout_type_id: 61,
          wahoo_workout_summary_id: "1984701",
          cadence_avg: 88.5,
          power_avg: 189.6,
          power_bike_np_last: 201.4,
          power_bike_tss_last: 48.9,
          speed_avg: 8.09,
          work_accum: 511920,
          duration_paused_accum: 60,
        },
        locator: "workout",
      },
    ]);
  });

  it("a file that cannot be read is rejected and the summary makes the workout, with the same external id", () => {
    const parsed = parse(payloadOf(ride, Buffer.from("not a fit file")));
    expect(parsed.workouts.map((w) => [w.external_id, w.activity_type, w.distance_meters])).toEqual([["2214301", "cycling", 457.12]]);
    expect(parsed.rejected).toEqual([expect.objectContaining({ recordKind: "activity_file" })]);
  });

  it("rejects a workout it cannot read without quoting it, and refuses a payload of another shape", () => {
    const noStart = parse(payloadOf({ ...trainer, starts: "yesterday" }, null));
    expect(noStart.workouts).toEqual([]);
    expect(noStart.rejected).toEqual([{ recordKind: "workout", locator: "workout", reason: "wahoo workout: starts or the summary's duration is missing or invalid" }]);
    expect(parse(payloadOf({ ...trainer, id: "x" }, null)).rejected[0]?.reason).toBe("wahoo workout: id is missing or invalid");
    expect(() => parse([])).toThrow();
    expect(() => parse({ workout: trainer })).toThrow();
  });
});
