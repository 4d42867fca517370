// What a pull asks Fitbit for: per collection, the endpoints and their date range limits.
import type { PullContext } from "@svc/core";
import { ACTIVITY_RESOURCES, HEART_RESOURCE } from "./activity.ts";
import { apiUrl, dateRanges } from "./api.ts";
import { isObject, textOf } from "./json.ts";
import { isKnownZone, localDateOf } from "../local-time.ts";
import type { FitbitPayload, FitbitSeriesPayload } from "./payload.ts";

interface PullRun {
  context: PullContext;
  base: string;
  timezone: string | null;
  /** The local dates of the window, inclusive. */
  first: string;
  last: string;
  granted: (scope: string) => boolean;
}

/** The most exercise log pages one pull follows (100 exercises each). */
const MAX_LOG_PAGES = 20;

/** A date-range endpoint stored answer by answer: `{path}` gets `{start}/{end}`. */
interface RangeEndpoint {
  format: string;
  scope: string;
  path: (start: string, end: string) => string;
  /** The longest range Fitbit answers in one request, in days. */
  maxDays: number;
}

const SLEEP: RangeEndpoint = { format: "fitbit-sleep", scope: "sleep", path: (s, e) => `/1.2/user/-/sleep/date/${s}/${e}.json`, maxDays: 100 };
const WEIGHT: RangeEndpoint = { format: "fitbit-weight", scope: "weight", path: (s, e) => `/1/user/-/body/log/weight/date/${s}/${e}.json`, maxDays: 31 };
const SPO2: RangeEndpoint = { format: "fitbit-spo2", scope: "oxygen_saturation", path: (s, e) => `/1/user/-/spo2/date/${s}/${e}.json`, maxDays: 30 };
const HRV: RangeEndpoint = { format: "fitbit-hrv", scope: "heartrate", path: (s, e) => `/1/user/-/hrv/date/${s}/${e}.json`, maxDays: 30 };
const BREATHING: RangeEndpoint = { format: "fitbit-br", scope: "respiratory_rate", path: (s, e) => `/1/user/-/br/date/${s}/${e}.json`, maxDays: 30 };
const SKIN_TEMPERATURE: RangeEndpoint = { format: "fitbit-temp-skin", scope: "temperature", path: (s, e) => `/1/user/-/temp/skin/date/${s}/${e}.json`, maxDays: 30 };

async function pullRange(run: PullRun, endpoint: RangeEndpoint): Promise<void> {
  if (!run.granted(endpoint.scope)) return;
  for (const range of dateRanges(run.first, run.last, endpoint.maxDays)) {
    const response = await run.context.request(apiUrl(run.base, endpoint.path(range.start, range.end)));
    await run.context.store(endpoint.format, { timezone: run.timezone, response } satisfies FitbitPayload);
  }
}

/** The day figures: every activity time series and the heart rate series, one payload per range (heart rate allows a year). */
async function pullActivitySeries(run: PullRun): Promise<void> {
  if (!run.granted("activity")) return;
  for (const range of dateRanges(run.first, run.last, 365)) {
    const responses: Record<string, unknown> = {};
    for (const resource of ACTIVITY_RESOURCES) {
      responses[resource] = await run.context.request(apiUrl(run.base, `/1/user/-/activities/${resource}/date/${range.start}/${range.end}.json`));
    }
    if (run.granted("heartrate")) {
      responses[HEART_RESOURCE] = await run.context.request(apiUrl(run.base, `/1/user/-/activities/heart/date/${range.start}/${range.end}.json`));
    }
    await run.context.store("fitbit-activity-series", { timezone: run.timezone, responses } satisfies FitbitSeriesPayload);
  }
}

/** The exercise log from the window's first local date, page by page, until an exercise starts after the window. */
async function pullExercises(run: PullRun): Promise<void> {
  if (!run.granted("activity")) return;
  let url: URL | null = apiUrl(run.base, "/1/user/-/activities/list.json", { afterDate: `${run.first}T00:00:00`, sort: "asc", offset: "0", limit: "100" });
  for (let page = 0; url && page < MAX_LOG_PAGES; page++) {
    const response = await run.context.request(url);
    await run.context.store("fitbit-activity-log", { timezone: run.timezone, response } satisfies FitbitPayload);
    url = nextPage(run, response);
  }
}

function nextPage(run: PullRun, response: unknown): URL | null {
  if (!isObject(response) || !Array.isArray(response.activities) || response.activities.length === 0) return null;
  const last = response.activities.at(-1);
  const lastStart = isObject(last) && typeof last.startTime === "string" ? Date.parse(last.startTime) : Number.NaN;
  if (!Number.isNaN(lastStart) && lastStart >= run.context.window.end.getTime()) return null;
  const next = isObject(response.pagination) ? textOf(response.pagination.next, 2000) : null;
  if (!next) return null;
  // Fitbit's next link names api.fitbit.com; follow its path and query on the configured API address.
  const link = new URL(next);
  return apiUrl(run.base, `${link.pathname}${link.search}`);
}

/** What each collection (a notification's collectionType) pulls. */
const COLLECTION_PULLS: Readonly<Record<string, ReadonlyArray<(run: PullRun) => Promise<void>>>> = {
  activities: [pullActivitySeries, pullExercises],
  sleep: [
    (run) => pullRange(run, SLEEP),
    (run) => pullRange(run, SPO2),
    (run) => pullRange(run, HRV),
    (run) => pullRange(run, BREATHING),
    (run) => pullRange(run, SKIN_TEMPERATURE),
  ],
  body: [(run) => pullRange(run, WEIGHT)],
};

/** The user's IANA zone from the profile; null when the profile scope is missing or names none. */
async function profileTimezone(context: PullContext, base: string, granted: (scope: string) => boolean): Promise<string | null> {
  if (!granted("profile")) return null;
  const profile = await context.request(apiUrl(base, "/1/user/-/profile.json"));
  const timezone = isObject(profile) && isObject(profile.user) ? textOf(profile.user.timezone, 64) : null;
  return timezone && isKnownZone(timezone) ? timezone : null;
}

/**
 * Pulls the window's local dates for the collection a notification named, or every
 * collection. Endpoints whose scope the user did not grant are skipped (they would
 * answer 403). No Accept-Language header is sent, so Fitbit answers in metric units.
 */
export async function pullFitbit(context: PullContext): Promise<void> {
  const collections = context.dataType ? [context.dataType] : Object.keys(COLLECTION_PULLS);
  const steps = collections.flatMap((name) => COLLECTION_PULLS[name] ?? []);
  if (steps.length === 0) return;
  const granted = (scope: string) => context.scopes.length === 0 || context.scopes.includes(scope);
  const base = context.urls.api;
  const timezone = await profileTimezone(context, base, granted);
  const zone = timezone ?? "UTC";
  const run: PullRun = {
    context,
    base,
    timezone,
    first: localDateOf(context.window.start, zone),
    // Not beyond now: Fitbit answers days to come with zeros.
    last: localDateOf(new Date(Math.max(context.window.start.getTime(), Math.min(context.window.end.getTime() - 1, Date.now()))), zone),
    granted,
  };
  for (const step of steps) await step(run);
}
