// Per-user subscriptions (POST/DELETE /1/user/-/{collection}/apiSubscriptions/{id}.json).
import { ProviderError, type ProviderClient } from "@svc/core";
import { apiUrl } from "./api.ts";
import { FITBIT_COLLECTIONS } from "./notifications.ts";

/** X-Fitbit-Subscriber-Id when the application names one of its subscribers (else Fitbit's default subscriber). */
function subscriberHeaders(client: ProviderClient): Record<string, string> {
  return client.keys.SUBSCRIBER_ID ? { "x-fitbit-subscriber-id": client.keys.SUBSCRIBER_ID } : {};
}

/**
 * Subscribes the user to each collection svc reads, one subscription per collection (a
 * subscription to all would need the nutrition scope). The subscription id is the user's
 * id and the collection; a collection whose scope the user did not grant is skipped.
 * Answers `{collection}/{subscription id}` per subscription.
 */
export async function subscribe(client: ProviderClient, context: { providerUserId: string }): Promise<string[]> {
  const created: string[] = [];
  for (const collection of FITBIT_COLLECTIONS) {
    const id = `${context.providerUserId}-${collection}`;
    try {
      await client.request(apiUrl(client.urls.api, `/1/user/-/${collection}/apiSubscriptions/${encodeURIComponent(id)}.json`), {
        method: "POST",
        headers: subscriberHeaders(client),
      });
      created.push(`${collection}/${id}`);
    } catch (error) {
      if (error instanceof ProviderError && error.kind === "permission") continue;
      throw error;
    }
  }
  return created;
}

export async function unsubscribe(client: ProviderClient, context: { externalId: string }): Promise<void> {
  const [collection, id] = context.externalId.split("/");
  if (!collection || !id || !(FITBIT_COLLECTIONS as readonly string[]).includes(collection)) return;
  await client.request(apiUrl(client.urls.api, `/1/user/-/${collection}/apiSubscriptions/${encodeURIComponent(id)}.json`), {
    method: "DELETE",
    headers: subscriberHeaders(client),
  });
}
