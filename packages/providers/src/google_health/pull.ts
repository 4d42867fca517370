// What a pull asks the Google Health API for, and how the window becomes filters and ranges.
import type { PullContext } from "@svc/core";
import { ACTIVITY_SCOPE, apiUrl, METRICS_SCOPE, SETTINGS_SCOPE, SLEEP_SCOPE } from "./api.ts";
import { ROLLUP_TYPES } from "./daily-rollups.ts";
import { isObject, textOf } from "./json.ts";
import { isKnownZone, localDateOf } from "../local-time.ts";
import type { DailyRollupsPayload, DataPointsPayload } from "./payload.ts";
import { addDays, dateObject } from "./times.ts";

interface PullRun {
  context: PullContext;
  base: string;
  timezone: string | null;
  /** The window's local dates, [firstDate, endDate) (padded by a day on each side when the zone is unknown). */
  firstDate: string;
  endDate: string;
  granted: (scope: string) => boolean;
}

/** How a data type's list filter names the window. */
type FilterKind = "sample" | "daily" | "sleep" | "exercise";

interface ListedType {
  /** The kebab-case name in the URL. */
  dataType: string;
  scope: string;
  filter: FilterKind;
  /** `reconcile` merges the sources into one stream (heart rate from a watch and a phone). */
  method: "list" | "reconcile";
  pageSize: number;
}

/**
 * The data types listed page by page. Scopes per data type are from the data types
 * table of the docs as far as it could be read; see docs/providers.md.
 */
const LISTED_TYPES: readonly ListedType[] = [
  { dataType: "heart-rate", scope: METRICS_SCOPE, filter: "sample", method: "reconcile", pageSize: 10_000 },
  { dataType: "weight", scope: METRICS_SCOPE, filter: "sample", method: "list", pageSize: 1000 },
  { dataType: "body-fat", scope: METRICS_SCOPE, filter: "sample", method: "list", pageSize: 1000 },
  { dataType: "daily-resting-heart-rate", scope: METRICS_SCOPE, filter: "daily", method: "list", pageSize: 1000 },
  { dataType: "daily-heart-rate-variability", scope: METRICS_SCOPE, filter: "daily", method: "list", pageSize: 1000 },
  { dataType: "daily-oxygen-saturation", scope: METRICS_SCOPE, filter: "daily", method: "list", pageSize: 1000 },
  { dataType: "daily-respiratory-rate", scope: METRICS_SCOPE, filter: "daily", method: "list", pageSize: 1000 },
  { dataType: "daily-sleep-temperature-derivations", scope: METRICS_SCOPE, filter: "daily", method: "list", pageSize: 1000 },
  // Sleep and exercise answer at most 25 data points per page.
  { dataType: "sleep", scope: SLEEP_SCOPE, filter: "sleep", method: "list", pageSize: 25 },
  { dataType: "exercise", scope: ACTIVITY_SCOPE, filter: "exercise", method: "list", pageSize: 25 },
];

/** The most pages one data type follows in one pull. */
const MAX_PAGES = 200;
/** dailyRollUp answers at most 14 days for total-calories and active-minutes (90 for the others): every range is cut at 14. */
const ROLLUP_DAYS = 14;

const snake = (dataType: string) => dataType.replaceAll("-", "_");

/** The AIP-160 filter of the window for a data type. */
function filterOf(type: ListedType, run: PullRun): string {
  const field = snake(type.dataType);
  const range = (path: string, from: string, to: string) => `${path} >= "${from}" AND ${path} < "${to}"`;
  const start = run.context.window.start.toISOString();
  const end = run.context.window.end.toISOString();
  switch (type.filter) {
    case "sample":
      return range(`${field}.sample_time.physical_time`, start, end);
    case "daily":
      return range(`${field}.date`, run.firstDate, run.endDate);
    case "sleep":
      // Sleep filters on its end only: the sessions that end in the window.
      return range("sleep.interval.end_time", start, end);
    case "exercise":
      // Exercise filters on its civil start only: the window's local dates.
      return range("exercise.interval.civil_start_time", run.firstDate, run.endDate);
  }
}

async function pullListed(run: PullRun, type: ListedType): Promise<void> {
  if (!run.granted(type.scope)) return;
  const path = `/v4/users/me/dataTypes/${type.dataType}/dataPoints${type.method === "reconcile" ? ":reconcile" : ""}`;
  let pageToken: string | null = null;
  for (let page = 0; page < MAX_PAGES; page++) {
    const query: Record<string, string> = { filter: filterOf(type, run), pageSize: String(type.pageSize) };
    if (pageToken) query.pageToken = pageToken;
    const response = await run.context.request(apiUrl(run.base, path, query));
    await run.context.store("google_health-data-points", { dataType: type.dataType, timezone: run.timezone, response } satisfies DataPointsPayload);
    pageToken = isObject(response) ? textOf(response.nextPageToken, 4000) : null;
    if (!pageToken) return;
  }
}

/** The daily rollups of the activity data types, one payload per range of at most 14 days. */
async function pullRollups(run: PullRun): Promise<void> {
  if (!run.granted(ACTIVITY_SCOPE)) return;
  for (let from = run.firstDate; from < run.endDate; from = addDays(from, ROLLUP_DAYS)) {
    const to = addDays(from, ROLLUP_DAYS) < run.endDate ? addDays(from, ROLLUP_DAYS) : run.endDate;
    const responses: Record<string, unknown> = {};
    for (const dataType of ROLLUP_TYPES) {
      const body = { range: { start: { date: dateObject(from) }, end: { date: dateObject(to) } }, windowSizeDays: 1 };
      responses[dataType] = await run.context.request(apiUrl(run.base, `/v4/users/me/dataTypes/${dataType}/dataPoints:dailyRollUp`), { method: "POST", body });
    }
    await run.context.store("google_health-daily-rollups", { timezone: run.timezone, responses } satisfies DailyRollupsPayload);
  }
}

/** The user's IANA zone from the settings; null when the settings scope is missing or the settings name none. */
async function settingsTimezone(run: Pick<PullRun, "context" | "base" | "granted">): Promise<string | null> {
  if (!run.granted(SETTINGS_SCOPE)) return null;
  const settings = await run.context.request(apiUrl(run.base, "/v4/users/me/settings"));
  const timezone = isObject(settings) ? textOf(settings.timeZone, 64) : null;
  return timezone && isKnownZone(timezone) ? timezone : null;
}

/**
 * Pulls the window: the daily rollups of the activity types, then every listed data type
 * page by page (`pageToken`). Data types whose scope the user did not grant are skipped.
 */
export async function pullGoogleHealth(context: PullContext): Promise<void> {
  const granted = (scope: string) => context.scopes.length === 0 || context.scopes.includes(scope);
  const base = context.urls.api;
  const timezone = await settingsTimezone({ context, base, granted });
  const zone = timezone ?? "UTC";
  const pad = timezone ? 0 : 1;
  // Not beyond now: days to come have no data yet.
  const lastInstant = new Date(Math.max(context.window.start.getTime(), Math.min(context.window.end.getTime() - 1, Date.now())));
  const run: PullRun = {
    context,
    base,
    timezone,
    firstDate: addDays(localDateOf(context.window.start, zone), -pad),
    endDate: addDays(localDateOf(lastInstant, zone), 1 + pad),
    granted,
  };
  await pullRollups(run);
  for (const type of LISTED_TYPES) await pullListed(run, type);
}
