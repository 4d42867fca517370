import type { ProviderClient, ProviderRequestInit } from "@svc/core";

/**
 * A call to the Suunto Cloud API: the user's token as a bearer and the application's API
 * subscription key (`Ocp-Apim-Subscription-Key`, the key SUBSCRIPTION_KEY), which the API's
 * gateway requires on every request.
 */
export function suuntoRequest(client: ProviderClient, url: URL, init: ProviderRequestInit = {}): Promise<unknown> {
  const headers = { ...init.headers, "ocp-apim-subscription-key": client.keys.SUBSCRIPTION_KEY ?? "" };
  return client.request(url, { ...init, headers });
}
