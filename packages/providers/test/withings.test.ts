import { createHmac } from "node:crypto";
import { readFileSync } from "node:fs";
import { findQuantityType, ProviderError, toStorageUnit, type ProviderTokens, type QuantitySampleRecord } from "@svc/core";
import { fixturePath } from "@svc/testing";
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { provider as withings } from "../src/withings/connector.ts";
import { clientHarness, pullHarness } from "./helpers/connector-harness.ts";

const API = "https://wbsapi.withings.net";
const own = (name: string): unknown => JSON.parse(readFileSync(new URL(`./fixtures/withings/${name}`, import.meta.url), "utf8"));
const shared = (name: string): unknown => JSON.parse(readFileSync(fixturePath(name), "utf8"));
const ok = (body: unknown) => HttpResponse.json({ status: 0, body });

interface Call {
  path: string;
  params: Record<string, string>;
  authorization: string | null;
}
let calls: Call[] = [];

/** Withings answers by `action` in the form body; pages by `offset`. */
const server = setupServer(
  http.post(`${API}/measure`, async ({ request }) => {
    const params = await record(request);
    if (params.action !== "getmeas") return ok({});
    if (params.offset === "7") return ok({ updatetime: 1714980000, timezone: "Europe/Paris", more: 0, offset: 0, measuregrps: shared("withings_measure_getmeas.json") });
    return ok(own("measure_getmeas_page1.json"));
  }),
  http.post(`${API}/v2/measure`, async ({ request }) => {
    const params = await record(request);
    if (params.action === "getactivity") return ok(own(params.offset === "2" ? "activity_getactivity_page2.json" : "activity_getactivity_page1.json"));
    if (params.action === "getworkouts") return ok(own("workouts_getworkouts.json"));
    return ok({});
  }),
  http.post(`${API}/v2/sleep`, async ({ request }) => {
    await record(request);
    return ok(shared("withings_sleep_getsummary.json"));
  }),
);

async function record(request: Request): Promise<Record<string, string>> {
  const params = Object.fromEntries(new URLSearchParams(await request.text()));
  calls.push({ path: new URL(request.url).pathname, params, authorization: request.headers.get("authorization") });
  return params;
}

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => {
  server.resetHandlers();
  calls = [];
});
afterAll(() => server.close());

const tokensOf = (raw: Record<string, unknown>): ProviderTokens => ({ accessToken: "a", refreshToken: "r", expiresAt: null, scopes: null, raw });

describe("withings connector: OAuth", () => {
  it("unwraps the token answer: the standard object inside {status: 0, body}", () => {
    const token = own("token.json") as { body: Record<string, unknown> };
    expect(withings.oauth.unwrapTokenResponse?.(token)).toEqual(token.body);
    expect(withings.oauth.tokenParams).toEqual({ action: "requesttoken" });
    expect(withings.oauth.scopes.join(withings.oauth.scopeSeparator)).toBe("user.info,user.metrics,user.activity");
    expect(withings.oauth.clientAuth).toBe("client_secret_post");
  });

  it("maps a non-zero token status to a ProviderError: 401 and invalid codes refuse, 601 waits, others fail", () => {
    const errorOf = (json: unknown) => {
      try {
        withings.oauth.unwrapTokenResponse?.(json);
      } catch (error) {
        return error as ProviderError;
      }
      throw new Error("no error");
    };
    expect(errorOf({ status: 401, body: {}, error: "XRequestID: invalid_token" }).kind).toBe("refused");
    expect(errorOf({ status: 503, body: {}, error: "Invalid Params: invalid code" }).kind).toBe("refused");
    const limited = errorOf({ status: 601, body: {}, error: "Too many requests" });
    expect([limited.kind, limited.retryAfterSeconds]).toEqual(["rate_limited", 60]);
    expect(errorOf({ status: 2555, body: {}, error: "An unknown error occurred" }).kind).toBe("failed");
    expect(errorOf("not json").kind).toBe("failed");
    // The message names the status, never the provider's error text.
    expect(errorOf({ status: 503, body: {}, error: "Invalid Params: invalid code" }).message).not.toContain("code");
  });

  it("identifies the user by the token answer's userid (a number at Withings)", async () => {
    const token = own("token.json") as { body: Record<string, unknown> };
    await expect(withings.identify(clientHarness(withings), tokensOf(token.body))).resolves.toEqual({ providerUserId: "37218945" });
    await expect(withings.identify(clientHarness(withings), tokensOf({ access_token: "a" }))).rejects.toMatchObject({ kind: "failed" });
  });
});

describe("withings connector: pulls", () => {
  it("backfills a year: every service, paged by offset, measures by unix seconds and the rest by local dates", async () => {
    const window = { start: new Date("2023-05-07T00:00:00Z"), end: new Date("2024-05-07T00:00:00Z") };
    const { context, stored } = pullHarness(withings, { window, accessToken: "withings-token" });
    await withings.pull(context);

    expect(calls.map((c) => `${c.path} ${c.params.action}${c.params.offset ? ` @${c.params.offset}` : ""}`)).toEqual([
      "/measure getmeas",
      "/measure getmeas @7",
      "/v2/measure getactivity",
      "/v2/measure getactivity @2",
      "/v2/measure getworkouts",
      "/v2/sleep getsummary",
    ]);
    expect(calls.every((c) => c.authorization === "Bearer withings-token")).toBe(true);
    const [getmeas, , getactivity, , getworkouts, getsummary] = calls;
    // [start, end) as inclusive unix seconds: 2023-05-07T00:00:00Z to one second before 2024-05-07T00:00:00Z.
    expect(getmeas?.params).toMatchObject({ category: "1", startdate: "1683417600", enddate: "1715039999" });
    expect(getmeas?.params.meastypes?.split(",").map(Number)).toEqual(expect.arrayContaining([1, 4, 5, 6, 8, 9, 10, 11, 12, 54, 71, 73, 76, 77, 88, 91]));
    // Local dates in any zone: a day before the first UTC date and after the last (sleep one more: nights are dated by their end).
    expect(getactivity?.params).toMatchObject({ startdateymd: "2023-05-06", enddateymd: "2024-05-07" });
    expect(getactivity?.params.data_fields).toContain("totalcalories");
    expect(getworkouts?.params).toMatchObject({ startdateymd: "2023-05-06", enddateymd: "2024-05-07" });
    expect(getsummary?.params).toMatchObject({ startdateymd: "2023-05-06", enddateymd: "2024-05-08" });
    expect(getsummary?.params.data_fields).toContain("sleep_score");

    expect(stored.map((s) => s.format)).toEqual([
      "withings-measures",
      "withings-measures",
      "withings-activities",
      "withings-activities",
      "withings-workouts",
      "withings-sleep-summaries",
    ]);
    // Stored as sent: the page's body.
    expect(stored[0]?.payload).toEqual(own("measure_getmeas_page1.json"));
  });

  it("pulls only a notification's category and window (blood pressure: getmeas of its types)", async () => {
    const window = { start: new Date("2024-05-02T18:00:00Z"), end: new Date("2024-05-02T18:30:00Z") };
    const { context, stored } = pullHarness(withings, { window, dataType: "blood_pressure" });
    await withings.pull(context);
    expect(calls).toHaveLength(2);
    expect(calls.every((c) => c.path === "/measure")).toBe(true);
    expect(calls[0]?.params).toMatchObject({ action: "getmeas", meastypes: "9,10,11,54", startdate: "1714672800", enddate: "1714674599" });
    expect(stored.map((s) => s.format)).toEqual(["withings-measures", "withings-measures"]);
  });

  it("pulls a short sleep window by its local dates only", async () => {
    const window = { start: new Date("2021-04-17T20:30:53Z"), end: new Date("2021-04-18T02:32:54Z") };
    const { context, stored } = pullHarness(withings, { window, dataType: "sleep" });
    await withings.pull(context);
    expect(calls.map((c) => [c.path, c.params.action, c.params.startdateymd, c.params.enddateymd])).toEqual([
      ["/v2/sleep", "getsummary", "2021-04-16", "2021-04-20"],
    ]);
    expect(stored).toHaveLength(1);
  });

  it("skips the services of a scope the user did not grant", async () => {
    const window = { start: new Date("2024-05-01T00:00:00Z"), end: new Date("2024-05-02T00:00:00Z") };
    const { context } = pullHarness(withings, { window, scopes: ["user.info", "user.metrics"] });
    await withings.pull(context);
    expect(new Set(calls.map((c) => c.path))).toEqual(new Set(["/measure"]));
  });

  it("maps statuses inside HTTP 200 answers: 401 refuses the grant, 601 waits a minute", async () => {
    const window = { start: new Date("2024-05-01T00:00:00Z"), end: new Date("2024-05-02T00:00:00Z") };
    server.use(http.post(`${API}/measure`, () => HttpResponse.json({ status: 401, body: {}, error: "XRequestID: Not provided invalid_token" })));
    await expect(withings.pull(pullHarness(withings, { window, dataType: "body" }).context)).rejects.toMatchObject({ kind: "refused" });
    server.use(http.post(`${API}/measure`, () => HttpResponse.json({ status: 601, body: {}, error: "Too Many Requests" })));
    await expect(withings.pull(pullHarness(withings, { window, dataType: "body" }).context)).rejects.toMatchObject({
      kind: "rate_limited",
      retryAfterSeconds: 60,
    });
  });

  it("maps HTTP refusals: 401 refuses the grant, 429 waits for Retry-After", async () => {
    const window = { start: new Date("2024-05-01T00:00:00Z"), end: new Date("2024-05-02T00:00:00Z") };
    server.use(http.post(`${API}/measure`, () => new HttpResponse(null, { status: 401 })));
    await expect(withings.pull(pullHarness(withings, { window, dataType: "body" }).context)).rejects.toMatchObject({ kind: "refused", status: 401 });
    server.use(http.post(`${API}/measure`, () => new HttpResponse(null, { status: 429, headers: { "retry-after": "120" } })));
    const error = await withings.pull(pullHarness(withings, { window, dataType: "body" }).context).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ kind: "rate_limited", retryAfterSeconds: 120 });
  });
});

describe("withings connector: notifications", () => {
  const keySets = [{ CLIENT_ID: "withings-client", CLIENT_SECRET: "withings-secret" }];
  const post = (body: string, contentType = "application/x-www-form-urlencoded") => ({
    method: "POST",
    headers: { "content-type": contentType },
    query: {},
    rawBody: Buffer.from(body),
  });
  const handle = (request: ReturnType<typeof post>, keys = keySets) => withings.notifications!.handle(request, keys);

  it("answers Withings' check of the callback URL (HEAD) with 200", () => {
    expect(handle({ ...post(""), method: "HEAD" })).toEqual({ status: 200 });
  });

  it("turns a weight notification into a pull of its user, category and window", () => {
    const answer = handle(post("userid=37218945&appli=1&startdate=1714542120&enddate=1714542190"));
    expect(answer.status).toBe(200);
    expect(answer.pulls).toEqual([
      // enddate is inclusive: the window ends one second after it.
      { providerUserId: "37218945", dataType: "body", window: { start: new Date(1714542120_000), end: new Date(1714542191_000) } },
    ]);
    expect(answer.payloads).toBeUndefined();
  });

  it("reads sleep (44), blood pressure (4) and activity by date (16), also as multipart form data", () => {
    expect(handle(post("userid=7&appli=44&startdate=1618691453&enddate=1618713173")).pulls?.[0]).toMatchObject({ providerUserId: "7", dataType: "sleep" });
    expect(handle(post("userid=7&appli=4&startdate=1714673400&enddate=1714673400")).pulls?.[0]?.dataType).toBe("blood_pressure");
    const activity = handle(post("userid=7&appli=16&date=2024-05-02"));
    expect(activity.pulls).toEqual([
      { providerUserId: "7", dataType: "activity", window: { start: new Date("2024-05-02T00:00:00Z"), end: new Date("2024-05-03T00:00:00Z") } },
    ]);
    const boundary = "----withings";
    const multipart = ["userid", "appli", "startdate", "enddate"]
      .map((name, i) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${["7", "2", "1714892100", "1714892160"][i]}\r\n`)
      .join("");
    const answer = handle(post(`${multipart}--${boundary}--\r\n`, `multipart/form-data; boundary=${boundary}`));
    expect(answer.pulls?.[0]).toMatchObject({ providerUserId: "7", dataType: "temperature" });
  });

  it("an unlink (unsigned) gets a one-hour pull that Withings refuses with the revoked grant; other user events none", () => {
    const answer = handle(post("userid=7&appli=46&action=unlink"));
    expect(answer.revoked).toBeUndefined();
    expect(answer.pulls).toHaveLength(1);
    const pull = answer.pulls![0]!;
    expect(pull).toMatchObject({ providerUserId: "7", dataType: "body" });
    expect(pull.window!.end.getTime() - pull.window!.start.getTime()).toBe(3_600_000);
    expect(handle(post("userid=7&appli=46&action=delete"))).toEqual({ status: 200 });
  });

  it("refuses what is not a notification's shape, and everything when no Withings application is configured", () => {
    expect(handle(post("userid=abc&appli=1&startdate=1&enddate=2")).status).toBe(400);
    expect(handle(post("appli=1&startdate=1&enddate=2")).status).toBe(400);
    expect(handle(post("userid=7&appli=1&startdate=1714542190&enddate=1714542120")).status).toBe(400);
    expect(handle(post("userid=7&appli=44")).status).toBe(400);
    expect(handle(post("userid=7&appli=1&startdate=1714542120&enddate=1714542190"), [])).toEqual({ status: 404 });
  });
});

describe("withings connector: subscriptions and revoke", () => {
  it("subscribes the user to each category at the inbound URL, and revokes one on unsubscribe", async () => {
    const notify: Array<Record<string, string>> = [];
    server.use(
      http.post(`${API}/notify`, async ({ request }) => {
        const params = Object.fromEntries(new URLSearchParams(await request.text()));
        notify.push(params);
        // The grant does not cover sleep: Withings refuses that one category.
        if (params.action === "subscribe" && params.appli === "44") return HttpResponse.json({ status: 2553, body: {} });
        if (params.action === "revoke") return HttpResponse.json({ status: 294, body: {} });
        return ok({});
      }),
    );
    const client = clientHarness(withings);
    const callbackUrl = "https://svc.example/providers/withings/notifications";
    const ids = await withings.subscribe!(client, { providerUserId: "37218945", callbackUrl });
    expect(ids).toEqual(["1", "2", "4", "16", "46"]);
    expect(notify.map((p) => [p.action, p.appli, p.callbackurl])).toEqual(
      ["1", "2", "4", "16", "44", "46"].map((appli) => ["subscribe", appli, callbackUrl]),
    );
    // 294 (no such subscription) means it is already gone.
    await expect(withings.unsubscribe!(client, { providerUserId: "37218945", externalId: "16", callbackUrl })).resolves.toBeUndefined();
    expect(notify.at(-1)).toEqual({ action: "revoke", callbackurl: callbackUrl, appli: "16" });
  });

  it("revokes the grant with a signed request after getting a nonce", async () => {
    const requests: Array<{ path: string; params: Record<string, string>; authorization: string | null }> = [];
    server.use(
      http.post(`${API}/v2/signature`, async ({ request }) => {
        requests.push({ path: "/v2/signature", params: Object.fromEntries(new URLSearchParams(await request.text())), authorization: request.headers.get("authorization") });
        return HttpResponse.json(own("nonce.json") as object);
      }),
      http.post(`${API}/v2/oauth2`, async ({ request }) => {
        requests.push({ path: "/v2/oauth2", params: Object.fromEntries(new URLSearchParams(await request.text())), authorization: request.headers.get("authorization") });
        return ok({});
      }),
    );
    const keys = { CLIENT_ID: "withings-client", CLIENT_SECRET: "withings-secret" };
    await withings.revoke!(clientHarness(withings, { keys }), tokensOf({ userid: 37218945 }));
    const hmac = (data: string) => createHmac("sha256", "withings-secret").update(data).digest("hex");
    const [getnonce, revoke] = requests;
    expect(getnonce?.params).toMatchObject({ action: "getnonce", client_id: "withings-client" });
    expect(getnonce?.params.signature).toBe(hmac(`getnonce,withings-client,${getnonce?.params.timestamp}`));
    expect(revoke?.params).toEqual({
      action: "revoke",
      client_id: "withings-client",
      nonce: "c455541b8f9111689adb647d32fac07a6ffe462d",
      signature: hmac("revoke,withings-client,c455541b8f9111689adb647d32fac07a6ffe462d"),
      userid: "37218945",
    });
    // Signed requests carry no user token.
    expect(requests.every((r) => r.authorization === null)).toBe(true);
  });
});

/** Every catalog sample must be in a unit the writer converts. */
function expectStorable(samples: readonly QuantitySampleRecord[]): void {
  for (const s of samples) {
    const type = findQuantityType(s.type);
    if (!type) continue;
    const converted = toStorageUnit(type, s.value, s.unit);
    expect("error" in converted ? converted.error : converted.unit, `${s.type} in ${s.unit}`).toBe(type.unit);
  }
}

const valuesOf = (samples: readonly QuantitySampleRecord[]) => Object.fromEntries(samples.map((s) => [s.type, s.value]));

describe("withings connector: mapping", () => {
  const parse = (format: string, payload: unknown) => withings.parsers[format]!(payload);

  it("maps the shared getmeas fixture (BPM Connect, 16 types): value * 10^unit, in the catalog's units", () => {
    const records = parse("withings-measures", { timezone: "Europe/Paris", measuregrps: shared("withings_measure_getmeas.json") });
    expect(records.rejected).toEqual([]);
    expect(records.quantitySamples).toHaveLength(16);
    expectStorable(records.quantitySamples);
    // Every value below is `value * 10^unit` of the fixture; only height changes unit (meters to cm).
    expect(valuesOf(records.quantitySamples)).toEqual({
      body_mass: 71, // type 1: 71 * 10^0 kg
      fat_mass: 5, // type 8: 5 kg (outside the catalog)
      lean_body_mass: 60, // type 5: fat free mass, 60 kg
      muscle_mass: 50, // type 76: 50 kg
      bone_mass: 10, // type 88: 10 kg
      height: 200, // type 4: 2 m = 200 cm
      temperature: 40, // type 12: 40 °C (outside the catalog)
      body_temperature: 40, // type 71: 40 °C
      skin_temperature: 20, // type 73: 20 °C (outside the catalog)
      body_fat_percentage: 0.07, // type 6: 70 * 10^-3 = 0.07 %
      blood_pressure_diastolic: 70, // type 9: 70 mmHg
      blood_pressure_systolic: 100, // type 10: 100 mmHg
      heart_rate: 60, // type 11: 60 bpm
      oxygen_saturation: 0.95, // type 54: 95 * 10^-2 = 0.95 % as the fixture says
      body_water_mass: 0.95, // type 77: hydration, 95 * 10^-2 = 0.95 kg
      pulse_wave_velocity: 100, // type 91: 100 m/s (outside the catalog)
    });
    const first = records.quantitySamples[0]!;
    // date 1618605055 = 2021-04-16T20:30:55Z; the group id is the external id.
    expect(first).toMatchObject({
      start_date: new Date("2021-04-16T20:30:55Z"),
      external_id: "1",
      device: "BPM Connect",
      timezone: "Europe/Paris",
      source: "withings",
      on_body: false,
      was_user_entered: false,
    });
    expect(first.end_date).toBeUndefined();
  });

  it("maps its own getmeas page: scales, blood pressure, typed-in height, thermometer, watch; leaves out goals and ambiguous groups", () => {
    const records = parse("withings-measures", own("measure_getmeas_page1.json"));
    expectStorable(records.quantitySamples);
    const byGroup = (id: string) => valuesOf(records.quantitySamples.filter((s) => s.external_id === id));
    expect(byGroup("5130201001")).toEqual({
      body_mass: 72.35, // 72350 * 10^-3 kg
      body_fat_percentage: 18.64, // 1864 * 10^-2 %
      fat_mass: 13.486, // 13486 * 10^-3 kg
      lean_body_mass: 58.864, // 58864 * 10^-3 kg
      muscle_mass: 55.89, // 5589 * 10^-2 kg
      body_water_mass: 41.02, // 4102 * 10^-2 kg
      bone_mass: 2.96, // 296 * 10^-2 kg
      heart_rate: 68, // standing heart rate on the scale
      pulse_wave_velocity: 7.12, // 712 * 10^-2 m/s
    });
    expect(byGroup("5130201002")).toEqual({ blood_pressure_diastolic: 78, blood_pressure_systolic: 121, heart_rate: 64 });
    // 178 * 10^-2 m = 1.78 m = 178 cm, typed in by the user (attrib 2).
    expect(byGroup("5130201003")).toEqual({ height: 178 });
    expect(records.quantitySamples.find((s) => s.external_id === "5130201003")?.was_user_entered).toBe(true);
    expect(byGroup("5130201004")).toEqual({}); // attrib 1: the scale could not tell whose weight it was
    expect(byGroup("5130201005")).toEqual({}); // category 2: a goal, not a measure
    expect(byGroup("5130201006")).toEqual({ body_temperature: 37.12 }); // 3712 * 10^-2 °C
    // The watch's SpO2 (97 %) is worn on the body; the AFib result (130) is left out, the unknown type rejected.
    expect(byGroup("5130201007")).toEqual({ oxygen_saturation: 97 });
    expect(records.quantitySamples.find((s) => s.external_id === "5130201007")).toMatchObject({ on_body: true, device: "ScanWatch" });
    expect(records.rejected).toEqual([
      { recordKind: "quantity_sample", locator: "measuregrps[6].measures[2]", reason: "withings measure: type 999 is not known" },
    ]);
    // 1714542120 = 2024-05-01T05:42:00Z, in the answer's zone.
    expect(records.quantitySamples[0]).toMatchObject({ start_date: new Date("2024-05-01T05:42:00Z"), timezone: "Europe/Paris", device: "Body Cardio" });
  });

  it("maps the shared sleep summary fixture to sessions with stages, score and breathing disturbances", () => {
    const records = parse("withings-sleep-summaries", shared("withings_sleep_getsummary.json"));
    expect(records.rejected).toEqual([]);
    expect(records.sleepSessions).toHaveLength(2);
    const [first, second] = records.sleepSessions;
    // 1618691453 = 2021-04-17T20:30:53Z, 1618713173 = 2021-04-18T02:32:53Z (6 h 02 min in bed).
    expect(first).toMatchObject({
      kind: "sleep",
      bedtime_start: new Date("2021-04-17T20:30:53Z"),
      bedtime_end: new Date("2021-04-18T02:32:53Z"),
      timezone: "Europe/Paris",
      total_sleep_seconds: 18660, // = light 10440 + deep 5820 + rem 2400
      light_seconds: 10440,
      deep_seconds: 5820,
      rem_seconds: 2400,
      awake_seconds: 3060, // wakeupduration
      latency_seconds: 540, // sleep_latency
      efficiency: 0.86,
      score: 37,
      average_heart_rate: 103,
      lowest_heart_rate: 70,
      respiratory_rate: 14,
      external_id: "2081804182",
      device: "Aura Sensor V2", // model_id 63
      on_body: false, // model 32: a sleep monitor under the mattress
    });
    expect(first?.metadata).toMatchObject({ date: "2021-04-18", wakeupcount: 1, waso: 1380, snoring: 1080, breathing_disturbances_intensity: 9, hr_max: 120 });
    // 1618518658 = 2021-04-15T20:30:58Z to 1618548058 = 2021-04-16T04:40:58Z.
    expect(second).toMatchObject({
      bedtime_start: new Date("2021-04-15T20:30:58Z"),
      bedtime_end: new Date("2021-04-16T04:40:58Z"),
      total_sleep_seconds: 16860, // = 11100 + 3720 + 2040
      latency_seconds: 840,
      efficiency: 0.81,
      score: 20,
      lowest_heart_rate: 50,
    });
    // -1 means "not measured": no breathing disturbances figure for the second night.
    expect(second?.metadata).not.toHaveProperty("breathing_disturbances_intensity");
    expectStorable(records.quantitySamples);
    expect(records.quantitySamples.map((s) => [s.type, s.value, s.external_id])).toEqual([
      ["sleep_score", 37, "2081804182"],
      ["sleeping_breathing_disturbances", 9, "2081804182"], // apnea_hypopnea_index: 9 events per hour
      ["sleep_score", 20, "2081804358"],
    ]);
  });

  it("maps daily activity to daily summaries by local date", () => {
    const page1 = parse("withings-activities", own("activity_getactivity_page1.json"));
    expect(page1.dailySummaries).toEqual([
      expect.objectContaining({
        date: "2024-05-01",
        timezone: "Europe/Paris",
        steps: 8423,
        distance_meters: 6120.5,
        floors_climbed: 7,
        active_seconds: 1980, // moderate 1560 + intense 420
        active_energy_kcal: 412.6,
        total_energy_kcal: 2298.4,
        average_heart_rate: 72,
        on_body: true,
        device: "ScanWatch",
      }),
      expect.objectContaining({ date: "2024-05-02", steps: 11876, active_seconds: 4140, total_energy_kcal: 2581.9 }),
    ]);
    const page2 = parse("withings-activities", own("activity_getactivity_page2.json"));
    // No `active`: moderate 300 + intense 0; hr_average 0 is "not measured".
    expect(page2.dailySummaries[0]).toMatchObject({ date: "2024-05-03", timezone: "America/New_York", active_seconds: 300, average_heart_rate: null, on_body: false });
    expect(page2.rejected).toEqual([{ recordKind: "daily_summary", locator: "activities[1]", reason: "withings activity: date is missing or not a YYYY-MM-DD date" }]);
  });

  it("maps workouts: activity type, moving time, distance, energy, heart rate", () => {
    const records = parse("withings-workouts", own("workouts_getworkouts.json"));
    expect(records.workouts).toHaveLength(2);
    // 1714669200 = 2024-05-02T17:00:00Z to 1714672110 = 17:48:30Z: 2910 s, less 150 s of pause.
    expect(records.workouts[0]).toMatchObject({
      activity_type: "running",
      start_date: new Date("2024-05-02T17:00:00Z"),
      end_date: new Date("2024-05-02T17:48:30Z"),
      timezone: "Europe/Paris",
      duration_seconds: 2760,
      distance_meters: 8040,
      active_energy_kcal: 412,
      average_heart_rate: 152,
      max_heart_rate: 176,
      steps: 7012,
      external_id: "3902214456",
      device: "ScanWatch",
      on_body: true,
    });
    expect(records.workouts[0]?.metadata).toMatchObject({ withings_category: 2, floors_climbed: 4, hr_zone_2: 1800 });
    // 09:10 to 09:55 = 2700 s, no pause the user entered; a swim has no distance, its pool figures stay in metadata.
    expect(records.workouts[1]).toMatchObject({ activity_type: "swimming", duration_seconds: 2700, distance_meters: null, active_energy_kcal: 301 });
    expect(records.workouts[1]?.metadata).toMatchObject({ pool_laps: 60, pool_length: 25, strokes: 1020 });
    expect(records.rejected).toEqual([{ recordKind: "workout", locator: "series[2]", reason: "withings workout: id, startdate or enddate is missing or invalid" }]);
  });

  it("refuses a payload that is not the format's body", () => {
    expect(() => parse("withings-measures", [])).toThrow(/measuregrps/);
    expect(() => parse("withings-sleep-summaries", { measuregrps: [] })).toThrow(/series/);
  });
});
