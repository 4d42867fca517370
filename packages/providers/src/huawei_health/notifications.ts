// Health Kit's data event notifications: a JSON POST per event of a user's subscription
// record, `{openId, eventType, eventTime, ...}`, signed in the `x-notification-signature`
// header: Base64 of HMAC-SHA256 over `openId_eventType_eventTime` keyed with the subscriber
// Secret of the Health Kit console (itself Base64, decoded before use). Health Kit expects
// 204. The body is never taken as data: a verified event pulls the part of the named user it
// concerns (samples, sleep or workouts) over the notification window; a user's revocation,
// account deletion or lapsed refresh token moves the user's connections to needs_reauth.

import { createHmac, timingSafeEqual } from "node:crypto";
import type { InboundAnswer, InboundRequest, NotificationHandler, ProviderKeys } from "@svc/core";
import { SLEEP_RECORD_TYPE } from "./sleep-records.ts";
import { jsonObjectBody } from "../json-fields.ts";

/** An event is a few identifiers and times; anything much larger is not one. */
const MAX_BODY_BYTES = 64 * 1024;
const MAX_FIELD_LENGTH = 256;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** Events that end the grant: the user cancelled the authorization, deleted the account, or the refresh token lapsed. */
const GRANT_ENDED = new Set(["USER_EVENT$REVOKE_ALL", "USER_EVENT$DELETE_USER", "USER_EVENT$REFRESH_TOKEN_INVALID"]);

export const huaweiNotifications: NotificationHandler = {
  handle(request: InboundRequest, keySets: readonly ProviderKeys[]): InboundAnswer {
    if (keySets.length === 0) return { status: 404 };
    // The console's connectivity test of the callback address expects 204.
    if (request.method === "GET") return { status: 204 };
    if (request.method !== "POST") return { status: 405 };
    const event = eventOf(request.rawBody);
    if (!event) return { status: 400, body: { error: "not a Health Kit event notification" } };
    if (!signedByKnownSubscriber(event, request.headers["x-notification-signature"], keySets)) return { status: 401 };
    if (GRANT_ENDED.has(event.eventType)) return { status: 204, revoked: [{ providerUserId: event.openId }] };
    const part = partOf(event.eventType);
    // A verified event svc reads nothing of is acknowledged: a refusal would only make Health Kit send it again.
    if (!part) return { status: 204 };
    return { status: 204, pulls: [{ providerUserId: event.openId, dataType: part }] };
  },
};

interface HuaweiEvent {
  openId: string;
  eventType: string;
  /** As sent (a number or its digits): the signature covers its text. */
  eventTime: string;
}

function eventOf(rawBody: Buffer): HuaweiEvent | null {
  const body = jsonObjectBody(rawBody, MAX_BODY_BYTES);
  if (!body) return null;
  const openId = boundedText(body.openId);
  const eventType = boundedText(body.eventType);
  const eventTime = typeof body.eventTime === "number" && Number.isSafeInteger(body.eventTime) ? String(body.eventTime) : typeof body.eventTime === "string" && /^\d{1,20}$/.test(body.eventTime) ? body.eventTime : null;
  return openId && eventType && eventTime ? { openId, eventType, eventTime } : null;
}

/** The event's pull: activity record events the workouts, sleep record events the sleep, sample set events the samples. */
function partOf(eventType: string): "samples" | "sleep" | "workouts" | null {
  const [type, , dataType] = eventType.split("$");
  if (type === "ACTIVITY_RECORD_EVENT") return "workouts";
  if (type === "HEALTH_RECORD_EVENT" && dataType === SLEEP_RECORD_TYPE) return "sleep";
  if (type === "SAMPLESET_EVENT") return "samples";
  return null;
}

function signedByKnownSubscriber(event: HuaweiEvent, header: string | undefined, keySets: readonly ProviderKeys[]): boolean {
  if (!header || header.length > MAX_FIELD_LENGTH || !BASE64.test(header)) return false;
  const given = Buffer.from(header, "base64");
  const content = `${event.openId}_${event.eventType}_${event.eventTime}`;
  let known = false;
  // Every application is compared (no early exit), each in constant time.
  for (const keys of keySets) {
    const secret = keys.SUBSCRIBER_SECRET ? Buffer.from(keys.SUBSCRIBER_SECRET, "base64") : Buffer.alloc(0);
    if (secret.length === 0) continue;
    const expected = createHmac("sha256", secret).update(content, "utf8").digest();
    if (given.length === expected.length && timingSafeEqual(given, expected)) known = true;
  }
  return known;
}

function boundedText(value: unknown): string | null {
  return typeof value === "string" && value !== "" && value.length <= MAX_FIELD_LENGTH && !/[\u0000-\u001f]/.test(value) ? value : null;
}
