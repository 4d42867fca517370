// The user's workouts of a window: GET /v3/workouts with `since` and `until` (epoch
// milliseconds of the start time) page by page (`limit`, `offset`), and each workout's FIT
// file (GET /v3/workouts/{workoutKey}/fit). Each workout is stored as one payload with the
// file's bytes in it (base64), so the activity-file pipeline's FIT parser reads the route,
// laps and samples.

import { ProviderError, type PullContext } from "@svc/core";
import { suuntoRequest } from "./api.ts";
import { apiUrl, instantOfMs, isObject, workoutKeyOf, type JsonObject } from "./json.ts";
import { SUUNTO_WORKOUT_FORMAT, type SuuntoWorkoutPayload } from "./workout.ts";

/** The most workouts one page of the list gives. */
const PAGE_SIZE = 100;
/** A list that never ends is the API misbehaving, not 20,000 workouts in one window. */
const MAX_PAGES = 200;

export async function pullSuuntoWorkouts(context: PullContext): Promise<void> {
  for (let page = 0; page < MAX_PAGES; page++) {
    const url = apiUrl(context.urls.api, "/v3/workouts");
    url.searchParams.set("since", String(context.window.start.getTime()));
    url.searchParams.set("until", String(context.window.end.getTime() - 1));
    url.searchParams.set("limit", String(PAGE_SIZE));
    url.searchParams.set("offset", String(page * PAGE_SIZE));
    const answer = await suuntoRequest(context, url);
    if (!isObject(answer) || !Array.isArray(answer.payload)) throw new ProviderError("failed", "GET /v3/workouts answered something other than a workout list.");
    for (const workout of answer.payload) {
      const start = isObject(workout) ? instantOfMs(workout.startTime) : null;
      // The list is asked for the window; a workout outside it (clock or filter differences) is left to its own window.
      if (!isObject(workout) || !start || start < context.window.start || start >= context.window.end) continue;
      await pullWorkout(context, workout);
    }
    if (answer.payload.length < PAGE_SIZE) return;
  }
  throw new ProviderError("failed", `GET /v3/workouts gave more than ${MAX_PAGES} pages for one window.`);
}

async function pullWorkout(context: PullContext, workout: JsonObject): Promise<void> {
  const key = workoutKeyOf(workout.workoutKey);
  if (!key) return;
  const payload: SuuntoWorkoutPayload = { workout, fit_file: await downloadFit(context, key) };
  await context.store(SUUNTO_WORKOUT_FORMAT, payload);
}

/**
 * The workout's FIT file, base64. A workout without a file (a manual entry) or a file Suunto
 * refuses or no longer has (4xx) leaves the workout with its summary's figures; a rate limit
 * or a failure of the API is retried.
 */
async function downloadFit(context: PullContext, key: string): Promise<string | null> {
  try {
    const bytes = await suuntoRequest(context, apiUrl(context.urls.api, `/v3/workouts/${encodeURIComponent(key)}/fit`), { response: "bytes" });
    return Buffer.isBuffer(bytes) && bytes.length > 0 ? bytes.toString("base64") : null;
  } catch (error) {
    const status = error instanceof ProviderError ? error.status : null;
    if (status !== null && status >= 400 && status < 500 && status !== 401 && status !== 429) return null;
    throw error;
  }
}
