// Pulling a window of Strava activities: the athlete's activity list by start time, page by
// page until an empty page, and the streams (route, heart rate, cadence, power) of each.

import { ProviderError, type PullContext } from "@svc/core";
import { apiUrl, idOf, isObject } from "./json.ts";
import type { StravaStreamsPayload } from "./parse-streams.ts";

/** Strava's largest page. */
const PER_PAGE = 200;
/** A list that never ends is the API misbehaving, not 100,000 activities in one window. */
const MAX_PAGES = 500;
const STREAM_KEYS = "time,heartrate,latlng,altitude,distance,cadence,watts";

/**
 * Activities that start in the window (half open). Strava's `after` and `before` are
 * exclusive epoch seconds, so `after` is one second before the window: an activity on the
 * second the window starts is listed (one listed twice by neighbouring windows is stored
 * once, by its id). Strava documents that a page can be short before the last one, so
 * pages are read until one is empty.
 */
export async function pullStravaActivities(context: PullContext): Promise<void> {
  if (context.dataType !== null && context.dataType !== "activity") return;
  const after = Math.floor(context.window.start.getTime() / 1000) - 1;
  const before = Math.ceil(context.window.end.getTime() / 1000);
  for (let page = 1; page <= MAX_PAGES; page++) {
    const url = apiUrl(context.urls.api, "/athlete/activities");
    url.searchParams.set("after", String(after));
    url.searchParams.set("before", String(before));
    url.searchParams.set("page", String(page));
    url.searchParams.set("per_page", String(PER_PAGE));
    const activities = await context.request(url);
    if (!Array.isArray(activities)) throw new ProviderError("failed", "GET /athlete/activities answered something other than a list.");
    if (activities.length === 0) return;
    await context.store("strava-activities", activities);
    for (const activity of activities) await pullStreams(context, activity);
  }
  throw new ProviderError("failed", `GET /athlete/activities gave more than ${MAX_PAGES} pages for one window.`);
}

/** The streams of one activity; manual activities have none, and one deleted meanwhile (404) is skipped. */
async function pullStreams(context: PullContext, activity: unknown): Promise<void> {
  if (!isObject(activity) || activity.manual === true) return;
  const id = idOf(activity.id);
  if (!id) return; // the parser rejects it with the page
  const url = apiUrl(context.urls.api, `/activities/${id}/streams`);
  url.searchParams.set("keys", STREAM_KEYS);
  url.searchParams.set("key_by_type", "true");
  let streams: unknown;
  try {
    streams = await context.request(url);
  } catch (error) {
    if (error instanceof ProviderError && error.status === 404) return;
    throw error;
  }
  const payload: StravaStreamsPayload = { activity, streams };
  await context.store("strava-activity-streams", payload);
}
