import { readFileSync } from "node:fs";
import path from "node:path";
import { http, HttpResponse, type RequestHandler } from "msw";

const FIXTURES = path.join(import.meta.dirname, "..", "fixtures", "fitbit");

export const FITBIT_ACCESS_TOKEN = "test-access-token";
export const FITBIT_USER_ID = "BX7Q2P";

/** One fixture of test/fixtures/fitbit, parsed. */
export function fitbitFixture(name: string): unknown {
  return JSON.parse(readFileSync(path.join(FIXTURES, name), "utf8"));
}

export interface FakeFitbitApi {
  /** Every request answered, in order. */
  requests: Array<{ method: string; url: URL; headers: Headers }>;
  handlers: RequestHandler[];
}

/** Date-range endpoints: the path pattern, the fixture, how to find its list and date, and Fitbit's longest range. */
const RANGES: ReadonlyArray<{ pattern: RegExp; fixture: (match: RegExpExecArray) => string; list: (body: unknown) => unknown[]; rebuild: (body: unknown, list: unknown[]) => unknown; dateKey: string; maxDays: number }> = [
  {
    pattern: /^\/1\/user\/-\/activities\/(heart|steps|distance|calories|activityCalories|floors|minutesFairlyActive|minutesVeryActive)\/date\/([\d-]+)\/([\d-]+)\.json$/,
    fixture: (m) => `activities-${m[1]}.json`,
    list: (body) => Object.values(body as Record<string, unknown[]>)[0] ?? [],
    rebuild: (body, list) => ({ [Object.keys(body as object)[0] ?? "list"]: list }),
    dateKey: "dateTime",
    maxDays: 365,
  },
  { pattern: /^\/1\.2\/user\/-\/sleep\/date\/([\d-]+)\/([\d-]+)\.json$/, fixture: () => "sleep.json", list: (b) => (b as { sleep: unknown[] }).sleep, rebuild: (b, list) => ({ ...(b as object), sleep: list }), dateKey: "dateOfSleep", maxDays: 100 },
  { pattern: /^\/1\/user\/-\/body\/log\/weight\/date\/([\d-]+)\/([\d-]+)\.json$/, fixture: () => "weight.json", list: (b) => (b as { weight: unknown[] }).weight, rebuild: (_b, list) => ({ weight: list }), dateKey: "date", maxDays: 31 },
  { pattern: /^\/1\/user\/-\/spo2\/date\/([\d-]+)\/([\d-]+)\.json$/, fixture: () => "spo2.json", list: (b) => b as unknown[], rebuild: (_b, list) => list, dateKey: "dateTime", maxDays: 30 },
  { pattern: /^\/1\/user\/-\/hrv\/date\/([\d-]+)\/([\d-]+)\.json$/, fixture: () => "hrv.json", list: (b) => (b as { hrv: unknown[] }).hrv, rebuild: (_b, list) => ({ hrv: list }), dateKey: "dateTime", maxDays: 30 },
  { pattern: /^\/1\/user\/-\/br\/date\/([\d-]+)\/([\d-]+)\.json$/, fixture: () => "br.json", list: (b) => (b as { br: unknown[] }).br, rebuild: (_b, list) => ({ br: list }), dateKey: "dateTime", maxDays: 30 },
  { pattern: /^\/1\/user\/-\/temp\/skin\/date\/([\d-]+)\/([\d-]+)\.json$/, fixture: () => "temp-skin.json", list: (b) => (b as { tempSkin: unknown[] }).tempSkin, rebuild: (_b, list) => ({ tempSkin: list }), dateKey: "dateTime", maxDays: 30 },
];

const days = (start: string, end: string) => (Date.parse(`${end}T00:00:00Z`) - Date.parse(`${start}T00:00:00Z`)) / 86_400_000 + 1;

/**
 * The Fitbit Web API over the fixtures at `base`: the profile, the date-range endpoints
 * filtered by their [start, end] dates (400 beyond Fitbit's longest range), the exercise
 * log after `afterDate` in pages of `logPageSize` with `pagination.next`, subscriptions
 * (POST 201, DELETE 204) and the revoke endpoint. Data requests need the bearer
 * `accessToken` (else 401); refusals carry no body (see dexcom-api.ts).
 */
export function fakeFitbitApi(options: { base?: string; accessToken?: string; logPageSize?: number } = {}): FakeFitbitApi {
  const base = (options.base ?? "https://api.fitbit.com").replace(/\/+$/, "");
  const accessToken = options.accessToken ?? FITBIT_ACCESS_TOKEN;
  const logPageSize = options.logPageSize ?? 2;
  const requests: FakeFitbitApi["requests"] = [];
  const authorized = (request: Request) => request.headers.get("authorization") === `Bearer ${accessToken}`;
  const refused = (status: number) => new HttpResponse(null, { status });
  const pathOf = (url: URL) => url.pathname.slice(new URL(base).pathname.replace(/\/+$/, "").length);

  function answerGet(url: URL): Response {
    const route = pathOf(url);
    if (route === "/1/user/-/profile.json") return HttpResponse.json(fitbitFixture("profile.json") as Record<string, unknown>);
    if (route === "/1/user/-/activities/list.json") return exerciseLog(url);
    for (const range of RANGES) {
      const match = range.pattern.exec(route);
      if (!match) continue;
      const [start, end] = match.slice(-2) as [string, string];
      if (days(start, end) > range.maxDays || days(start, end) < 1) return refused(400);
      const body = fitbitFixture(range.fixture(match));
      const list = range.list(body).filter((entry) => {
        const date = String((entry as Record<string, unknown>)[range.dateKey]);
        return date >= start && date <= end;
      });
      return HttpResponse.json(range.rebuild(body, list) as Record<string, unknown>);
    }
    return refused(404);
  }

  function exerciseLog(url: URL): Response {
    const all = fitbitFixture("activities-list.json") as { activities: Array<{ startTime: string }>; pagination: Record<string, unknown> };
    const after = url.searchParams.get("afterDate") ?? "";
    // afterDate is a local time: compare with the local part of each startTime.
    const remaining = all.activities.filter((activity) => activity.startTime.slice(0, 19) > after);
    const page = remaining.slice(0, logPageSize);
    const last = page.at(-1);
    const next = remaining.length > page.length && last ? `https://api.fitbit.com/1/user/-/activities/list.json?offset=0&limit=100&sort=asc&afterDate=${encodeURIComponent(last.startTime.slice(0, 19))}` : "";
    return HttpResponse.json({ activities: page, pagination: { ...all.pagination, afterDate: after, next } });
  }

  return {
    requests,
    handlers: [
      http.post(`${base}/oauth2/revoke`, ({ request }) => {
        requests.push({ method: "POST", url: new URL(request.url), headers: request.headers });
        return request.headers.get("authorization")?.startsWith("Basic ") ? HttpResponse.json({}) : refused(401);
      }),
      http.all(`${base}/*`, ({ request }) => {
        const url = new URL(request.url);
        requests.push({ method: request.method, url, headers: request.headers });
        if (!authorized(request)) return refused(401);
        const subscription = /^\/1\/user\/-\/(activities|body|sleep|foods|userRevokedAccess)\/apiSubscriptions\/([\w-]+)\.json$/.exec(pathOf(url));
        if (subscription && request.method === "POST") {
          return HttpResponse.json({ ...(fitbitFixture("subscription.json") as object), collectionType: subscription[1], subscriptionId: subscription[2] }, { status: 201 });
        }
        if (subscription && request.method === "DELETE") return new HttpResponse(null, { status: 204 });
        if (request.method === "GET") return answerGet(url);
        return refused(405);
      }),
    ],
  };
}
