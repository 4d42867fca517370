// Wahoo's webhook: a JSON POST `{event_type, webhook_token, user: {id}, workout_summary}` for
// each workout summary created or updated, to users who granted `offline_data`. Wahoo signs
// nothing: the body carries the webhook token set on the application in Wahoo's developer
// portal, compared with each application's WEBHOOK_TOKEN. The body is never taken as data: a
// verified event pulls that user's workouts around the workout's start, from the API itself.

import type { InboundAnswer, InboundRequest, NotificationHandler, ProviderKeys } from "@svc/core";
import { secretEqual } from "../strava/secret-equal.ts";
import { idOf, instantOf, isObject } from "./json.ts";
import { jsonObjectBody } from "../json-fields.ts";

/** An event's body is one summary with its workout; anything much larger is not one. */
const MAX_BODY_BYTES = 64 * 1024;
const HOUR_MS = 3_600_000;
/** Around the workout's start, for clocks that disagree. */
const AROUND_START_MS = 24 * HOUR_MS;
/** Without a start in the event: a workout synced late starts up to this long before the event. */
const LOOKBACK_MS = 72 * HOUR_MS;

export const wahooNotifications: NotificationHandler = {
  handle(request: InboundRequest, keySets: readonly ProviderKeys[]): InboundAnswer {
    if (keySets.length === 0) return { status: 404 };
    if (request.method !== "POST") return { status: 405 };
    const body = jsonObjectBody(request.rawBody, MAX_BODY_BYTES);
    if (!body) return { status: 400, body: { error: "not a Wahoo webhook event" } };
    if (!knownToken(body.webhook_token, keySets)) return { status: 401 };
    // A verified event svc cannot use is acknowledged: a failure would only make Wahoo retry it.
    const userId = isObject(body.user) ? idOf(body.user.id) : null;
    if (body.event_type !== "workout_summary" || !userId) return { status: 200 };
    return { status: 200, pulls: [{ providerUserId: userId, dataType: "workout_summary", window: windowOf(body.workout_summary) }] };
  },
};

function knownToken(token: unknown, keySets: readonly ProviderKeys[]): boolean {
  if (typeof token !== "string" || token === "" || token.length > 256) return false;
  let known = false;
  // Every application is compared (no early exit), each in constant time.
  for (const keys of keySets) {
    if (keys.WEBHOOK_TOKEN && secretEqual(token, keys.WEBHOOK_TOKEN)) known = true;
  }
  return known;
}

/** A day either side of the summary's workout start, or the last 72 hours when the event names none. */
function windowOf(summary: unknown): { start: Date; end: Date } {
  const starts = isObject(summary) && isObject(summary.workout) ? instantOf(summary.workout.starts) : null;
  if (starts) return { start: new Date(starts.getTime() - AROUND_START_MS), end: new Date(starts.getTime() + AROUND_START_MS) };
  const now = Date.now();
  return { start: new Date(now - LOOKBACK_MS), end: new Date(now + HOUR_MS) };
}
