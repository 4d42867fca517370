import { ProviderError, type ProviderClient } from "@svc/core";
import { withingsBody } from "./answers.ts";
import type { JsonObject } from "./values.ts";

/** Withings services, relative to the API base URL (`SVC_WITHINGS_API_URL`). */
export const WITHINGS_SERVICES = {
  measure: "/measure",
  measureV2: "/v2/measure",
  sleepV2: "/v2/sleep",
  notify: "/notify",
  signatureV2: "/v2/signature",
} as const;

/** A safety net: a window of a few years is a few pages; more means Withings keeps answering `more`. */
const MAX_PAGES = 500;

export function serviceUrl(apiUrl: string, service: string): string {
  return `${apiUrl.replace(/\/+$/, "")}${service}`;
}

/** One Withings call: a form POST with the user's bearer token; answers the `body` (status 0) or throws. */
export async function callWithings(client: ProviderClient, url: string, params: Record<string, string>, what: string): Promise<JsonObject> {
  const answer = await client.request(url, { method: "POST", body: new URLSearchParams(params) });
  return withingsBody(answer, what);
}

/**
 * Every page of a Withings list service: it answers `more` (true or 1) with the `offset`
 * to send for the next page.
 */
export async function* withingsPages(client: ProviderClient, url: string, params: Record<string, string>, what: string): AsyncGenerator<JsonObject> {
  let offset: string | null = null;
  for (let page = 0; page < MAX_PAGES; page++) {
    const body = await callWithings(client, url, offset === null ? params : { ...params, offset }, what);
    yield body;
    const hasMore = body.more === true || body.more === 1;
    const next = body.offset;
    if (!hasMore || typeof next !== "number" || !Number.isInteger(next) || next <= 0 || String(next) === offset) return;
    offset = String(next);
  }
  throw new ProviderError("failed", `Withings ${what} answered more than ${MAX_PAGES} pages.`);
}
