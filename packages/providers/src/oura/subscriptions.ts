import { ProviderError, type ProviderClient } from "@svc/core";
import { apiBase } from "./collections.ts";
import { isObject, textOf } from "./documents.ts";
import { OURA_EVENT_TYPES, OURA_NOTIFICATION_TYPES, verificationTokenOf } from "./webhook.ts";

/** Subscriptions expire; one expiring within this time is renewed. */
const RENEW_WITHIN_MS = 7 * 86_400_000;

interface Subscription {
  id: string;
  callbackUrl: string;
  eventType: string;
  dataType: string;
  expiresAt: number | null;
}

/**
 * Oura's webhook subscriptions belong to the application (x-client-id / x-client-secret),
 * one per data type and event type, for every user who granted access. On each new
 * connection this makes sure they exist for the instance's inbound address and renews those
 * about to expire. It answers no ids: no subscription belongs to one user, so disconnecting
 * a user must not remove any.
 */
export async function ensureOuraSubscriptions(client: ProviderClient, callbackUrl: string): Promise<string[]> {
  const clientId = client.keys.CLIENT_ID;
  const clientSecret = client.keys.CLIENT_SECRET;
  const verificationToken = verificationTokenOf(client.keys);
  if (!clientId || !clientSecret || !verificationToken) return [];
  const headers = { "x-client-id": clientId, "x-client-secret": clientSecret };
  const base = `${apiBase(client.urls.api)}/v2/webhook/subscription`;
  try {
    const existing = subscriptionsOf(await client.request(base, { auth: "none", headers }));
    for (const dataType of OURA_NOTIFICATION_TYPES) {
      for (const eventType of OURA_EVENT_TYPES) {
        const found = existing.find((s) => s.callbackUrl === callbackUrl && s.dataType === dataType && s.eventType === eventType);
        if (!found) {
          const body = { callback_url: callbackUrl, verification_token: verificationToken, event_type: eventType, data_type: dataType };
          await client.request(base, { method: "POST", auth: "none", headers, body });
        } else if (found.expiresAt !== null && found.expiresAt - Date.now() < RENEW_WITHIN_MS) {
          await client.request(`${base}/renew/${encodeURIComponent(found.id)}`, { method: "PUT", auth: "none", headers });
        }
      }
    }
  } catch (error) {
    // The application's credentials were refused, not the user's grant.
    if (error instanceof ProviderError && (error.kind === "refused" || error.kind === "permission")) {
      throw new ProviderError("failed", "Oura refused the application's credentials for webhook subscriptions.", { status: error.status });
    }
    throw error;
  }
  return [];
}

function subscriptionsOf(answer: unknown): Subscription[] {
  if (!Array.isArray(answer)) return [];
  const subscriptions: Subscription[] = [];
  for (const item of answer) {
    if (!isObject(item)) continue;
    const id = textOf(item.id);
    const callbackUrl = textOf(item.callback_url);
    const eventType = textOf(item.event_type);
    const dataType = textOf(item.data_type);
    if (!id || !callbackUrl || !eventType || !dataType) continue;
    const expires = typeof item.expiration_time === "string" ? Date.parse(item.expiration_time) : Number.NaN;
    subscriptions.push({ id, callbackUrl, eventType, dataType, expiresAt: Number.isNaN(expires) ? null : expires });
  }
  return subscriptions;
}
