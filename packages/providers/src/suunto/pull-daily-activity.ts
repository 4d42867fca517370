// Daily activity statistics (GET /247samples/daily-activity-statistics): steps and energy per
// UTC day, asked for the window's whole UTC days at most 28 days at a time (Suunto's longest
// interval). Each answer is stored as it is.

import { ProviderError, type PullContext } from "@svc/core";
import { suuntoRequest } from "./api.ts";
import { apiUrl } from "./json.ts";
import { SUUNTO_DAILY_ACTIVITY_FORMAT } from "./daily-activity.ts";

const DAY_MS = 86_400_000;
const MAX_DAYS = 28;

export async function pullSuuntoDailyActivity(context: PullContext): Promise<void> {
  const first = Math.floor(context.window.start.getTime() / DAY_MS) * DAY_MS;
  const end = Math.ceil(context.window.end.getTime() / DAY_MS) * DAY_MS;
  for (let from = first; from < end; from += MAX_DAYS * DAY_MS) {
    const to = Math.min(from + MAX_DAYS * DAY_MS, end);
    const url = apiUrl(context.urls.api, "/247samples/daily-activity-statistics");
    url.searchParams.set("startdate", utcDateTime(from));
    url.searchParams.set("enddate", utcDateTime(to - 1000));
    const answer = await suuntoRequest(context, url);
    if (!Array.isArray(answer)) throw new ProviderError("failed", "GET /247samples/daily-activity-statistics answered something other than a list of statistics.");
    if (answer.length > 0) await context.store(SUUNTO_DAILY_ACTIVITY_FORMAT, answer);
  }
}

/** `2026-11-27T00:00:00`: the API's ISO 8601 date and time, in UTC. */
function utcDateTime(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19);
}
