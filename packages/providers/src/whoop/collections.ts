import { ProviderError, type PullContext } from "@svc/core";
import { isObject } from "./documents.ts";

/** One WHOOP v2 collection. */
export interface WhoopCollection {
  name: "cycle" | "recovery" | "sleep" | "workout";
  path: string;
  scope: string;
}

export const WHOOP_COLLECTIONS: readonly WhoopCollection[] = [
  { name: "cycle", path: "/v2/cycle", scope: "read:cycles" },
  { name: "recovery", path: "/v2/recovery", scope: "read:recovery" },
  { name: "sleep", path: "/v2/activity/sleep", scope: "read:sleep" },
  { name: "workout", path: "/v2/activity/workout", scope: "read:workout" },
];

/**
 * What a notification's data type pulls. Cycles have no webhook: a recovery starts a new
 * cycle and a workout adds to its strain, so those pull the cycles too.
 */
const PULLED_ON: Readonly<Record<string, readonly WhoopCollection["name"][]>> = {
  recovery: ["recovery", "cycle"],
  sleep: ["sleep"],
  workout: ["workout", "cycle"],
};

export const formatOf = (collection: WhoopCollection): string => `whoop-${collection.name}`;

/** WHOOP's largest page. */
export const PAGE_LIMIT = 25;
const MAX_PAGES = 1000;

export function collectionsFor(dataType: string | null, grantedScopes: readonly string[]): WhoopCollection[] {
  const names = (dataType && PULLED_ON[dataType]) || WHOOP_COLLECTIONS.map((collection) => collection.name);
  const wanted = WHOOP_COLLECTIONS.filter((collection) => names.includes(collection.name));
  if (grantedScopes.length === 0) return wanted;
  return wanted.filter((collection) => grantedScopes.includes(collection.scope));
}

/**
 * Pulls the window from each collection: `start` (inclusive) and `end` (exclusive) are the
 * window itself, pages of 25 follow `nextToken`; each page is stored as it came.
 */
export async function pullWhoop(context: PullContext): Promise<void> {
  for (const collection of collectionsFor(context.dataType, context.scopes)) {
    let nextToken: string | null = null;
    for (let page = 0; ; page++) {
      if (page >= MAX_PAGES) throw new ProviderError("failed", `GET ${collection.path} kept paging past ${MAX_PAGES} pages.`);
      const url = new URL(`${apiBase(context.urls.api)}${collection.path}`);
      url.searchParams.set("limit", String(PAGE_LIMIT));
      url.searchParams.set("start", context.window.start.toISOString());
      url.searchParams.set("end", context.window.end.toISOString());
      if (nextToken) url.searchParams.set("nextToken", nextToken);
      const answer = await context.request(url);
      if (!isObject(answer) || !Array.isArray(answer.records)) {
        throw new ProviderError("failed", `GET ${url.pathname} answered something other than a page of records.`);
      }
      if (answer.records.length > 0) await context.store(formatOf(collection), answer);
      const next = typeof answer.next_token === "string" && answer.next_token !== "" ? answer.next_token : null;
      if (!next) break;
      if (next === nextToken) throw new ProviderError("failed", `GET ${url.pathname} gave the same next_token twice.`);
      nextToken = next;
    }
  }
}

/** The API base without a trailing slash: WHOOP's has a path (`/developer`). */
export function apiBase(api: string): string {
  return api.replace(/\/+$/, "");
}
