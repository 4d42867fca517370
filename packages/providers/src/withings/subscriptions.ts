import { createHmac } from "node:crypto";
import { ProviderError, type ProviderClient, type ProviderTokens } from "@svc/core";
import { callWithings, serviceUrl, WITHINGS_SERVICES } from "./api.ts";
import { withingsBody } from "./answers.ts";
import { WITHINGS_NOTIFICATION_APPLIS, WITHINGS_USER_EVENTS_APPLI } from "./measure-types.ts";
import { idOf, text } from "./values.ts";

/** Notify statuses for "no such subscription": unsubscribing it is already done. */
const NO_SUCH_SUBSCRIPTION: ReadonlySet<number> = new Set([286, 294]);

/**
 * Subscribes the user to every notification category svc pulls, and to user events (an
 * unlink), with Notify - Subscribe, one per
 * `appli`, to the instance's inbound URL). Answers the categories subscribed, as external
 * ids. A category the grant does not cover is skipped; a refused grant or a rate limit stops.
 */
export async function subscribeWithings(client: ProviderClient, context: { providerUserId: string; callbackUrl: string }): Promise<string[]> {
  const url = serviceUrl(client.urls.api, WITHINGS_SERVICES.notify);
  const subscribed: string[] = [];
  let firstFailure: ProviderError | null = null;
  for (const appli of [...Object.values(WITHINGS_NOTIFICATION_APPLIS), WITHINGS_USER_EVENTS_APPLI]) {
    try {
      const params = { action: "subscribe", callbackurl: context.callbackUrl, appli: String(appli), comment: "svc" };
      await callWithings(client, url, params, `notify subscribe ${appli}`);
      subscribed.push(String(appli));
    } catch (error) {
      if (!(error instanceof ProviderError) || error.kind !== "failed") throw error;
      firstFailure ??= error;
    }
  }
  if (subscribed.length === 0 && firstFailure) throw firstFailure;
  return subscribed;
}

/** Notify - Revoke of one category (the external id is the `appli`). */
export async function unsubscribeWithings(
  client: ProviderClient,
  context: { providerUserId: string; externalId: string; callbackUrl: string },
): Promise<void> {
  const url = serviceUrl(client.urls.api, WITHINGS_SERVICES.notify);
  const answer = await client.request(url, {
    method: "POST",
    body: new URLSearchParams({ action: "revoke", callbackurl: context.callbackUrl, appli: context.externalId }),
  });
  if (typeof answer === "object" && answer !== null && NO_SUCH_SUBSCRIPTION.has((answer as { status?: unknown }).status as number)) return;
  withingsBody(answer, "notify revoke");
}

/**
 * OAuth 2.0 - Revoke user access: a request signed with the application's secret (HMAC
 * SHA-256 of the sorted values action, client_id, nonce) after Signature v2 - Getnonce.
 * Withings then drops the tokens and the user's subscriptions.
 */
export async function revokeWithings(client: ProviderClient, tokens: ProviderTokens): Promise<void> {
  const userId = idOf(tokens.raw.userid);
  const clientId = client.keys.CLIENT_ID;
  const secret = client.keys.CLIENT_SECRET;
  if (!userId || !clientId || !secret) return;
  const timestamp = String(Math.floor(Date.now() / 1000));
  const nonceAnswer = await client.request(serviceUrl(client.urls.api, WITHINGS_SERVICES.signatureV2), {
    method: "POST",
    auth: "none",
    body: new URLSearchParams({ action: "getnonce", client_id: clientId, timestamp, signature: signature(secret, ["getnonce", clientId, timestamp]) }),
  });
  const nonce = text(withingsBody(nonceAnswer, "getnonce").nonce, 200);
  if (!nonce) throw new ProviderError("failed", "Withings getnonce answered no nonce.");
  const answer = await client.request(client.urls.token, {
    method: "POST",
    auth: "none",
    body: new URLSearchParams({ action: "revoke", client_id: clientId, nonce, signature: signature(secret, ["revoke", clientId, nonce]), userid: userId }),
  });
  withingsBody(answer, "revoke");
}

/** Withings' signature: HMAC SHA-256 (hex) of the values, sorted by their keys' names, joined by commas. */
function signature(secret: string, sortedValues: readonly string[]): string {
  return createHmac("sha256", secret).update(sortedValues.join(",")).digest("hex");
}
