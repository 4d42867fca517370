// Pulling a window of Ultrahuman metrics: GET /user_data/metrics once per date. A date is the
// user's own day (their zone, which svc does not know), so the dates run from the day before
// the window's start to the day of its end: every sample of the window is in one of them.

import { ProviderError, type PullContext } from "@svc/core";
import { addDays } from "../local-time.ts";
import { isObject } from "../json-fields.ts";
import { ULTRAHUMAN_METRICS_FORMAT, type UltrahumanMetricsPayload } from "./metrics.ts";

/** A window longer than this is a caller's mistake, not a backfill. */
const MAX_DAYS = 400;

export async function pullUltrahumanMetrics(context: PullContext): Promise<void> {
  const last = new Date(context.window.end.getTime() - 1).toISOString().slice(0, 10);
  let date = addDays(context.window.start.toISOString().slice(0, 10), -1);
  for (let count = 0; date <= last; count++, date = addDays(date, 1)) {
    if (count >= MAX_DAYS) throw new ProviderError("failed", `An Ultrahuman pull covers at most ${MAX_DAYS} days.`);
    const url = apiUrl(context.urls.api, "/user_data/metrics");
    url.searchParams.set("date", date);
    const answer = await context.request(url);
    if (!isObject(answer) || !isObject(answer.data) || !Array.isArray(answer.data.metric_data)) {
      throw new ProviderError("failed", "GET /user_data/metrics answered something other than a day's metrics.");
    }
    if (answer.data.metric_data.length === 0) continue;
    const payload: UltrahumanMetricsPayload = { date, metric_data: answer.data.metric_data };
    await context.store(ULTRAHUMAN_METRICS_FORMAT, payload);
  }
}

/** The API address with a path appended (the base carries /api/partners/v1). */
export function apiUrl(base: string, path: string): URL {
  return new URL(`${base.replace(/\/+$/, "")}${path}`);
}
