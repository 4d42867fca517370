import type { CoreDeps } from "../deps.ts";
import { AppError } from "../platform/index.ts";
import { buildAuthorizeUrl } from "./oauth/authorize-url.ts";
import { createConsentState, consumeConsentState, type ConsentState } from "./oauth/consent-states.ts";
import { grantClient } from "./oauth/grant-client.ts";
import { checkRedirectUri } from "./oauth/redirect-uri.ts";
import { openTokens, sealTokens } from "./oauth/sealed-tokens.ts";
import { exchangeCode, revokeGrant } from "./oauth/token-client.ts";
import { ProviderError, type Connector, type ProviderTokens } from "./providers/connector.ts";
import { isConnector } from "./providers/provider-catalog.ts";
import { inboundNotificationUrl, oauthCallbackUrl, resolveProviderUrls } from "./providers/provider-settings.ts";
import {
  deletePushSubscriptions,
  findOtherUsersConnection,
  findSealedTokens,
  insertPushSubscriptions,
  listPushSubscriptions,
  listUserConnections,
  lockConnection,
  markConnectionDisconnected,
  upsertConnectedConnection,
  type ConnectionRow,
} from "./connection-repository.ts";
import { findActiveUser, findOpenErasureJob, findUserById, lockActiveUserForErasure, providerOnForTenant } from "../identity/index.ts";
import { connectionHealth, type ConnectionHealth } from "./connection-health.ts";
import { apiRetirementWarning, type ApiRetirementWarning } from "./providers/api-retirement.ts";
import { emitEvent } from "../events/index.ts";
import { cancelOpenSyncRuns, queueSyncRun } from "./sync-runs.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

/** One entry of GET /v1/users/{id}/connections (the spec's Connection). */
export interface ConnectionDto {
  provider: string;
  status: ConnectionRow["status"];
  scopes: string[];
  last_sync_at: string | null;
  initial_backfill_at: string | null;
  created_at: string;
  updated_at: string;
  connected_at: string;
  health: {
    healthy: boolean;
    reason: ConnectionHealth["reason"];
    action: ConnectionHealth["action"];
    since: string | null;
    retry_at: string | null;
    /** Set while the connection uses a provider API that is retiring or retired; healthy and reason stay as they are. */
    warning: ApiRetirementWarning | null;
  };
}

/**
 * POST /v1/users/{id}/connections/{provider}: a consent state (single use, 10 minutes) and
 * the provider's authorize URL for it. 400 for a bad redirect_uri or a device provider
 * (nothing to consent to), 404 for an unknown provider or user, 403 when an admin switched
 * the provider off for the tenant, 409 while an erasure of the user's data of the provider
 * runs or when the provider has no working keys for the tenant on this instance. `connectToken`:
 * the connect link the consent starts from (its result page links back to it).
 */
export async function startConnection(
  deps: CoreDeps,
  tenantId: string,
  userId: string,
  provider: string,
  redirectUri: string | undefined | null,
  connectToken: string | null = null,
): Promise<{ authorize_url: string }> {
  const redirect = redirectUri == null ? null : checkRedirectUri(redirectUri);
  const descriptor = deps.providers.find(provider);
  if (!descriptor) throw new AppError("not_found", `This build knows no provider ${provider}.`);
  if (!(await findActiveUser(deps.db, tenantId, userId))) throw new AppError("not_found", "No such user.");
  if (!isConnector(descriptor)) {
    throw new AppError("bad_request", `${provider} is a device provider: its data is uploaded by the user's app, there is nothing to connect.`);
  }
  const connector = descriptor;
  if (!(await providerOnForTenant(deps.db, tenantId, provider))) {
    throw new AppError("forbidden", `The provider ${provider} is switched off for this tenant.`);
  }
  if (await findOpenErasureJob(deps.db, { userId, provider })) {
    throw new AppError("conflict", `The user's ${provider} data is being erased; connect again once the erasure is done.`);
  }
  const application = await deps.providerConfig.forNewConnection(tenantId, connector);
  if (!application) throw new AppError("conflict", `The provider ${provider} has no working keys for this tenant on this instance.`);

  const settings = deps.providerConfig.settings;
  const consent = await createConsentState(deps, deps.db, { userId, provider, redirectUri: redirect, connectToken, application });
  const authorizeUrl = buildAuthorizeUrl(connector, resolveProviderUrls(connector, settings), application.keys, {
    redirectUri: oauthCallbackUrl(settings, provider),
    state: consent.state,
    codeChallenge: consent.codeChallenge,
  });
  return { authorize_url: authorizeUrl };
}

/** Why a consent did not end in a connection (the `error` of the redirect, and the result page). */
export const CONSENT_ERRORS = {
  unknown_provider: { status: 404, message: "This service does not know this provider." },
  invalid_request: { status: 400, message: "The provider's answer was incomplete (no authorization code)." },
  invalid_state: { status: 400, message: "This link is not valid: it was already used or never issued. Start connecting again." },
  expired_state: { status: 400, message: "This link expired (after 10 minutes). Start connecting again." },
  access_denied: { status: 400, message: "Access was not allowed at the provider." },
  provider_error: { status: 400, message: "The provider reported an error and did not grant access." },
  user_not_found: { status: 404, message: "The account to connect no longer exists." },
  provider_off: { status: 403, message: "This provider is switched off for this service." },
  erasure_running: { status: 409, message: "Data of this provider is being erased. Try again once it is done." },
  provider_unavailable: { status: 409, message: "This provider is not available right now." },
  account_in_use: { status: 409, message: "This provider account is already connected to another user." },
  provider_failed: { status: 502, message: "The provider did not complete the connection. Try again later." },
  server_error: { status: 503, message: "Something went wrong on our side. Try again later." },
} as const;

export type ConsentErrorCode = keyof typeof CONSENT_ERRORS;

/** What the callback shows or redirects to. */
export interface ConsentOutcome {
  provider: string;
  /** The provider's display name (the slug when unknown). */
  providerName: string;
  /** The tenant's redirect_uri of the consent state, when known. */
  redirectUri: string | null;
  /** The connect link the consent was started from, when known (it may have expired since). */
  connectToken: string | null;
  error: ConsentErrorCode | null;
  /** Why the provider failed (provider_failed), in our words, for the logs only. */
  reason?: string;
  /** An error nobody expected (server_error), for the logs only. */
  unexpected?: unknown;
}

class ConsentFailure extends Error {
  readonly code: ConsentErrorCode;
  /** What the provider did, in our words (a ProviderError's message), for the logs. */
  readonly reason: string | undefined;
  constructor(code: ConsentErrorCode, reason?: string) {
    super(code);
    this.code = code;
    this.reason = reason;
  }
}

/**
 * GET /oauth/{provider}/callback: uses the consent state, exchanges the code with the keys
 * the state was made with, asks the connector who the user is, and makes the connection
 * active (a new grant replaces an old one; a broken or needs_reauth connection sends
 * connection.restored) with its initial backfill queued. Subscriptions at the provider
 * follow, best effort. Never throws: every failure is an outcome with an error code.
 */
export async function completeConsent(deps: CoreDeps, provider: string, query: Readonly<Record<string, unknown>>): Promise<ConsentOutcome> {
  const connector = deps.providers.connector(provider);
  const outcome = { provider, providerName: connector?.name ?? provider };
  let redirectUri: string | null = null;
  let connectToken: string | null = null;
  try {
    if (!connector) throw new ConsentFailure("unknown_provider");
    const state = typeof query.state === "string" ? query.state : "";
    if (state === "" || state.length > 512) throw new ConsentFailure("invalid_state");
    const consumed = await consumeConsentState(deps, deps.db, state);
    if (!consumed.ok) {
      if (consumed.provider === provider) ({ redirectUri, connectToken } = consumed);
      throw new ConsentFailure(consumed.reason === "expired" ? "expired_state" : "invalid_state");
    }
    const consent = consumed.consent;
    if (consent.provider !== provider) throw new ConsentFailure("invalid_state");
    ({ redirectUri, connectToken } = consent);
    await connectWithConsent(deps, connector, consent, query);
    return { ...outcome, redirectUri, connectToken, error: null };
  } catch (error) {
    if (error instanceof ConsentFailure) return { ...outcome, redirectUri, connectToken, error: error.code, ...(error.reason && { reason: error.reason }) };
    return { ...outcome, redirectUri, connectToken, error: "server_error", unexpected: error };
  }
}

async function connectWithConsent(deps: CoreDeps, connector: Connector, consent: ConsentState, query: Readonly<Record<string, unknown>>): Promise<void> {
  const { userId, provider } = consent;
  const user = await findUserById(deps.db, userId);
  if (!user || user.status !== "active") throw new ConsentFailure("user_not_found");
  const tenantId = user.tenantId;
  if (!(await providerOnForTenant(deps.db, tenantId, provider))) throw new ConsentFailure("provider_off");
  if (await findOpenErasureJob(deps.db, { userId, provider })) throw new ConsentFailure("erasure_running");
  if (typeof query.error === "string") throw new ConsentFailure(query.error === "access_denied" ? "access_denied" : "provider_error");
  if (typeof query.code !== "string" || query.code === "") throw new ConsentFailure("invalid_request");

  const application = await deps.providerConfig.forConnection(tenantId, connector, consent);
  if (!application) throw new ConsentFailure("provider_unavailable");
  const settings = deps.providerConfig.settings;
  const urls = resolveProviderUrls(connector, settings);
  let tokens: ProviderTokens;
  let providerUserId: string;
  try {
    tokens = await exchangeCode(connector, urls, application.keys, {
      code: query.code,
      codeVerifier: consent.codeVerifier,
      redirectUri: oauthCallbackUrl(settings, provider),
    });
    providerUserId = (await connector.identify(grantClient(urls, application.keys, tokens.accessToken), tokens)).providerUserId;
  } catch (error) {
    // A ProviderError says what happened in our words (never a token); nothing of it is shown to the user.
    throw new ConsentFailure("provider_failed", error instanceof ProviderError ? error.message : "The connector could not read the provider's answer.");
  }

  const now = new Date();
  const connection = await deps.db.$transaction(async (tx) => {
    // Serialises with a provider erasure request (which locks the same row) and a user deletion.
    const locked = await lockActiveUserForErasure(tx, tenantId, userId);
    if (!locked) throw new ConsentFailure("user_not_found");
    if (await findOpenErasureJob(tx, { userId, provider })) throw new ConsentFailure("erasure_running");
    if (await findOtherUsersConnection(tx, { tenantId, userId, provider, providerUserId })) throw new ConsentFailure("account_in_use");
    const previous = await lockConnection(tx, userId, provider);
    const row = await upsertConnectedConnection(tx, {
      userId,
      provider,
      providerUserId,
      scopes: tokens.scopes ?? [...connector.oauth.scopes],
      sealedTokens: sealTokens(deps.sealer, tokens),
      accessExpiresAt: tokens.expiresAt,
      keySource: application.keySource,
      applicationId: application.applicationId,
      connectedAt: now,
    });
    const broken = previous && brokenState(previous);
    if (broken) {
      await emitEvent(tx, deps.jobs, {
        tenantId,
        type: "connection.restored",
        userId,
        data: {
          user_id: userId,
          external_ref: locked.external_ref,
          provider,
          previous_reason: broken.reason,
          broken_since: broken.since.toISOString(),
          broken_seconds: Math.max(0, Math.floor((now.getTime() - broken.since.getTime()) / 1000)),
        },
      });
    }
    await queueSyncRun(deps, tx, {
      connectionId: row.id,
      userId,
      provider,
      trigger: "backfill",
      windowStart: new Date(now.getTime() - connector.backfillDays * DAY_MS),
      windowEnd: now,
      dataType: null,
    });
    return row;
  });

  if (connector.subscribe) {
    try {
      const externalIds = await connector.subscribe(grantClient(urls, application.keys, tokens.accessToken), {
        providerUserId,
        callbackUrl: inboundNotificationUrl(settings, provider),
      });
      await insertPushSubscriptions(deps.db, connection, externalIds);
    } catch {
      // Best effort: scheduled pulls still bring the data without notifications.
    }
  }
}

/** The reason and start of a connection's trouble before a reconnect; null when it was fine or disconnected. */
function brokenState(row: ConnectionRow): { reason: string; since: Date } | null {
  if (row.status === "needs_reauth") return { reason: row.brokenReason ?? "needs_reauth", since: row.brokenSince ?? row.updatedAt };
  if (row.status === "active" && row.brokenReason) return { reason: row.brokenReason, since: row.brokenSince ?? row.updatedAt };
  return null;
}

/** GET /v1/users/{id}/connections: every connection of the user, one per provider, with its health. */
export async function listConnections(deps: CoreDeps, tenantId: string, userId: string): Promise<{ data: ConnectionDto[] }> {
  if (!(await findActiveUser(deps.db, tenantId, userId))) throw new AppError("not_found", "No such user.");
  const rows = await listUserConnections(deps.db, userId);
  const data: ConnectionDto[] = [];
  for (const row of rows) {
    const connector = deps.providers.connector(row.provider);
    const runState = connector ? await deps.providerConfig.availability(tenantId, connector) : null;
    const warning = row.status === "disconnected" ? null : apiRetirementWarning(connector?.retirement, new Date());
    data.push(toConnectionDto(row, connectionHealth(row, runState), warning));
  }
  return { data };
}

export function toConnectionDto(row: ConnectionRow, health: ConnectionHealth, warning: ApiRetirementWarning | null): ConnectionDto {
  return {
    provider: row.provider,
    status: row.status,
    scopes: row.scopes,
    last_sync_at: row.lastSyncAt?.toISOString() ?? null,
    initial_backfill_at: row.initialBackfillAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    connected_at: row.connectedAt.toISOString(),
    health: {
      healthy: health.healthy,
      reason: health.reason,
      action: health.action,
      since: health.since?.toISOString() ?? null,
      retry_at: health.retry_at?.toISOString() ?? null,
      warning,
    },
  };
}

/**
 * The connection half of DELETE /v1/users/{id}/connections/{provider}: the connection turns
 * disconnected (tokens dropped, open sync runs cancelled) in one transaction; then, best
 * effort and without holding the answer, its subscriptions at the provider are removed and
 * the grant revoked. Again on a disconnected connection: nothing more to do. 404 when the
 * user has no connection of the provider. The erasure that may follow is erasure's
 * (disconnectConnection).
 */
export async function disconnectUserConnection(deps: CoreDeps, tenantId: string, userId: string, provider: string): Promise<void> {
  if (!(await findActiveUser(deps.db, tenantId, userId))) throw new AppError("not_found", "No such user.");
  const released = await deps.db.$transaction(async (tx) => {
    const connection = await lockConnection(tx, userId, provider);
    if (!connection) throw new AppError("not_found", `The user has no connection to ${provider}.`);
    if (connection.status === "disconnected") return null;
    const sealedTokens = await findSealedTokens(tx, connection.id);
    const subscriptions = await listPushSubscriptions(tx, connection);
    await markConnectionDisconnected(tx, connection.id, new Date());
    await cancelOpenSyncRuns(tx, connection.id);
    return { connection, sealedTokens, subscriptions };
  });
  if (released) void releaseGrant(deps, tenantId, released.connection, released.sealedTokens, released.subscriptions).catch(() => {});
}

/**
 * For a user deletion (spec: "connections revoked (best effort)"): every connection of the
 * user that is not disconnected has its subscriptions removed and its grant revoked at the
 * provider, best effort; the rows go with the user. Never throws.
 */
export async function releaseUserConnections(deps: CoreDeps, tenantId: string, userId: string): Promise<void> {
  for (const connection of await listUserConnections(deps.db, userId)) {
    if (connection.status === "disconnected") continue;
    try {
      const sealedTokens = await findSealedTokens(deps.db, connection.id);
      const subscriptions = await listPushSubscriptions(deps.db, connection);
      await releaseGrant(deps, tenantId, connection, sealedTokens, subscriptions);
    } catch {
      // Best effort: the user's rows are deleted either way.
    }
  }
}

/** Best effort: unsubscribes at the provider, forgets the subscriptions, revokes the grant. */
async function releaseGrant(
  deps: CoreDeps,
  tenantId: string,
  connection: ConnectionRow,
  sealedTokens: string | null,
  subscriptions: ReadonlyArray<{ id: bigint; externalId: string }>,
): Promise<void> {
  const connector = deps.providers.connector(connection.provider);
  const application = connector ? await deps.providerConfig.forConnection(tenantId, connector, connection) : null;
  let tokens: ProviderTokens | null = null;
  try {
    tokens = sealedTokens ? openTokens(deps.sealer, sealedTokens) : null;
  } catch {
    tokens = null;
  }
  if (connector && application) {
    const settings = deps.providerConfig.settings;
    const client = grantClient(resolveProviderUrls(connector, settings), application.keys, tokens?.accessToken ?? null);
    if (connector.unsubscribe && connection.providerUserId) {
      for (const subscription of subscriptions) {
        try {
          await connector.unsubscribe(client, {
            providerUserId: connection.providerUserId,
            externalId: subscription.externalId,
            callbackUrl: inboundNotificationUrl(settings, connection.provider),
          });
        } catch {
          // Best effort: notifications for a disconnected connection are ignored anyway.
        }
      }
    }
    if (tokens) await revokeGrant(connector, client, tokens);
  }
  if (subscriptions.length > 0) await deletePushSubscriptions(deps.db, connection.userId, subscriptions.map((subscription) => subscription.id));
}
