import { createHmac, timingSafeEqual } from "node:crypto";
import { emptyParsedRecords, type InboundAnswer, type InboundRequest, type ParsedRecords, type ProviderKeys } from "@svc/core";
import { MalformedUpload } from "../parsed-records.ts";
import { idOf, isObject, textOf } from "./documents.ts";
import { recoveryExternalId } from "./recovery.ts";

export const WHOOP_NOTIFICATION_TYPES = ["recovery", "sleep", "workout"] as const;
export const WHOOP_DELETION_FORMAT = "whoop-deletion";

/**
 * WHOOP's webhook (v2 model): a POST signed with X-WHOOP-Signature, the base64 HMAC-SHA256
 * of X-WHOOP-Signature-Timestamp + the raw body with the app's client secret. `<type>.updated`
 * pulls that type for the user; `<type>.deleted` (nothing left to pull) hands the deleted
 * record's id on as a deletion. Recovery events name the recovery's sleep.
 */
export function handleWhoopNotification(request: InboundRequest, keySets: readonly ProviderKeys[]): InboundAnswer {
  if (request.method !== "POST") return { status: 405 };
  if (!isSigned(request, keySets)) return { status: 401, body: { error: "The webhook's signature does not verify." } };

  let event: unknown;
  try {
    event = JSON.parse(request.rawBody.toString("utf8"));
  } catch {
    return { status: 400, body: { error: "The webhook is not JSON." } };
  }
  const userId = isObject(event) ? idOf(event.user_id) : null;
  if (!isObject(event) || !userId) return { status: 400, body: { error: "The webhook names no user_id." } };
  const [resource, action] = (textOf(event.type) ?? "").split(".");
  if (!resource || !(WHOOP_NOTIFICATION_TYPES as readonly string[]).includes(resource)) return { status: 200 };

  if (action === "deleted") {
    const id = idOf(event.id);
    if (!id) return { status: 200 };
    return { status: 200, payloads: [{ providerUserId: userId, format: WHOOP_DELETION_FORMAT, payload: { type: `${resource}.deleted`, id } }] };
  }
  if (action !== "updated") return { status: 200 };
  return { status: 200, pulls: [{ providerUserId: userId, dataType: resource }] };
}

function isSigned(request: InboundRequest, keySets: readonly ProviderKeys[]): boolean {
  const signature = request.headers["x-whoop-signature"];
  const timestamp = request.headers["x-whoop-signature-timestamp"];
  if (!signature || !timestamp) return false;
  const given = Buffer.from(signature.trim());
  return keySets.some((keys) => {
    if (!keys.CLIENT_SECRET) return false;
    const expected = Buffer.from(createHmac("sha256", keys.CLIENT_SECRET).update(timestamp).update(request.rawBody).digest("base64"));
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

/** whoop-deletion: the records made from the deleted sleep, workout or recovery. */
export function parseWhoopDeletion(payload: unknown): ParsedRecords {
  const id = isObject(payload) ? textOf(payload.id) : null;
  const type = isObject(payload) ? textOf(payload.type) : null;
  if (!id || !type) throw new MalformedUpload("payload", "a whoop-deletion payload names a type and an id");
  return { ...emptyParsedRecords(), deletedExternalIds: [type === "recovery.deleted" ? recoveryExternalId(id) : id] };
}
