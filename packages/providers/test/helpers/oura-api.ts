import { readFileSync } from "node:fs";
import path from "node:path";
import { http, HttpResponse, type RequestHandler } from "msw";

const FIXTURES = path.join(import.meta.dirname, "..", "fixtures", "oura");

export const OURA_ACCESS_TOKEN = "test-access-token";
export const OURA_USER_ID = "8f9a5221-639e-4a6b-9a4a-3f1c2b7d2e10";

/** One fixture of test/fixtures/oura, parsed. */
export function ouraFixture(name: string): unknown {
  return JSON.parse(readFileSync(path.join(FIXTURES, name), "utf8"));
}

export interface FakeOuraApi {
  /** Every request answered, in order. */
  requests: URL[];
  handlers: RequestHandler[];
}

/**
 * The Oura API v2 over the fixtures: personal_info and the usercollection lists, each list
 * filtered by the requested range (start_date/end_date, both inclusive, on `day`;
 * start_datetime/end_datetime on `timestamp`) and cut into pages of `pageSize` documents
 * with an opaque next_token. Requests need the bearer `accessToken` (else 401).
 */
export function fakeOuraApi(options: { base?: string; accessToken?: string; pageSize?: number } = {}): FakeOuraApi {
  const base = (options.base ?? "https://api.ouraring.com").replace(/\/+$/, "");
  const accessToken = options.accessToken ?? OURA_ACCESS_TOKEN;
  const pageSize = options.pageSize ?? 2;
  const requests: URL[] = [];
  const authorized = (request: Request) => request.headers.get("authorization") === `Bearer ${accessToken}`;
  // Refusals carry no body: under msw, cancelling a mocked body (as providerRequest does) never settles.
  const unauthorized = () => new HttpResponse(null, { status: 401 });

  return {
    requests,
    handlers: [
      http.get(`${base}/v2/usercollection/personal_info`, ({ request }) => {
        requests.push(new URL(request.url));
        return authorized(request) ? HttpResponse.json(ouraFixture("personal_info.json") as Record<string, unknown>) : unauthorized();
      }),
      http.get(`${base}/v2/usercollection/:collection`, ({ request, params }) => {
        const url = new URL(request.url);
        requests.push(url);
        if (!authorized(request)) return unauthorized();
        const collection = String(params.collection);
        let documents: Array<Record<string, unknown>>;
        try {
          documents = (ouraFixture(`${collection}.json`) as { data: Array<Record<string, unknown>> }).data;
        } catch {
          return new HttpResponse(null, { status: 404 });
        }
        const inRange = documents.filter((document) => inRequestedRange(document, url.searchParams));
        const offset = Number(url.searchParams.get("next_token")?.replace("page-", "") ?? 0);
        const page = inRange.slice(offset, offset + pageSize);
        const nextToken = offset + pageSize < inRange.length ? `page-${offset + pageSize}` : null;
        return HttpResponse.json({ data: page, next_token: nextToken });
      }),
    ],
  };
}

function inRequestedRange(document: Record<string, unknown>, query: URLSearchParams): boolean {
  const startDate = query.get("start_date");
  const endDate = query.get("end_date");
  if (startDate || endDate) {
    const day = String(document.day);
    return (!startDate || day >= startDate) && (!endDate || day <= endDate);
  }
  const at = Date.parse(String(document.timestamp));
  const start = query.get("start_datetime");
  const end = query.get("end_datetime");
  return (!start || at >= Date.parse(start)) && (!end || at < Date.parse(end));
}
