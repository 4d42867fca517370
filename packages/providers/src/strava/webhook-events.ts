// Strava's webhook: the subscription handshake (GET with hub.challenge) and event POSTs.
// Events carry no signature and no data: an event only names an athlete and an object, and
// is answered with a pull of that athlete's activities from Strava itself, or (athlete
// deauthorization of a configured subscription) with the athlete's connections moved to
// needs_reauth.

import type { InboundAnswer, InboundRequest, NotificationHandler, NotifiedPull, ProviderKeys } from "@svc/core";
import { idOf, isObject } from "./json.ts";
import { secretEqual } from "./secret-equal.ts";

/** An activity starts before Strava creates it (a device synced late): the pull after an event reaches this far back. */
export const STRAVA_EVENT_LOOKBACK_SECONDS = 72 * 3600;
/** And this far past the event, for clocks that disagree. */
export const STRAVA_EVENT_LOOKAHEAD_SECONDS = 3600;

const MAX_CHALLENGE_LENGTH = 256;
const EARLIEST_EVENT_TIME = Date.UTC(2009, 0, 1) / 1000;

interface StravaEvent {
  objectType: "activity" | "athlete";
  aspectType: "create" | "update" | "delete";
  ownerId: string;
  subscriptionId: string;
  eventTime: number;
  deauthorized: boolean;
}

export const stravaNotifications: NotificationHandler = {
  handle(request: InboundRequest, keySets: readonly ProviderKeys[]): InboundAnswer {
    if (keySets.length === 0) return { status: 404 };
    if (request.method === "GET") return handshake(request, keySets);
    if (request.method !== "POST") return { status: 405 };
    const event = readEvent(request.rawBody);
    if (!event) return { status: 400, body: { error: "not a Strava webhook event" } };
    const verified = subscriptionCheck(event.subscriptionId, keySets);
    if (verified === "unknown") return { status: 401 };
    // Only an event of a configured subscription ends a grant; one taken by its shape alone
    // gets the short pull Strava refuses (the provider itself confirms the revocation).
    if (event.deauthorized && verified === "subscription") return { status: 200, revoked: [{ providerUserId: event.ownerId }] };
    return { status: 200, pulls: pullsOf(event) };
  },
};

/**
 * Creating the subscription: Strava GETs the callback with `hub.mode=subscribe`,
 * `hub.challenge` and the `hub.verify_token` given when subscribing, and expects the
 * challenge echoed as JSON. The token must be one application's WEBHOOK_VERIFY_TOKEN.
 */
function handshake(request: InboundRequest, keySets: readonly ProviderKeys[]): InboundAnswer {
  const mode = request.query["hub.mode"];
  const challenge = request.query["hub.challenge"];
  const token = request.query["hub.verify_token"];
  if (mode !== "subscribe" || !challenge || challenge.length > MAX_CHALLENGE_LENGTH || !token) return { status: 400 };
  const known = keySets.some((keys) => keys.WEBHOOK_VERIFY_TOKEN !== undefined && keys.WEBHOOK_VERIFY_TOKEN !== "" && secretEqual(token, keys.WEBHOOK_VERIFY_TOKEN));
  return known ? { status: 200, body: { "hub.challenge": challenge } } : { status: 401 };
}

/**
 * Strava signs nothing; an event is taken when its subscription_id is an application's
 * WEBHOOK_SUBSCRIPTION_ID, or by its shape alone when an application has none configured
 * (documented: configure it on every application). The athlete must still be one of a
 * connection (the engine finds connections by provider user id), and a pull only reads
 * Strava with that athlete's own grant.
 */
function subscriptionCheck(subscriptionId: string, keySets: readonly ProviderKeys[]): "subscription" | "shape" | "unknown" {
  let unconfigured = false;
  for (const keys of keySets) {
    const expected = keys.WEBHOOK_SUBSCRIPTION_ID;
    if (!expected) unconfigured = true;
    else if (secretEqual(subscriptionId, expected)) return "subscription";
  }
  return unconfigured ? "shape" : "unknown";
}

function readEvent(rawBody: Buffer): StravaEvent | null {
  let body: unknown;
  try {
    body = JSON.parse(rawBody.toString("utf8"));
  } catch {
    return null;
  }
  if (!isObject(body)) return null;
  const { object_type: objectType, aspect_type: aspectType, event_time: eventTime } = body;
  if (objectType !== "activity" && objectType !== "athlete") return null;
  if (aspectType !== "create" && aspectType !== "update" && aspectType !== "delete") return null;
  const ownerId = idOf(body.owner_id);
  const subscriptionId = idOf(body.subscription_id);
  if (!ownerId || !subscriptionId || !idOf(body.object_id)) return null;
  if (typeof eventTime !== "number" || !Number.isInteger(eventTime) || eventTime < EARLIEST_EVENT_TIME) return null;
  const updates = isObject(body.updates) ? body.updates : {};
  // Strava sends `"authorized": "false"` (a string) when the athlete revokes the application.
  const deauthorized = objectType === "athlete" && (updates.authorized === "false" || updates.authorized === false);
  return { objectType, aspectType, ownerId, subscriptionId, eventTime, deauthorized };
}

/**
 * Activity created, updated or deleted: the athlete's activities around the event are pulled
 * again (a pull cannot show a deletion: the deleted workout stays, see docs/providers.md).
 * Athlete deauthorization of an event taken by its shape alone: a short pull, which Strava
 * refuses (401) with the revoked grant, so the engine moves the connection to needs_reauth
 * (one of a configured subscription is answered as revoked instead). Other athlete updates
 * need nothing.
 */
function pullsOf(event: StravaEvent): NotifiedPull[] {
  const at = event.eventTime * 1000;
  if (event.objectType === "activity") {
    const window = { start: new Date(at - STRAVA_EVENT_LOOKBACK_SECONDS * 1000), end: new Date(at + STRAVA_EVENT_LOOKAHEAD_SECONDS * 1000) };
    return [{ providerUserId: event.ownerId, dataType: "activity", window }];
  }
  if (event.deauthorized) return [{ providerUserId: event.ownerId, dataType: "activity", window: { start: new Date(at - 3600_000), end: new Date(at) } }];
  return [];
}
