// Pulling a window of Wahoo workouts: the user's workout list page by page, the summary of
// each finished workout in the window, and the workout's FIT file from the address its
// summary names. Each workout is stored as one payload with the file's bytes in it (base64),
// so the activity-file pipeline's FIT parser reads the route, laps and samples.

import { ProviderError, type PullContext } from "@svc/core";
import { apiUrl, idOf, instantOf, isObject, type JsonObject } from "./json.ts";
import { WAHOO_WORKOUT_FORMAT, type WahooWorkoutPayload } from "./workout.ts";

/** The documented default page size of List workouts. */
const PER_PAGE = 30;
/** A list that never ends is the API misbehaving, not 6,000 workouts in one window. */
const MAX_PAGES = 200;

/**
 * Workouts whose `starts` is in the window (half open). List workouts takes no dates, so pages
 * are read until one is empty or the list's `total` is reached; when the answer says it is
 * sorted by `starts`, descending, reading stops at the first page that reaches before the window.
 */
export async function pullWahooWorkouts(context: PullContext): Promise<void> {
  if (context.dataType !== null && context.dataType !== "workout_summary") return;
  for (let page = 1; page <= MAX_PAGES; page++) {
    const url = apiUrl(context.urls.api, "/v1/workouts");
    url.searchParams.set("page", String(page));
    url.searchParams.set("per_page", String(PER_PAGE));
    const answer = await context.request(url);
    if (!isObject(answer) || !Array.isArray(answer.workouts)) throw new ProviderError("failed", "GET /v1/workouts answered something other than a workout list.");
    const workouts = answer.workouts;
    if (workouts.length === 0) return;
    let reachedBefore = false;
    for (const workout of workouts) {
      const starts = isObject(workout) ? instantOf(workout.starts) : null;
      if (starts && starts < context.window.start) reachedBefore = true;
      if (!isObject(workout) || !starts || starts < context.window.start || starts >= context.window.end) continue;
      await pullWorkout(context, workout);
    }
    if (reachedBefore && newestFirst(answer)) return;
    const total = typeof answer.total === "number" ? answer.total : Number.POSITIVE_INFINITY;
    if (page * PER_PAGE >= total) return;
  }
  throw new ProviderError("failed", `GET /v1/workouts gave more than ${MAX_PAGES} pages for one window.`);
}

function newestFirst(answer: JsonObject): boolean {
  return answer.sort === "starts" && typeof answer.order === "string" && /^desc/i.test(answer.order);
}

/**
 * One workout: its summary (in the list item, else Get workout summary), then its FIT file.
 * A workout without a summary is not finished (or only planned): nothing is stored, the
 * summary's webhook or a later pull brings it.
 */
async function pullWorkout(context: PullContext, workout: JsonObject): Promise<void> {
  const id = idOf(workout.id);
  if (!id) return;
  const summary = "workout_summary" in workout ? workout.workout_summary : await fetchSummary(context, id);
  if (!isObject(summary)) return;
  const payload: WahooWorkoutPayload = { workout, workout_summary: summary, fit_file: await downloadFit(context, summary) };
  await context.store(WAHOO_WORKOUT_FORMAT, payload);
}

async function fetchSummary(context: PullContext, workoutId: string): Promise<unknown> {
  try {
    return await context.request(apiUrl(context.urls.api, `/v1/workouts/${workoutId}/workout_summary`));
  } catch (error) {
    if (error instanceof ProviderError && error.status === 404) return null;
    throw error;
  }
}

/**
 * The summary's FIT file (`file.url`, a file host address that takes no token), base64; null
 * when the summary names none. A file the host refuses or no longer has (4xx) leaves the
 * workout with its summary's figures only; a rate limit or a failure of the host is retried.
 */
async function downloadFit(context: PullContext, summary: JsonObject): Promise<string | null> {
  const url = isObject(summary.file) && typeof summary.file.url === "string" ? httpsUrl(summary.file.url) : null;
  if (!url) return null;
  try {
    const bytes = await context.request(url, { auth: "none", response: "bytes" });
    return Buffer.isBuffer(bytes) && bytes.length > 0 ? bytes.toString("base64") : null;
  } catch (error) {
    const status = error instanceof ProviderError ? error.status : null;
    if (status !== null && status >= 400 && status < 500 && status !== 429) return null;
    throw error;
  }
}

function httpsUrl(value: string): URL | null {
  try {
    const url = new URL(value);
    return url.protocol === "https:" ? url : null;
  } catch {
    return null;
  }
}
