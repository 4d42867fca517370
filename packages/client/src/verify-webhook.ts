import { Webhook, WebhookVerificationError as LibraryVerificationError } from "standardwebhooks";
import type { WebhookEvent } from "./webhook-events.ts";

/** A webhook that must not be trusted: bad or missing signature, stale timestamp, or a body that is not an event. */
export class WebhookVerificationError extends Error {
  override name = "WebhookVerificationError";
}

const SECRET = /^whsec_[A-Za-z0-9+/]+={0,2}$/;

export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

/**
 * Checks a webhook of svc (Standard Webhooks: HMAC-SHA256 over id, timestamp and the raw
 * body, timestamp within 5 minutes) and returns its event. `rawBody` must be the bytes as
 * received, before any JSON parsing. `secret` is the whsec_… value svc answered when the
 * endpoint was created or its secret rotated. A type newer than this client (an endpoint
 * with empty event_types also gets types added later) is returned as is: keep a default
 * branch when switching on `type`.
 */
export function verifyWebhook(secret: string, rawBody: string | Uint8Array, headers: WebhookHeaders): WebhookEvent {
  if (!SECRET.test(secret)) throw new TypeError("The webhook secret is not one svc issues (whsec_ followed by base64).");
  const payload = typeof rawBody === "string" ? rawBody : new TextDecoder().decode(rawBody);
  let event: unknown;
  try {
    event = new Webhook(secret).verify(payload, headerRecord(headers));
  } catch (error) {
    const reason = error instanceof LibraryVerificationError ? error.message : "the body is not JSON";
    throw new WebhookVerificationError(`The webhook did not verify: ${reason}.`);
  }
  if (!isEvent(event)) throw new WebhookVerificationError("The webhook verified, but its body is not an svc event.");
  return event;
}

function headerRecord(headers: WebhookHeaders): Record<string, string> {
  const record: Record<string, string> = {};
  const entries = headers instanceof Headers ? headers.entries() : Object.entries(headers);
  for (const [name, value] of entries) {
    if (value !== undefined) record[name.toLowerCase()] = Array.isArray(value) ? value.join(" ") : value;
  }
  return record;
}

function isEvent(value: unknown): value is WebhookEvent {
  if (typeof value !== "object" || value === null) return false;
  const event = value as Record<string, unknown>;
  return typeof event.id === "string" && typeof event.type === "string" && typeof event.timestamp === "string" && typeof event.data === "object" && event.data !== null;
}
