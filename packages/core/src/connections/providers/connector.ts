import type { MetricGroup, ParsedRecords } from "../../records/index.ts";
import type { ApiRetirement } from "./api-retirement.ts";

/**
 * The contract between the sync engine (core) and one OAuth or push provider's connector
 * (a folder of @svc/providers). The engine owns tokens, consent, sync runs, retries, quotas,
 * raw storage and events; a connector only knows the provider's API: which URLs to call,
 * how to read its answers and notifications, and how its payloads map to records.
 */

/** One key an application needs at the provider (CLIENT_ID, CLIENT_SECRET, REGION...). */
export interface ProviderKeySpec {
  /** As named in PUT .../keys bodies, e.g. `CLIENT_ID`. */
  name: string;
  required: boolean;
  /** Secret values are never shown back, not even to an instance admin. */
  secret: boolean;
  /** Instance configuration from the environment, e.g. `SVC_OURA_CLIENT_ID`. */
  env: string;
}

/** Key name -> value of one application (instance, tenant's own, or built in). */
export type ProviderKeys = Readonly<Record<string, string>>;

/**
 * The provider's addresses. Each can be pointed elsewhere by the environment variable
 * `SVC_<SLUG>_<NAME>_URL` (e.g. `SVC_OURA_API_URL`): proxies, regional or sandbox hosts, tests.
 * `{public_url}` in a default is the instance's own public URL (the built-in demo provider).
 */
export interface ProviderUrls {
  authorize: string;
  token: string;
  api: string;
  /** Other addresses a connector calls (revoke, a second API host...), by name. */
  [name: string]: string;
}

export interface OAuthSettings {
  /** Scopes asked for on authorize. */
  scopes: readonly string[];
  /** How the scopes are joined in the authorize URL (a space unless the provider says otherwise). */
  scopeSeparator?: string;
  /** Whether the provider takes PKCE (S256). State is always sent. */
  pkce: boolean;
  /** How the client authenticates at the token endpoint. */
  clientAuth: "client_secret_basic" | "client_secret_post";
  /** Extra query parameters of the authorize URL (e.g. `access_type=offline`). */
  authorizeParams?: (keys: ProviderKeys) => Record<string, string>;
  /** Extra form parameters of every token request (e.g. Withings' `action=requesttoken`). */
  tokenParams?: Record<string, string>;
  /** For providers that wrap the token answer (Withings' `{status, body}`): the standard token object inside, or a ProviderError. */
  unwrapTokenResponse?: (json: unknown) => unknown;
  /** True when each refresh returns a new refresh token and the old one stops working. */
  rotatesRefreshToken: boolean;
}

/** The standard parts of a token answer the engine keeps (sealed). */
export interface ProviderTokens {
  accessToken: string;
  refreshToken: string | null;
  /** When the access token stops working; null when the provider does not say. */
  expiresAt: Date | null;
  /** Scopes granted, when the token answer says. */
  scopes: string[] | null;
  /** The whole token answer (some providers put the user id there, e.g. Withings' userid, Strava's athlete). */
  raw: Readonly<Record<string, unknown>>;
}

/** What a connector gets to call the provider. Requests carry the user's access token. */
export interface ProviderClient {
  readonly urls: ProviderUrls;
  readonly keys: ProviderKeys;
  /**
   * A request with the user's bearer token (unless `auth: "none"` or `"basic"` for app-level
   * calls), counted against the provider's quotas. Answers the parsed JSON body. Maps refusals
   * to ProviderError: 401 refused, 403 permission, 429 rate_limited (Retry-After honoured),
   * 5xx and network errors failed.
   */
  request(url: string | URL, init?: ProviderRequestInit): Promise<unknown>;
}

export interface ProviderRequestInit {
  method?: "GET" | "POST" | "PUT" | "DELETE";
  headers?: Record<string, string>;
  /** A JSON body (object) or a form body (URLSearchParams). */
  body?: unknown;
  /** `bearer` (default): the user's access token; `basic`: CLIENT_ID/CLIENT_SECRET; `none`. */
  auth?: "bearer" | "basic" | "none";
  /**
   * `json` (default): the answer is the parsed JSON body. `bytes`: the body as is, a Buffer of at
   * most PROVIDER_DOWNLOAD_MAX_BYTES (a file the provider hands over, e.g. a workout's FIT file).
   */
  response?: "json" | "bytes";
}

export interface PullContext extends ProviderClient {
  /** The connection's user id at the provider. */
  providerUserId: string | null;
  scopes: readonly string[];
  /** Half open: records that start in [start, end). */
  window: { start: Date; end: Date };
  /** The provider data type a notification named (one of the connector's `notificationTypes`), or null for all. */
  dataType: string | null;
  /** Stores one provider payload as a raw object; the ETL parses it with `parsers[format]`. */
  store(format: string, payload: unknown): Promise<void>;
}

/** A pull the engine queues because a notification arrived (ping/pull: the body is never trusted as data). */
export interface NotifiedPull {
  providerUserId: string;
  dataType: string | null;
  window?: { start: Date; end: Date };
}

/** A payload a push provider delivered in the notification itself (Garmin push mode), stored as is. */
export interface PushedPayload {
  providerUserId: string;
  format: string;
  payload: unknown;
}

/** A request to the provider's inbound address, `{public_url}/providers/{slug}/notifications`. */
export interface InboundRequest {
  method: string;
  /** Lower-case header names. */
  headers: Readonly<Record<string, string | undefined>>;
  query: Readonly<Record<string, string | undefined>>;
  rawBody: Buffer;
}

export interface InboundAnswer {
  status: number;
  body?: string | Record<string, unknown>;
  pulls?: NotifiedPull[];
  payloads?: PushedPayload[];
  /**
   * Provider users who revoked the application's access (Strava deauthorization, Fitbit
   * userRevokedAccess, Withings unlink, Garmin deregistration). Only a verified request
   * names any: their active connections move to needs_reauth.
   */
  revoked?: RevokedGrant[];
}

/** A provider user whose grant the provider says is revoked. */
export interface RevokedGrant {
  providerUserId: string;
}

export interface NotificationHandler {
  /**
   * Answers one inbound request. `keySets` are every application that may have signed it
   * (the instance's and each tenant's own keys); a request no key set verifies is refused
   * (401 or what the provider expects). Must answer fast: no provider calls here.
   */
  handle(request: InboundRequest, keySets: readonly ProviderKeys[]): InboundAnswer;
}

/**
 * Maps one stored provider payload to records (units to the catalog's, local days and zones
 * from the provider). Items it cannot read go to `rejected`; it throws only when the payload
 * as a whole is not what the format says.
 */
export type PayloadParser = (payload: unknown) => ParsedRecords;

/** What a connector reports on the grant just made (after the token exchange). */
export interface GrantIdentity {
  providerUserId: string;
}

export interface Connector {
  slug: string;
  name: string;
  kind: "oauth" | "push";
  dataTypes: readonly MetricGroup[];
  /** Keys an application needs; empty for a built-in provider. */
  keys: readonly ProviderKeySpec[];
  /** The keys that name the application: another value of any of them needs every connection's reauth. */
  applicationKeys: readonly string[];
  /** The provider's own rules for keys, beyond required ones: the reason they are refused (422), or null. */
  checkKeys?: (keys: ProviderKeys) => string | null;
  /** Served by the instance itself with no keys (the demo provider): status `built_in`. */
  builtIn?: boolean;
  urls: ProviderUrls;
  oauth: OAuthSettings;
  /** Days pulled by the initial backfill on connect. */
  backfillDays: number;
  /** Minutes between scheduled pulls (spread over the period per connection). */
  pullIntervalMinutes: number;
  /** Request quotas of the provider: per application and per user, per window of seconds. */
  rateLimits: {
    app?: { requests: number; windowSeconds: number };
    user?: { requests: number; windowSeconds: number };
  };
  /** The data types a notification can name (e.g. `sleep`, `workout`). */
  notificationTypes?: readonly string[];
  /** Set when the provider turns its API down: dates and the provider that replaces it. */
  retirement?: ApiRetirement;
  /** After the token exchange: who the user is at the provider. */
  identify(client: ProviderClient, tokens: ProviderTokens): Promise<GrantIdentity>;
  /** Pulls the window: calls the API and stores each payload with `context.store`. */
  pull(context: PullContext): Promise<void>;
  /** Parses one stored payload by its format (every format `pull` or `notifications` store). */
  parsers: Readonly<Record<string, PayloadParser>>;
  notifications?: NotificationHandler;
  /** After connecting: per-user subscriptions at the provider; answers their external ids. */
  subscribe?: (client: ProviderClient, context: { providerUserId: string; callbackUrl: string }) => Promise<string[]>;
  /** On disconnect, best effort: removes a subscription. */
  unsubscribe?: (client: ProviderClient, context: { providerUserId: string; externalId: string; callbackUrl: string }) => Promise<void>;
  /** On disconnect, best effort: revokes the grant at the provider. */
  revoke?: (client: ProviderClient, tokens: ProviderTokens) => Promise<void>;
}

/** Why a provider call did not give data; the engine moves runs and connections by `kind`. */
export type ProviderErrorKind =
  /** The grant is refused (revoked, expired refresh token): connection needs_reauth. */
  | "refused"
  /** A scope or permission is missing at the provider: connection broken, user must reconnect. */
  | "permission"
  /** The provider asked to wait: run rate_limited until retryAfter. */
  | "rate_limited"
  /** Anything transient (5xx, network, unreadable answer): retried with backoff. */
  | "failed";

/** A provider's refusal or failure, described in our words (never a health value, never a token). */
export class ProviderError extends Error {
  readonly kind: ProviderErrorKind;
  readonly status: number | null;
  /** Seconds to wait before the next request, when the provider said (Retry-After or a quota reset). */
  readonly retryAfterSeconds: number | null;
  constructor(kind: ProviderErrorKind, message: string, options: { status?: number | null; retryAfterSeconds?: number | null } = {}) {
    super(message);
    this.name = "ProviderError";
    this.kind = kind;
    this.status = options.status ?? null;
    this.retryAfterSeconds = options.retryAfterSeconds ?? null;
  }
}
