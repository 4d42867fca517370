import { createHmac, timingSafeEqual } from "node:crypto";
import { emptyParsedRecords, type InboundAnswer, type InboundRequest, type NotifiedPull, type ParsedRecords, type ProviderKeys, type PushedPayload } from "@svc/core";
import { MalformedUpload } from "../parsed-records.ts";
import { isObject, textOf } from "./documents.ts";

/** The data types svc subscribes to and pulls on notification (Oura's webhook `data_type`). */
export const OURA_NOTIFICATION_TYPES = ["daily_activity", "daily_sleep", "daily_readiness", "sleep", "daily_spo2", "workout"] as const;
export const OURA_EVENT_TYPES = ["create", "update", "delete"] as const;
export const OURA_DELETION_FORMAT = "oura-deletion";

/**
 * The verification token of an application's subscriptions: its WEBHOOK_VERIFICATION_TOKEN,
 * else one derived from its client secret (so no key is needed and every process agrees).
 */
export function verificationTokenOf(keys: ProviderKeys): string | null {
  if (keys.WEBHOOK_VERIFICATION_TOKEN) return keys.WEBHOOK_VERIFICATION_TOKEN;
  if (!keys.CLIENT_SECRET) return null;
  return createHmac("sha256", keys.CLIENT_SECRET).update("svc oura webhook verification token").digest("hex");
}

/**
 * Oura's inbound address: the subscription handshake (GET with verification_token and
 * challenge, answered `{challenge}`) and event notifications (POST signed with
 * x-oura-signature, the upper-case hex HMAC-SHA256 of x-oura-timestamp + body with the
 * client secret). An event is a ping: create/update pulls the named data type; delete
 * (nothing left to pull) hands the deleted document's id on as a deletion.
 */
export function handleOuraNotification(request: InboundRequest, keySets: readonly ProviderKeys[]): InboundAnswer {
  if (request.method === "GET") return answerHandshake(request, keySets);
  if (request.method !== "POST") return { status: 405 };
  if (!isSigned(request, keySets)) return { status: 401, body: { error: "The notification's signature does not verify." } };

  let event: unknown;
  try {
    event = JSON.parse(request.rawBody.toString("utf8"));
  } catch {
    return { status: 400, body: { error: "The notification is not JSON." } };
  }
  const userId = isObject(event) ? idOf(event.user_id) : null;
  if (!isObject(event) || !userId) return { status: 400, body: { error: "The notification names no user_id." } };
  const dataType = textOf(event.data_type);
  if (!dataType || !(OURA_NOTIFICATION_TYPES as readonly string[]).includes(dataType)) return { status: 200 };

  if (event.event_type === "delete") {
    const objectId = textOf(event.object_id);
    if (!objectId) return { status: 200 };
    const payload: PushedPayload = { providerUserId: userId, format: OURA_DELETION_FORMAT, payload: { data_type: dataType, object_id: objectId } };
    return { status: 200, payloads: [payload] };
  }
  const pull: NotifiedPull = { providerUserId: userId, dataType };
  return { status: 200, pulls: [pull] };
}

function answerHandshake(request: InboundRequest, keySets: readonly ProviderKeys[]): InboundAnswer {
  const token = request.query.verification_token;
  const challenge = request.query.challenge;
  if (!token || !challenge) return { status: 400, body: { error: "A verification needs verification_token and challenge." } };
  const known = keySets.some((keys) => {
    const expected = verificationTokenOf(keys);
    return expected !== null && sameText(token, expected);
  });
  if (!known) return { status: 401, body: { error: "The verification token is not this instance's." } };
  return { status: 200, body: { challenge } };
}

function isSigned(request: InboundRequest, keySets: readonly ProviderKeys[]): boolean {
  const signature = request.headers["x-oura-signature"];
  const timestamp = request.headers["x-oura-timestamp"];
  if (!signature || !timestamp) return false;
  return keySets.some((keys) => {
    if (!keys.CLIENT_SECRET) return false;
    const expected = createHmac("sha256", keys.CLIENT_SECRET).update(timestamp).update(request.rawBody).digest("hex").toUpperCase();
    return sameText(signature.trim().toUpperCase(), expected);
  });
}

/** Constant-time comparison of two strings (different lengths differ). */
function sameText(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function idOf(value: unknown): string | null {
  if (typeof value === "number" && Number.isSafeInteger(value)) return String(value);
  return textOf(value);
}

/** oura-deletion: the document a delete event named (its id is the external id of every record made from it). */
export function parseOuraDeletion(payload: unknown): ParsedRecords {
  const objectId = isObject(payload) ? textOf(payload.object_id) : null;
  if (!objectId) throw new MalformedUpload("payload", "an oura-deletion payload names an object_id");
  return { ...emptyParsedRecords(), deletedExternalIds: [objectId] };
}
