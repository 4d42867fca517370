import * as oauth from "oauth4webapi";
import { startClientSpan } from "../../platform/index.ts";
import { ProviderError, type Connector, type ProviderClient, type ProviderKeys, type ProviderTokens, type ProviderUrls } from "../providers/connector.ts";
import { PROVIDER_REQUEST_TIMEOUT_MS, retryAfterSeconds } from "../providers/provider-request.ts";
import { isLoopbackUrl } from "./loopback.ts";

/**
 * The token endpoint of a provider, through oauth4webapi: the code exchange after consent
 * and the refresh of an access token. Failures become ProviderErrors whose messages name
 * the provider's status and OAuth error code only: never a token, a body or a secret.
 */

export interface CodeExchange {
  code: string;
  /** The PKCE verifier of the consent state (ignored when the connector does not use PKCE). */
  codeVerifier: string;
  /** The redirect_uri sent on authorize (the instance's callback URL). */
  redirectUri: string;
}

/** Exchanges an authorization code for the user's tokens. */
export async function exchangeCode(connector: Connector, urls: ProviderUrls, keys: ProviderKeys, exchange: CodeExchange): Promise<ProviderTokens> {
  const { as, client, auth, options } = tokenEndpointOf(connector, urls, keys);
  // State is checked against our own consent states before this call; the library's check is skipped.
  const parameters = oauth.validateAuthResponse(as, client, new URLSearchParams({ code: exchange.code }), oauth.skipStateCheck);
  const verifier = connector.oauth.pkce ? exchange.codeVerifier : oauth.nopkce;
  const response = await send("code exchange", () =>
    oauth.authorizationCodeGrantRequest(as, client, auth, parameters, exchange.redirectUri, verifier, options),
  );
  return readTokenAnswer(connector, as, client, response, "code exchange");
}

/**
 * Refreshes the user's tokens. A refusal (invalid_grant, or any 400/401) is a ProviderError
 * of kind `refused`: the connection needs the user's reauth. When the provider sends no new
 * refresh token, the one used stays.
 */
export async function refreshTokens(connector: Connector, urls: ProviderUrls, keys: ProviderKeys, refreshToken: string): Promise<ProviderTokens> {
  const { as, client, auth, options } = tokenEndpointOf(connector, urls, keys);
  const response = await send("token refresh", () => oauth.refreshTokenGrantRequest(as, client, auth, refreshToken, options));
  const tokens = await readTokenAnswer(connector, as, client, response, "token refresh");
  return { ...tokens, refreshToken: tokens.refreshToken ?? refreshToken };
}

/** Revokes the grant at the provider when the connector can; best effort, never throws. */
export async function revokeGrant(connector: Connector, client: ProviderClient, tokens: ProviderTokens): Promise<boolean> {
  if (!connector.revoke) return false;
  try {
    await connector.revoke(client, tokens);
    return true;
  } catch {
    return false;
  }
}

/** The client_id sent to the provider: the CLIENT_ID key, or the slug for a built-in provider without keys. */
export function clientIdOf(connector: Connector, keys: ProviderKeys): string {
  return keys.CLIENT_ID || connector.slug;
}

function tokenEndpointOf(connector: Connector, urls: ProviderUrls, keys: ProviderKeys) {
  const tokenUrl = new URL(urls.token);
  const as: oauth.AuthorizationServer = { issuer: tokenUrl.origin, token_endpoint: tokenUrl.href, authorization_endpoint: urls.authorize };
  const client: oauth.Client = { client_id: clientIdOf(connector, keys) };
  const secret = keys.CLIENT_SECRET;
  const auth = !secret
    ? oauth.None()
    : connector.oauth.clientAuth === "client_secret_basic"
      ? plainClientSecretBasic(secret)
      : oauth.ClientSecretPost(secret);
  const options: oauth.TokenEndpointRequestOptions = {
    additionalParameters: connector.oauth.tokenParams,
    signal: () => AbortSignal.timeout(PROVIDER_REQUEST_TIMEOUT_MS),
    // oauth4webapi insists on https; plain http only to this machine (tests, local development).
    [oauth.allowInsecureRequests]: isLoopbackUrl(tokenUrl),
    [oauth.customFetch]: tracedFetch,
  };
  return { as, client, auth, options };
}

/**
 * client_secret_basic as providers read it: base64 of `id:secret` as they are. oauth4webapi
 * form-encodes both first (RFC 6749 2.3.1), turning a `-` into `%2D`, which providers that
 * do not decode (most) refuse.
 */
function plainClientSecretBasic(secret: string): oauth.ClientAuth {
  return (_as, client, _body, headers) => {
    headers.set("authorization", `Basic ${Buffer.from(`${client.client_id}:${secret}`).toString("base64")}`);
  };
}

/** The token endpoint's calls get a client span and the trace headers, like every other call to a provider. */
async function tracedFetch(url: string, init: oauth.CustomFetchOptions<"POST", URLSearchParams>): Promise<Response> {
  const span = startClientSpan(init.method, new URL(url));
  try {
    const response = await fetch(url, { ...init, headers: { ...init.headers, ...span.headers } });
    span.end(response.status);
    return response;
  } catch (error) {
    span.end(null);
    throw error;
  }
}

async function send(what: string, request: () => Promise<Response>): Promise<Response> {
  try {
    return await request();
  } catch (error) {
    const reason = error instanceof Error && error.name === "TimeoutError" ? "did not answer in time" : "could not be reached";
    throw new ProviderError("failed", `The provider's token endpoint ${reason} (${what}).`);
  }
}

/** Reads the token endpoint's answer: a refusal by status, or the standard token object (unwrapped when the provider wraps it). */
async function readTokenAnswer(
  connector: Connector,
  as: oauth.AuthorizationServer,
  client: oauth.Client,
  response: Response,
  what: string,
): Promise<ProviderTokens> {
  if (response.status === 429) {
    discardBody(response);
    throw new ProviderError("rate_limited", `The provider's token endpoint asked to wait (429, ${what}).`, {
      status: 429,
      retryAfterSeconds: retryAfterSeconds(response.headers.get("retry-after")),
    });
  }
  if (response.status >= 500) {
    discardBody(response);
    throw new ProviderError("failed", `The provider's token endpoint answered ${response.status} (${what}).`, { status: response.status });
  }
  const json = await response.json().catch(() => undefined);
  if (response.status !== 200) {
    const code = oauthErrorCode(json);
    const kind = response.status === 400 || response.status === 401 ? "refused" : "failed";
    throw new ProviderError(kind, `The provider refused the ${what} (${response.status}${code ? ` ${code}` : ""}).`, { status: response.status });
  }
  // Throws a ProviderError of its own when the wrapped answer is a refusal (Withings' status codes).
  const answer = connector.oauth.unwrapTokenResponse ? connector.oauth.unwrapTokenResponse(json) : json;
  if (!isObject(answer)) throw new ProviderError("failed", `The provider's ${what} answer is not a JSON object.`);
  const code = oauthErrorCode(answer);
  if (code) throw new ProviderError(code === "invalid_grant" ? "refused" : "failed", `The provider refused the ${what} (${code}).`);

  // oauth4webapi checks the shape (access_token, token_type, expires_in, scope). The ID token is
  // not ours to validate (its issuer is the provider's, not this token URL's) and is left out.
  const { id_token: _idToken, ...standard } = answer;
  let checked: oauth.TokenEndpointResponse;
  try {
    checked = await oauth.processRefreshTokenResponse(as, client, Response.json({ token_type: "bearer", ...standard }));
  } catch {
    throw new ProviderError("failed", `The provider's ${what} answer is not a valid token answer.`);
  }
  const expiresIn = checked.expires_in;
  return {
    accessToken: checked.access_token,
    refreshToken: checked.refresh_token ?? null,
    expiresAt: typeof expiresIn === "number" ? new Date(Date.now() + expiresIn * 1000) : null,
    scopes: typeof checked.scope === "string" ? checked.scope.split(/[\s,]+/).filter((scope) => scope !== "") : null,
    raw: answer,
  };
}

/** The body is not read; cancelled without waiting (a stream may never settle its cancel). */
function discardBody(response: Response): void {
  response.body?.cancel().catch(() => {});
}

function oauthErrorCode(json: unknown): string | null {
  if (!isObject(json) || typeof json.error !== "string") return null;
  return /^[\w.-]{1,64}$/.test(json.error) ? json.error : "error";
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
