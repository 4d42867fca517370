import { readFileSync } from "node:fs";
import path from "node:path";
import { http, HttpResponse, type RequestHandler } from "msw";

const FIXTURES = path.join(import.meta.dirname, "..", "fixtures", "whoop");

export const WHOOP_ACCESS_TOKEN = "test-access-token";
export const WHOOP_USER_ID = "10129";

/** One fixture of test/fixtures/whoop, parsed. */
export function whoopFixture(name: string): unknown {
  return JSON.parse(readFileSync(path.join(FIXTURES, name), "utf8"));
}

export interface FakeWhoopApi {
  requests: URL[];
  handlers: RequestHandler[];
}

const COLLECTIONS: Readonly<Record<string, string>> = {
  "/v2/cycle": "cycle.json",
  "/v2/recovery": "recovery.json",
  "/v2/activity/sleep": "sleep.json",
  "/v2/activity/workout": "workout.json",
};

/**
 * The WHOOP API v2 over the fixtures: the profile and the four collections, each filtered by
 * `start` (records ending at or after it) and `end` (records starting before it; a
 * recovery's time is its created_at) and cut into pages of `limit` (at most `pageSize`) with
 * an opaque next_token. Requests need the bearer `accessToken` (else 401, without a body).
 */
export function fakeWhoopApi(options: { base?: string; accessToken?: string; pageSize?: number } = {}): FakeWhoopApi {
  const base = (options.base ?? "https://api.prod.whoop.com/developer").replace(/\/+$/, "");
  const accessToken = options.accessToken ?? WHOOP_ACCESS_TOKEN;
  const pageSize = options.pageSize ?? 2;
  const requests: URL[] = [];
  const authorized = (request: Request) => request.headers.get("authorization") === `Bearer ${accessToken}`;
  // No body: under msw, cancelling a mocked body (as providerRequest does) never settles.
  const unauthorized = () => new HttpResponse(null, { status: 401 });

  return {
    requests,
    handlers: [
      http.get(`${base}/v2/user/profile/basic`, ({ request }) => {
        requests.push(new URL(request.url));
        return authorized(request) ? HttpResponse.json(whoopFixture("profile_basic.json") as Record<string, unknown>) : unauthorized();
      }),
      http.get(`${base}/v2/user/measurement/body`, ({ request }) => {
        requests.push(new URL(request.url));
        return authorized(request) ? HttpResponse.json(whoopFixture("body_measurement.json") as Record<string, unknown>) : unauthorized();
      }),
      http.delete(`${base}/v2/user/access`, ({ request }) => {
        requests.push(new URL(request.url));
        return authorized(request) ? new HttpResponse(null, { status: 204 }) : unauthorized();
      }),
      ...Object.entries(COLLECTIONS).map(([collectionPath, fixture]) =>
        http.get(`${base}${collectionPath}`, ({ request }) => {
          const url = new URL(request.url);
          requests.push(url);
          if (!authorized(request)) return unauthorized();
          const records = (whoopFixture(fixture) as { records: Array<Record<string, unknown>> }).records;
          const start = url.searchParams.get("start");
          const end = url.searchParams.get("end");
          const inRange = records.filter((record) => {
            const from = Date.parse(String(record.start ?? record.created_at));
            const to = record.end || record.start ? Date.parse(String(record.end ?? record.updated_at)) : from;
            return (!start || to >= Date.parse(start)) && (!end || from < Date.parse(end));
          });
          const limit = Math.min(Number(url.searchParams.get("limit") ?? 10), 25, pageSize);
          const offset = Number(url.searchParams.get("nextToken")?.replace("page-", "") ?? 0);
          const page = inRange.slice(offset, offset + limit);
          // WHOOP leaves next_token out on the last page.
          return HttpResponse.json(offset + limit < inRange.length ? { records: page, next_token: `page-${offset + limit}` } : { records: page });
        }),
      ),
    ],
  };
}
