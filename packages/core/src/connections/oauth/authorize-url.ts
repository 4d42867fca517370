import type { Connector, ProviderKeys, ProviderUrls } from "../providers/connector.ts";
import { clientIdOf } from "./token-client.ts";

/** The provider's authorize URL for one consent round trip. */
export function buildAuthorizeUrl(
  connector: Connector,
  urls: ProviderUrls,
  keys: ProviderKeys,
  request: { redirectUri: string; state: string; codeChallenge: string },
): string {
  const url = new URL(urls.authorize);
  const settings = connector.oauth;
  url.searchParams.set("client_id", clientIdOf(connector, keys));
  url.searchParams.set("redirect_uri", request.redirectUri);
  url.searchParams.set("response_type", "code");
  if (settings.scopes.length > 0) url.searchParams.set("scope", settings.scopes.join(settings.scopeSeparator ?? " "));
  url.searchParams.set("state", request.state);
  if (settings.pkce) {
    url.searchParams.set("code_challenge", request.codeChallenge);
    url.searchParams.set("code_challenge_method", "S256");
  }
  for (const [name, value] of Object.entries(settings.authorizeParams?.(keys) ?? {})) url.searchParams.set(name, value);
  return url.href;
}
