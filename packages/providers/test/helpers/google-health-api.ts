import { readFileSync } from "node:fs";
import path from "node:path";
import { http, HttpResponse, type RequestHandler } from "msw";

const FIXTURES = path.join(import.meta.dirname, "..", "fixtures", "google_health");

export const GOOGLE_HEALTH_ACCESS_TOKEN = "test-access-token";
export const GOOGLE_HEALTH_USER_ID = "aXb3Kq9ZtR2mW7";

/** One fixture of test/fixtures/google_health, parsed. */
export function googleHealthFixture(name: string): Record<string, unknown> {
  return JSON.parse(readFileSync(path.join(FIXTURES, name), "utf8")) as Record<string, unknown>;
}

export interface FakeGoogleHealthApi {
  /** Every request answered, in order (with the JSON body of POSTs). */
  requests: Array<{ method: string; url: URL; body: unknown }>;
  handlers: RequestHandler[];
}

type Point = Record<string, Record<string, unknown>>;

const camel = (kebab: string) => kebab.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
const dateText = (date: unknown) => {
  const d = date as { year: number; month: number; day: number };
  return `${d.year}-${String(d.month).padStart(2, "0")}-${String(d.day).padStart(2, "0")}`;
};

/** The value a filter field reads from a data point of a data type. */
function fieldValue(dataType: string, field: string, point: Point): string | number | null {
  const body = point[camel(dataType)];
  if (!body) return null;
  const snake = dataType.replaceAll("-", "_");
  const interval = body.interval as Record<string, unknown> | undefined;
  switch (field) {
    case `${snake}.sample_time.physical_time`:
      return Date.parse(String((body.sampleTime as Record<string, unknown>).physicalTime));
    case `${snake}.date`:
      return dateText(body.date);
    case "sleep.interval.end_time":
      return dataType === "sleep" ? Date.parse(String(interval?.endTime)) : null;
    case "exercise.interval.civil_start_time":
      return dataType === "exercise" ? dateText((interval?.civilStartTime as Record<string, unknown>).date) : null;
    default:
      return null;
  }
}

const FILTER = /^([a-z_.]+) >= "([^"]+)" AND \1 < "([^"]+)"$/;
const SESSION_TYPES = new Set(["sleep", "exercise"]);
/** dailyRollUp's longest range, in days. */
const ROLLUP_MAX_DAYS: Readonly<Record<string, number>> = { "total-calories": 14, "active-minutes": 14 };

/**
 * The Google Health API v4 over the fixtures at `base`: identity, settings, dataPoints
 * list and reconcile (the AIP-160 range filter of the request applied; 400 for a filter
 * field the data type does not have or a page size beyond the limits), cut into pages of
 * at most `pageCap` points with `nextPageToken`, and dailyRollUp over the civil range of
 * the body (400 beyond 14 or 90 days). Requests need the bearer `accessToken` (else 401);
 * refusals carry no body (see dexcom-api.ts).
 */
export function fakeGoogleHealthApi(options: { base?: string; accessToken?: string; pageCap?: number } = {}): FakeGoogleHealthApi {
  const base = (options.base ?? "https://health.googleapis.com").replace(/\/+$/, "");
  const accessToken = options.accessToken ?? GOOGLE_HEALTH_ACCESS_TOKEN;
  const pageCap = options.pageCap ?? 2;
  const requests: FakeGoogleHealthApi["requests"] = [];
  const refused = (status: number) => new HttpResponse(null, { status });

  function list(dataType: string, url: URL): Response {
    const filter = FILTER.exec(url.searchParams.get("filter") ?? "");
    const pageSize = Number(url.searchParams.get("pageSize") ?? (SESSION_TYPES.has(dataType) ? 25 : 1440));
    if (!filter || pageSize < 1 || pageSize > (SESSION_TYPES.has(dataType) ? 25 : 10_000)) return refused(400);
    const [, field = "", from = "", to = ""] = filter;
    let points: Point[];
    try {
      points = googleHealthFixture(`${dataType}.json`).dataPoints as Point[];
    } catch {
      return refused(404);
    }
    const bound = (text: string) => (/^\d{4}-\d{2}-\d{2}$/.test(text) ? text : Date.parse(text));
    if (points.some((point) => fieldValue(dataType, field, point) === null)) return refused(400);
    const inRange = points.filter((point) => {
      const value = fieldValue(dataType, field, point) as string | number;
      return value >= bound(from) && value < bound(to);
    });
    const offset = Number(url.searchParams.get("pageToken")?.replace("page-", "") ?? 0);
    const size = Math.min(pageSize, pageCap);
    const page = inRange.slice(offset, offset + size);
    const nextPageToken = offset + size < inRange.length ? `page-${offset + size}` : undefined;
    return HttpResponse.json(nextPageToken ? { dataPoints: page, nextPageToken } : { dataPoints: page });
  }

  function dailyRollUp(dataType: string, body: unknown): Response {
    const range = (body as { range?: { start?: { date?: unknown }; end?: { date?: unknown } } }).range;
    if (!range?.start?.date || !range.end?.date) return refused(400);
    const start = dateText(range.start.date);
    const end = dateText(range.end.date);
    const days = (Date.parse(`${end}T00:00:00Z`) - Date.parse(`${start}T00:00:00Z`)) / 86_400_000;
    if (days < 1 || days > (ROLLUP_MAX_DAYS[dataType] ?? 90)) return refused(400);
    let answer: Record<string, unknown>;
    try {
      answer = googleHealthFixture(`rollup-${dataType}.json`);
    } catch {
      return refused(404);
    }
    const points = (answer.rollupDataPoints as Array<{ civilStartTime: { date: unknown } }>).filter((point) => {
      const day = dateText(point.civilStartTime.date);
      return day >= start && day < end;
    });
    return HttpResponse.json({ rollupDataPoints: points });
  }

  return {
    requests,
    handlers: [
      http.post("https://oauth2.googleapis.com/revoke", async ({ request }) => {
        requests.push({ method: "POST", url: new URL(request.url), body: await request.text() });
        return HttpResponse.json({});
      }),
      http.all(`${base}/v4/*`, async ({ request }) => {
        const url = new URL(request.url);
        const body = request.method === "POST" ? await request.json().catch(() => null) : undefined;
        requests.push({ method: request.method, url, body });
        if (request.headers.get("authorization") !== `Bearer ${accessToken}`) return refused(401);
        const route = decodeURIComponent(url.pathname.slice(new URL(base).pathname.replace(/\/+$/, "").length));
        if (route === "/v4/users/me/identity") return HttpResponse.json(googleHealthFixture("identity.json"));
        if (route === "/v4/users/me/settings") return HttpResponse.json(googleHealthFixture("settings.json"));
        const points = /^\/v4\/users\/me\/dataTypes\/([a-z0-9-]+)\/dataPoints(:reconcile|:dailyRollUp)?$/.exec(route);
        if (points?.[1] && request.method === "GET" && points[2] !== ":dailyRollUp") return list(points[1], url);
        if (points?.[1] && request.method === "POST" && points[2] === ":dailyRollUp") return dailyRollUp(points[1], body);
        return refused(404);
      }),
    ],
  };
}
