import { randomBytes } from "node:crypto";
import type { CoreDeps } from "../deps.ts";
import { AppError, hashSecret } from "../platform/index.ts";
import { checkRedirectUri } from "./oauth/redirect-uri.ts";
import { isConnector } from "./providers/provider-catalog.ts";
import { listUserConnections } from "./connection-repository.ts";
import { deleteExpiredConnectSessions, findConnectSessionByHash, insertConnectSession } from "./connect-session-repository.ts";
import { findActiveUser } from "../identity/index.ts";
import { connectionHealth } from "./connection-health.ts";
import { startConnection } from "./connections.ts";

export const CONNECT_SESSION_DEFAULT_SECONDS = 3600;
export const CONNECT_SESSION_MIN_SECONDS = 60;
export const CONNECT_SESSION_MAX_SECONDS = 86_400;
/** Old expired sessions still answer "expired" (410) for this long, then "unknown" (404). */
const EXPIRED_SESSION_KEPT_MS = 7 * 24 * 60 * 60 * 1000;

/** The token in a connect link: 32 random bytes, base64url. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export interface ConnectSessionDto {
  url: string;
  expires_at: string;
}

/** An open connect link: whose it is, which app asks, and where consent ends. */
export interface ConnectSession {
  /** The token of the link (its path), to link back to the page. */
  token: string;
  tenantId: string;
  /** The tenant's name: the app that sent the user. */
  tenantName: string;
  userId: string;
  redirectUri: string | null;
  expiresAt: Date;
}

export type OpenedConnectSession = { ok: true; session: ConnectSession } | { ok: false; reason: "unknown" | "expired" };

/** How a provider shows on the connect page for the user. */
export type ConnectPageStatus = "connected" | "needs_reconnect" | "not_connected";

export interface ConnectPageProvider {
  slug: string;
  name: string;
  status: ConnectPageStatus;
}

/**
 * POST /v1/users/{id}/connect-sessions: a link to the hosted connect page of the user,
 * `{public_url}/connect/{token}`, valid for expires_in_seconds (default 3600, 60 to 86400).
 * Only the SHA-256 of the token is stored; the link is shown once.
 */
export async function createConnectSession(
  deps: Pick<CoreDeps, "db" | "providerConfig">,
  tenantId: string,
  userId: string,
  input: { redirect_uri?: string | undefined; expires_in_seconds?: number | undefined },
  now: Date = new Date(),
): Promise<ConnectSessionDto> {
  const redirectUri = input.redirect_uri === undefined ? null : checkRedirectUri(input.redirect_uri);
  if (!(await findActiveUser(deps.db, tenantId, userId))) throw new AppError("not_found", "No such user.");
  const seconds = input.expires_in_seconds ?? CONNECT_SESSION_DEFAULT_SECONDS;
  const token = randomBytes(32).toString("base64url");
  const expiresAt = new Date(now.getTime() + seconds * 1000);
  await deleteExpiredConnectSessions(deps.db, userId, new Date(now.getTime() - EXPIRED_SESSION_KEPT_MS));
  await insertConnectSession(deps.db, { tokenHash: hashSecret(token), userId, redirectUri, expiresAt });
  return { url: `${deps.providerConfig.settings.publicUrl()}/connect/${token}`, expires_at: expiresAt.toISOString() };
}

/** The session of a connect link; unknown when the token is not one of ours or its user is gone or being deleted. */
export async function openConnectSession(deps: Pick<CoreDeps, "db">, token: string, now: Date = new Date()): Promise<OpenedConnectSession> {
  if (!TOKEN_PATTERN.test(token)) return { ok: false, reason: "unknown" };
  const row = await findConnectSessionByHash(deps.db, hashSecret(token));
  if (!row || row.user.status !== "active") return { ok: false, reason: "unknown" };
  if (row.expiresAt <= now) return { ok: false, reason: "expired" };
  return {
    ok: true,
    session: { token, tenantId: row.user.tenantId, tenantName: row.user.tenant.name, userId: row.userId, redirectUri: row.redirectUri, expiresAt: row.expiresAt },
  };
}

/**
 * The providers the connect page offers: the OAuth and push providers available to the
 * tenant (on for it, with working keys), in the registry's order, with the user's status.
 * Device providers are left out: their data comes from the user's app, not from consent.
 */
export async function connectPageProviders(deps: Pick<CoreDeps, "db" | "providers" | "providerConfig">, session: ConnectSession): Promise<ConnectPageProvider[]> {
  const connections = new Map((await listUserConnections(deps.db, session.userId)).map((row) => [row.provider, row]));
  const entries: ConnectPageProvider[] = [];
  for (const descriptor of deps.providers.all()) {
    if (!isConnector(descriptor)) continue;
    const availability = await deps.providerConfig.availability(session.tenantId, descriptor);
    if (!availability.available) continue;
    const row = connections.get(descriptor.slug);
    let status: ConnectPageStatus = "not_connected";
    if (row && row.status !== "disconnected") {
      status = connectionHealth(row, availability).action === "reconnect" ? "needs_reconnect" : "connected";
    }
    entries.push({ slug: descriptor.slug, name: descriptor.name, status });
  }
  return entries;
}

/** A Connect button of the page: the same consent flow as the API, ending at the session's redirect_uri. */
export function startSessionConnection(deps: CoreDeps, session: ConnectSession, provider: string): Promise<{ authorize_url: string }> {
  return startConnection(deps, session.tenantId, session.userId, provider, session.redirectUri, session.token);
}
