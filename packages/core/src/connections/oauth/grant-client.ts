import type { ProviderClient, ProviderKeys, ProviderUrls } from "../providers/connector.ts";
import { providerRequest } from "../providers/provider-request.ts";

/**
 * A ProviderClient for the calls around consent and disconnect (identify, subscribe,
 * unsubscribe, revoke): the user's access token, no quota counting (a handful of calls per
 * connect, not a pull).
 */
export function grantClient(urls: ProviderUrls, keys: ProviderKeys, accessToken: string | null): ProviderClient {
  return {
    urls,
    keys,
    request: (url, init = {}) =>
      providerRequest(url, init, { accessToken, clientId: keys.CLIENT_ID, clientSecret: keys.CLIENT_SECRET }),
  };
}
