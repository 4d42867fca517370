import { createHmac, timingSafeEqual } from "node:crypto";
import type { InboundAnswer, InboundRequest, NotificationHandler, NotifiedPull, ProviderKeys } from "@svc/core";
import type { PolarDataType } from "./pull.ts";
import { isCalendarDay, type JsonObject } from "./values.ts";
import { jsonObjectBody } from "../json-fields.ts";

/** A webhook payload is a few fields; anything much larger is not one. */
const MAX_BODY_BYTES = 16 * 1024;
const DAY_MS = 86_400_000;
/** List exercises covers the last 30 days: an exercise event pulls that span before the event. */
const EXERCISE_LOOKBACK_MS = 30 * DAY_MS;

/** Webhook events svc pulls for, and the data type each pulls. */
const DATA_TYPE_OF_EVENT: Readonly<Record<string, PolarDataType>> = {
  EXERCISE: "exercise",
  SLEEP: "sleep",
  CONTINUOUS_HEART_RATE: "continuous_heart_rate",
  ACTIVITY_SUMMARY: "activity",
};

/**
 * AccessLink webhooks: JSON `{event, user_id, entity_id | date, timestamp, url}` signed in
 * `Polar-Webhook-Signature` (HMAC SHA-256, hex, of the body with the webhook's
 * signature_secret_key: the key WEBHOOK_SIGNATURE_KEY). A request no key set verifies is
 * refused (401). The PING Polar sends when the webhook is created comes before anyone has
 * the key: it is answered 200 and does nothing. A verified event pulls its data type for its
 * user (a date's UTC day, or for an exercise the 30 days of List exercises); other events are
 * acknowledged without a pull. The body is never taken as data.
 */
export const polarNotifications: NotificationHandler = {
  handle(request: InboundRequest, keySets: readonly ProviderKeys[]): InboundAnswer {
    if (request.method !== "POST") return { status: 405 };
    const body = jsonObjectBody(request.rawBody, MAX_BODY_BYTES);
    if (body?.event === "PING") return { status: 200 };
    if (!isSignedBy(request, keySets)) return { status: 401 };
    // A signed body svc cannot use is acknowledged: a failure would only make Polar retry it.
    const dataType = body && typeof body.event === "string" ? DATA_TYPE_OF_EVENT[body.event] : undefined;
    const userId = body ? idOf(body.user_id) : null;
    if (!body || !dataType || !userId) return { status: 200 };
    const window = windowOf(body, dataType);
    if (!window) return { status: 200 };
    const pull: NotifiedPull = { providerUserId: userId, dataType, window };
    return { status: 200, pulls: [pull] };
  },
};

function isSignedBy(request: InboundRequest, keySets: readonly ProviderKeys[]): boolean {
  const signature = request.headers["polar-webhook-signature"]?.trim() ?? "";
  if (!/^[0-9a-f]{64}$/i.test(signature)) return false;
  const given = Buffer.from(signature, "hex");
  let verified = false;
  // Every key is tried (no early exit), each compared in constant time.
  for (const keys of keySets) {
    const key = keys.WEBHOOK_SIGNATURE_KEY;
    if (!key) continue;
    const expected = createHmac("sha256", key).update(request.rawBody).digest();
    if (timingSafeEqual(expected, given)) verified = true;
  }
  return verified;
}

function windowOf(body: JsonObject, dataType: PolarDataType): { start: Date; end: Date } | null {
  if (dataType === "exercise") {
    const sentAt = typeof body.timestamp === "string" ? Date.parse(body.timestamp) : Number.NaN;
    const at = Number.isNaN(sentAt) ? Date.now() : sentAt;
    return { start: new Date(at - EXERCISE_LOOKBACK_MS), end: new Date(at + DAY_MS) };
  }
  if (!isCalendarDay(body.date)) return null;
  const day = Date.parse(`${body.date}T00:00:00Z`);
  return { start: new Date(day), end: new Date(day + DAY_MS) };
}

function idOf(value: unknown): string | null {
  if (typeof value === "number" && Number.isSafeInteger(value) && value > 0) return String(value);
  if (typeof value === "string" && /^\d{1,20}$/.test(value)) return value;
  return null;
}
