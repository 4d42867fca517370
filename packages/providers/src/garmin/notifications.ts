// Garmin's ping and push notifications. Both are POSTs of `{<summary type>: [items]}`:
// a ping item is `{userId, callbackURL}` (new data to pull), a push item is the summary
// itself with its `userId` (Garmin's push protocol delivers the data in the notification).

import type { InboundAnswer, InboundRequest, NotificationHandler, NotifiedPull, ProviderKeys, PushedPayload, RevokedGrant } from "@svc/core";
import { isObject, textOf } from "./fields.ts";
import { secretEqual } from "./secret-equal.ts";
import { summaryTypeNamed, summaryTypeOfNotificationKey, type GarminSummaryType } from "./summary-types.ts";

/** Garmin's user ids are opaque tokens of letters, digits and dashes. */
const USER_ID = /^[A-Za-z0-9-]{1,64}$/;
/** Where the optional NOTIFICATION_TOKEN goes in the endpoint URL configured at Garmin. */
export const NOTIFICATION_TOKEN_PARAMETER = "svc_token";
const EARLIEST_UPLOAD = Date.UTC(2010, 0, 1) / 1000;
/** How far past its handling a ping's upload window may end (clocks that disagree). */
const FUTURE_SLACK_SECONDS = 86_400;

export const garminNotifications: NotificationHandler = {
  handle(request: InboundRequest, keySets: readonly ProviderKeys[]): InboundAnswer {
    if (keySets.length === 0) return { status: 404 };
    if (request.method !== "POST") return { status: 405 };
    const verified = applicationCheck(request, keySets);
    if (verified === "unknown") return { status: 401 };
    let body: unknown;
    try {
      body = JSON.parse(request.rawBody.toString("utf8"));
    } catch {
      return { status: 400, body: { error: "not a Garmin notification" } };
    }
    if (!isObject(body)) return { status: 400, body: { error: "not a Garmin notification" } };
    return { status: 200, ...notified(body, Date.now(), verified === "token") };
  },
};

/**
 * Garmin signs nothing. A notification is taken when its `garmin-client-id` header (sent
 * with every ping and push) is an application's CLIENT_ID and, when that application has a
 * NOTIFICATION_TOKEN, the endpoint URL's `svc_token` parameter is that token (Garmin lets the
 * endpoint URL carry a query). Without a NOTIFICATION_TOKEN only the shape is checked, and a
 * forged push could bring data for a Garmin user id the forger knows: docs/providers.md says
 * to set one when push mode is on.
 */
function applicationCheck(request: InboundRequest, keySets: readonly ProviderKeys[]): "token" | "client_id" | "unknown" {
  const clientId = request.headers["garmin-client-id"];
  const token = request.query[NOTIFICATION_TOKEN_PARAMETER];
  if (!clientId) return "unknown";
  let verified: "token" | "client_id" | "unknown" = "unknown";
  for (const keys of keySets) {
    if (!keys.CLIENT_ID || !secretEqual(clientId, keys.CLIENT_ID)) continue;
    if (!keys.NOTIFICATION_TOKEN) verified = "client_id";
    else if (token !== undefined && secretEqual(token, keys.NOTIFICATION_TOKEN)) return "token";
  }
  return verified;
}

/** `tokenVerified`: the request carried the application's NOTIFICATION_TOKEN (deregistrations are then taken as revocations). */
function notified(
  body: Record<string, unknown>,
  now: number,
  tokenVerified: boolean,
): { pulls: NotifiedPull[]; payloads: PushedPayload[]; revoked?: RevokedGrant[] } {
  const pulls = new Map<string, NotifiedPull>();
  const pushed = new Map<string, PushedPayload & { payload: unknown[] }>();
  const revoked = new Map<string, RevokedGrant>();
  for (const [key, items] of Object.entries(body)) {
    if (!Array.isArray(items)) continue;
    if (key === "deregistrations") {
      for (const item of items) {
        const userId = deregisteredUserId(item);
        if (!userId) continue;
        if (tokenVerified) revoked.set(userId, { providerUserId: userId });
        else addDeregistrationPull(pulls, userId, now);
      }
      continue;
    }
    // Summary types svc does not read (healthSnapshot, skinTemp, bloodPressures, activityFiles,
    // moveIQActivities, userPermissionsChange...) are acknowledged and left alone.
    const type = summaryTypeOfNotificationKey(key);
    if (!type) continue;
    for (const item of items) {
      if (!isObject(item)) continue;
      const userId = textOf(item.userId, 64);
      if (!userId || !USER_ID.test(userId)) continue;
      if ("callbackURL" in item) addPing(pulls, type, userId, item.callbackURL, now);
      else if (textOf(item.summaryId)) addPush(pushed, type, userId, item);
    }
  }
  if (revoked.size === 0) return { pulls: [...pulls.values()], payloads: [...pushed.values()] };
  // A deregistered user is neither pulled nor stored: the grant is gone.
  const stillGranted = (item: { providerUserId: string }) => !revoked.has(item.providerUserId);
  return { pulls: [...pulls.values()].filter(stillGranted), payloads: [...pushed.values()].filter(stillGranted), revoked: [...revoked.values()] };
}

/**
 * A ping: pull that user's summaries of that type uploaded in the callback URL's window. The
 * callback URL itself is never fetched (a forged one could point anywhere, and its pull
 * token would be kept with the run): only its upload window is read, and only when its path
 * names the type of the list it came in; the pull reads svc's configured Garmin API.
 */
function addPing(pulls: Map<string, NotifiedPull>, type: GarminSummaryType, userId: string, callbackURL: unknown, now: number): void {
  let url: URL;
  try {
    url = new URL(String(callbackURL));
  } catch {
    return;
  }
  const lastSegment = url.pathname.split("/").pop()?.toLowerCase();
  if (lastSegment !== type.endpoint.toLowerCase()) return;
  const start = epochSecondsOf(url.searchParams.get("uploadStartTimeInSeconds"));
  const end = epochSecondsOf(url.searchParams.get("uploadEndTimeInSeconds"));
  if (start === undefined || end === undefined || end < start || end > now / 1000 + FUTURE_SLACK_SECONDS) return;
  // The pull asks for exactly this upload window again (the same two numbers as the callback URL).
  const window = { start: new Date(start * 1000), end: new Date(end * 1000) };
  pulls.set(`${userId}\u0000${type.name}\u0000${start}\u0000${end}`, { providerUserId: userId, dataType: type.name, window });
}

function epochSecondsOf(value: string | null): number | undefined {
  if (value === null || !/^\d{9,11}$/.test(value)) return undefined;
  const seconds = Number(value);
  return seconds >= EARLIEST_UPLOAD ? seconds : undefined;
}

/**
 * A push: the summaries themselves, one payload per user and type (the same list the summary
 * endpoint would answer). `userAccessToken`, which older pushes still carry, is a credential
 * and is never stored.
 */
function addPush(pushed: Map<string, PushedPayload & { payload: unknown[] }>, type: GarminSummaryType, userId: string, item: Record<string, unknown>): void {
  const { userAccessToken: _token, ...summary } = item;
  const key = `${userId}\u0000${type.format}`;
  const known = pushed.get(key);
  if (known) known.payload.push(summary);
  else pushed.set(key, { providerUserId: userId, format: type.format, payload: [summary] });
}

function deregisteredUserId(item: unknown): string | undefined {
  const userId = isObject(item) ? textOf(item.userId, 64) : undefined;
  return userId && USER_ID.test(userId) ? userId : undefined;
}

/**
 * The user removed svc's access in Garmin Connect. With the NOTIFICATION_TOKEN checked, the
 * user is answered as revoked. Without it (the body could be forged) a one-minute pull of
 * dailies, which Garmin refuses with the withdrawn grant, so the engine moves the connection
 * the way it does for any refused grant.
 */
function addDeregistrationPull(pulls: Map<string, NotifiedPull>, userId: string, now: number): void {
  const dailies = summaryTypeNamed("dailies");
  if (!dailies) return;
  const end = Math.floor(now / 1000);
  pulls.set(`${userId}\u0000deregistration`, { providerUserId: userId, dataType: dailies.name, window: { start: new Date((end - 60) * 1000), end: new Date(end * 1000) } });
}
