import { readFileSync } from "node:fs";
import path from "node:path";
import { http, HttpResponse, type RequestHandler } from "msw";

const FIXTURES = path.join(import.meta.dirname, "..", "fixtures", "dexcom");

export const DEXCOM_ACCESS_TOKEN = "test-access-token";
export const DEXCOM_USER_ID = "5b329ebcfbf2f0ba7e49d4c5eb57775468f5ee657ac16fcde07e1fd08197b4c7";

/** One fixture of test/fixtures/dexcom, parsed. */
export function dexcomFixture(name: string): Record<string, unknown> {
  return JSON.parse(readFileSync(path.join(FIXTURES, name), "utf8")) as Record<string, unknown>;
}

export interface FakeDexcomApi {
  /** Every request answered, in order. */
  requests: URL[];
  handlers: RequestHandler[];
}

/** A systemTime in milliseconds; UTC when written without an offset (receiver records). */
function systemMs(value: unknown): number {
  const text = String(value);
  return Date.parse(/[zZ]|[+-]\d{2}:\d{2}$/.test(text) ? text : `${text}Z`);
}

/**
 * The Dexcom API v3 over the fixtures at `base` (production or sandbox host): dataRange,
 * and egvs/events filtered by startDate <= systemTime < endDate (UTC bounds without an
 * offset). A window longer than 30 days answers 400, as Dexcom does. Requests need the
 * bearer `accessToken` (else 401).
 */
export function fakeDexcomApi(options: { base?: string; accessToken?: string } = {}): FakeDexcomApi {
  const base = (options.base ?? "https://api.dexcom.com").replace(/\/+$/, "");
  const accessToken = options.accessToken ?? DEXCOM_ACCESS_TOKEN;
  const requests: URL[] = [];
  const authorized = (request: Request) => request.headers.get("authorization") === `Bearer ${accessToken}`;
  // Refusals come without a body: core's providerRequest awaits body.cancel(), which never settles for some
  // msw-mocked bodies (reported to the lead).
  const unauthorized = () => new HttpResponse(null, { status: 401, headers: { "www-authenticate": 'Bearer error="invalid_token"' } });

  const records = (file: string) =>
    http.get(`${base}/v3/users/self/${file}`, ({ request }) => {
      const url = new URL(request.url);
      requests.push(url);
      if (!authorized(request)) return unauthorized();
      const start = Date.parse(`${url.searchParams.get("startDate")}Z`);
      const end = Date.parse(`${url.searchParams.get("endDate")}Z`);
      if (Number.isNaN(start) || Number.isNaN(end) || end - start > 30 * 86_400_000) {
        return new HttpResponse(null, { status: 400 });
      }
      const all = dexcomFixture(`${file}.json`);
      const inWindow = (all.records as Array<Record<string, unknown>>).filter((record) => {
        const at = systemMs(record.systemTime);
        return at >= start && at < end;
      });
      return HttpResponse.json({ ...all, records: inWindow });
    });

  return {
    requests,
    handlers: [
      http.get(`${base}/v3/users/self/dataRange`, ({ request }) => {
        requests.push(new URL(request.url));
        return authorized(request) ? HttpResponse.json(dexcomFixture("dataRange.json")) : unauthorized();
      }),
      records("egvs"),
      records("events"),
    ],
  };
}
