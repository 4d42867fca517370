import { ProviderError, type PullContext } from "@svc/core";
import { isObject } from "./documents.ts";

/** One Oura usercollection list and how it is asked for. */
export interface OuraCollection {
  /** The collection and webhook data type, e.g. `daily_sleep`. */
  name: string;
  /** Any of these granted scopes opens it (Oura renamed `spo2` to `spo2Daily`). */
  scopes: readonly string[];
  /** `date`: start_date/end_date (local days); `datetime`: start_datetime/end_datetime. */
  window: "date" | "datetime";
}

export const OURA_COLLECTIONS: readonly OuraCollection[] = [
  { name: "daily_activity", scopes: ["daily"], window: "date" },
  { name: "daily_sleep", scopes: ["daily"], window: "date" },
  { name: "daily_readiness", scopes: ["daily"], window: "date" },
  { name: "sleep", scopes: ["daily"], window: "date" },
  { name: "daily_spo2", scopes: ["spo2Daily", "spo2"], window: "date" },
  { name: "workout", scopes: ["workout"], window: "date" },
  { name: "heartrate", scopes: ["heartrate"], window: "datetime" },
];

export const formatOf = (collection: OuraCollection): string => `oura-${collection.name}`;

/** Oura answers ranges longer than about a month badly; longer windows are asked for in parts. */
const CHUNK_DAYS = 30;
const DAY_MS = 86_400_000;
/** A provider that keeps giving next tokens is broken, not endless. */
const MAX_PAGES = 1000;

/**
 * The collections a pull asks for: the one a notification named (all for a scheduled pull
 * or an unknown name), among those the grant opens when the grant says its scopes.
 */
export function collectionsFor(dataType: string | null, grantedScopes: readonly string[]): OuraCollection[] {
  const named = OURA_COLLECTIONS.filter((collection) => collection.name === dataType);
  const wanted = named.length > 0 ? named : OURA_COLLECTIONS;
  if (grantedScopes.length === 0) return [...wanted];
  return wanted.filter((collection) => collection.scopes.some((scope) => grantedScopes.includes(scope)));
}

/**
 * The query ranges of one collection for a half-open window. Days are the user's local days,
 * so date ranges reach one day before and after the window's UTC dates (every offset fits)
 * and consecutive parts share a day (whether Oura's end_date is inclusive does not matter);
 * records asked for twice are stored once, by their id.
 */
export function rangesOf(collection: OuraCollection, window: { start: Date; end: Date }): Array<Record<string, string>> {
  const ranges: Array<Record<string, string>> = [];
  if (collection.window === "datetime") {
    for (let start = window.start.getTime(); start < window.end.getTime(); start += CHUNK_DAYS * DAY_MS) {
      const end = Math.min(start + CHUNK_DAYS * DAY_MS, window.end.getTime());
      ranges.push({ start_datetime: new Date(start).toISOString(), end_datetime: new Date(end).toISOString() });
    }
    return ranges;
  }
  const first = utcMidnight(window.start) - DAY_MS;
  const last = utcMidnight(new Date(window.end.getTime() - 1)) + DAY_MS;
  for (let start = first; start < last; start += CHUNK_DAYS * DAY_MS) {
    const end = Math.min(start + CHUNK_DAYS * DAY_MS, last);
    ranges.push({ start_date: isoDay(start), end_date: isoDay(end) });
  }
  return ranges;
}

/** Pulls the window: every page of every range of every collection, each page stored as it came. */
export async function pullOura(context: PullContext): Promise<void> {
  for (const collection of collectionsFor(context.dataType, context.scopes)) {
    for (const range of rangesOf(collection, context.window)) {
      await pullPages(context, collection, range);
    }
  }
}

async function pullPages(context: PullContext, collection: OuraCollection, range: Record<string, string>): Promise<void> {
  let nextToken: string | null = null;
  for (let page = 0; page < MAX_PAGES; page++) {
    const url = new URL(`${apiBase(context.urls.api)}/v2/usercollection/${collection.name}`);
    for (const [name, value] of Object.entries(range)) url.searchParams.set(name, value);
    if (nextToken) url.searchParams.set("next_token", nextToken);
    const answer = await context.request(url);
    if (!isObject(answer) || !Array.isArray(answer.data)) {
      throw new ProviderError("failed", `GET ${url.pathname} answered something other than a list of documents.`);
    }
    // A page without documents holds nothing to parse.
    if (answer.data.length > 0) await context.store(formatOf(collection), answer);
    const next = typeof answer.next_token === "string" && answer.next_token !== "" ? answer.next_token : null;
    if (!next) return;
    if (next === nextToken) throw new ProviderError("failed", `GET ${url.pathname} gave the same next_token twice.`);
    nextToken = next;
  }
  throw new ProviderError("failed", `GET /v2/usercollection/${collection.name} kept paging past ${MAX_PAGES} pages.`);
}

/** The API base without a trailing slash (an override may carry a path prefix). */
export function apiBase(api: string): string {
  return api.replace(/\/+$/, "");
}

function utcMidnight(date: Date): number {
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate());
}

function isoDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
