// The Fitbit subscriber endpoint: the verification handshake and signed notifications.
import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import type { InboundAnswer, InboundRequest, NotificationHandler, NotifiedPull, ProviderKeys, RevokedGrant } from "@svc/core";
import { dateOf, isObject, textOf } from "./json.ts";

/** The collections svc subscribes to and pulls on a notification. */
export const FITBIT_COLLECTIONS = ["activities", "body", "sleep"] as const;

/** Equal strings, compared in constant time (over their digests, so lengths do not leak either). */
function sameText(a: string, b: string): boolean {
  return timingSafeEqual(createHash("sha256").update(a).digest(), createHash("sha256").update(b).digest());
}

/** X-Fitbit-Signature: base64(HMAC-SHA1(body, CLIENT_SECRET + "&")). */
function signedBy(keys: ProviderKeys, rawBody: Buffer, signature: string): boolean {
  if (!keys.CLIENT_SECRET) return false;
  const expected = createHmac("sha1", `${keys.CLIENT_SECRET}&`).update(rawBody).digest("base64");
  return sameText(expected, signature);
}

/**
 * A notification's `date` is the user's local date; the zone is not known here (no
 * provider call while answering), so the pull covers that date in any zone.
 */
function windowOfDate(date: string): { start: Date; end: Date } {
  const midnightUtc = Date.parse(`${date}T00:00:00Z`);
  return { start: new Date(midnightUtc - 14 * 3_600_000), end: new Date(midnightUtc + 36 * 3_600_000) };
}

function verification(request: InboundRequest, keySets: readonly ProviderKeys[]): InboundAnswer {
  const code = request.query.verify;
  const known = typeof code === "string" && keySets.some((keys) => !!keys.SUBSCRIBER_VERIFICATION_CODE && sameText(keys.SUBSCRIBER_VERIFICATION_CODE, code));
  // Fitbit checks both answers: 204 to the right code, 404 to a wrong one.
  return { status: known ? 204 : 404 };
}

function notification(request: InboundRequest, keySets: readonly ProviderKeys[]): InboundAnswer {
  const signature = request.headers["x-fitbit-signature"];
  if (!signature || !keySets.some((keys) => signedBy(keys, request.rawBody, signature))) return { status: 404 };
  let body: unknown;
  try {
    body = JSON.parse(request.rawBody.toString("utf8"));
  } catch {
    return { status: 400, body: "The notification is not JSON." };
  }
  if (!Array.isArray(body)) return { status: 400, body: "The notification is not a list." };
  const pulls = new Map<string, NotifiedPull>();
  const revoked = new Map<string, RevokedGrant>();
  for (const item of body) {
    if (!isObject(item) || item.ownerType !== "user") continue;
    const owner = textOf(item.ownerId, 64);
    if (owner && item.collectionType === "userRevokedAccess") {
      revoked.set(owner, { providerUserId: owner });
      continue;
    }
    const collection = FITBIT_COLLECTIONS.find((name) => name === item.collectionType);
    const date = dateOf(item.date);
    // Collections svc does not read ask for no pull.
    if (!owner || !collection || !date) continue;
    pulls.set(`${owner}\u0000${collection}\u0000${date}`, { providerUserId: owner, dataType: collection, window: windowOfDate(date) });
  }
  // A user who revoked access is not pulled: Fitbit would refuse the grant.
  for (const owner of revoked.keys()) {
    for (const [key, pull] of pulls) if (pull.providerUserId === owner) pulls.delete(key);
  }
  return revoked.size > 0 ? { status: 204, pulls: [...pulls.values()], revoked: [...revoked.values()] } : { status: 204, pulls: [...pulls.values()] };
}

export const fitbitNotifications: NotificationHandler = {
  handle(request, keySets) {
    if (request.method === "GET") return verification(request, keySets);
    if (request.method === "POST") return notification(request, keySets);
    return { status: 405 };
  },
};
