// Suunto's webhook: a JSON POST `{type, username, ...}` to the notification URL set in the
// application's settings, signed in `X-HMAC-SHA256-Signature` (HMAC SHA-256 of the raw body
// with the application's notification secret, hex: the key NOTIFICATION_SECRET). A request
// no key set verifies is refused (401). A verified WORKOUT_CREATED pulls that user's
// workouts a day either side of the workout's start; SUUNTO_247_ACTIVITY_CREATED,
// SUUNTO_247_SLEEP_CREATED and SUUNTO_247_RECOVERY_CREATED pull the user's daily activity,
// sleep or recovery of the last two days; other types (routes) are acknowledged. The body
// is never taken as data, though Suunto's 24/7 events carry their samples.

import { createHmac, timingSafeEqual } from "node:crypto";
import type { InboundAnswer, InboundRequest, NotificationHandler, NotifiedPull, ProviderKeys } from "@svc/core";
import { instantOfMs, isObject, type JsonObject } from "./json.ts";
import { jsonObjectBody } from "../json-fields.ts";

/** Events carry a workout summary or a day of 24/7 samples; anything much larger is not one. */
const MAX_BODY_BYTES = 1024 * 1024;
const HOUR_MS = 3_600_000;
/** Around the workout's start, for clocks that disagree. */
const AROUND_START_MS = 24 * HOUR_MS;
/** Without a workout start, and for 24/7 data: a watch synced late brings up to this much. */
const LOOKBACK_MS = 48 * HOUR_MS;

const DATA_TYPE_OF_247_EVENT: ReadonlyMap<unknown, string> = new Map([
  ["SUUNTO_247_ACTIVITY_CREATED", "daily_activity"],
  ["SUUNTO_247_SLEEP_CREATED", "sleep"],
  ["SUUNTO_247_RECOVERY_CREATED", "recovery"],
]);

export const suuntoNotifications: NotificationHandler = {
  handle(request: InboundRequest, keySets: readonly ProviderKeys[]): InboundAnswer {
    if (keySets.length === 0) return { status: 404 };
    if (request.method !== "POST") return { status: 405 };
    if (request.rawBody.length === 0 || request.rawBody.length > MAX_BODY_BYTES) return { status: 400, body: { error: "not a Suunto webhook event" } };
    if (!isSignedBy(request, keySets)) return { status: 401 };
    // A verified event svc cannot use is acknowledged: a failure would only make Suunto retry it.
    const body = jsonObjectBody(request.rawBody, MAX_BODY_BYTES);
    const username = body && typeof body.username === "string" && body.username.length > 0 && body.username.length <= 128 ? body.username : null;
    if (!body || !username) return { status: 200 };
    const pull = pullOf(body, username);
    return pull ? { status: 200, pulls: [pull] } : { status: 200 };
  },
};

function pullOf(body: JsonObject, username: string): NotifiedPull | null {
  const now = Date.now();
  if (body.type === "WORKOUT_CREATED") {
    const start = isObject(body.workout) ? instantOfMs(body.workout.startTime) : null;
    const window = start
      ? { start: new Date(start.getTime() - AROUND_START_MS), end: new Date(start.getTime() + AROUND_START_MS) }
      : { start: new Date(now - LOOKBACK_MS), end: new Date(now + HOUR_MS) };
    return { providerUserId: username, dataType: "workouts", window };
  }
  const dataType = DATA_TYPE_OF_247_EVENT.get(body.type);
  return dataType ? { providerUserId: username, dataType, window: { start: new Date(now - LOOKBACK_MS), end: new Date(now + HOUR_MS) } } : null;
}

function isSignedBy(request: InboundRequest, keySets: readonly ProviderKeys[]): boolean {
  const signature = request.headers["x-hmac-sha256-signature"]?.trim() ?? "";
  if (!/^[0-9a-f]{64}$/i.test(signature)) return false;
  const given = Buffer.from(signature, "hex");
  let verified = false;
  // Every application's secret is tried (no early exit), each compared in constant time.
  for (const keys of keySets) {
    const secret = keys.NOTIFICATION_SECRET;
    if (!secret) continue;
    const expected = createHmac("sha256", secret).update(request.rawBody).digest();
    if (timingSafeEqual(expected, given)) verified = true;
  }
  return verified;
}
