import type { ConnectionRow } from "./connection-repository.ts";

/**
 * Why a connection does not sync (health.reason), and what it takes (health.action). The
 * sync engine stores reason and action of a broken connection (broken_reason,
 * broken_action); the provider's availability for the tenant is read live.
 */
export const CONNECTION_HEALTH_REASONS = {
  needs_reauth: "The provider refused the grant (revoked, expired): the user must reconnect.",
  keys_changed: "The tenant's keys now name another application at the provider: the user must reconnect.",
  permission_missing: "A scope or permission is missing at the provider: the user must reconnect and allow it.",
  pulls_failing: "Pulls keep failing (provider errors or unreachable); svc keeps retrying.",
  rate_limited: "The provider asked to wait; svc pulls again at retry_at.",
  provider_quota: "The provider's request quota for the application is spent; svc pulls again at retry_at.",
  provider_off: "An instance admin switched the provider off for the tenant; nothing syncs until it is on again.",
  provider_unavailable: "The provider has no working keys on this instance (not configured, off, or keys in error); an instance admin must fix it.",
  disconnected: "The connection was disconnected; the user can connect again.",
} as const;

export type ConnectionHealthReason = keyof typeof CONNECTION_HEALTH_REASONS;

export const CONNECTION_HEALTH_ACTIONS = {
  none: "Nothing to do: the connection syncs.",
  reconnect: "The user must go through consent again (POST /v1/users/{id}/connections/{provider} or a connect session).",
  wait: "Nothing to do but wait: svc retries by itself (at retry_at when known).",
  contact_support: "Neither the user nor the tenant can fix it through the API: an instance admin must act.",
  connect: "The user is not connected; connecting again is up to them.",
} as const;

export type ConnectionHealthAction = keyof typeof CONNECTION_HEALTH_ACTIONS;

/** The action each reason calls for. */
export const ACTION_OF_REASON: Readonly<Record<ConnectionHealthReason, ConnectionHealthAction>> = {
  needs_reauth: "reconnect",
  keys_changed: "reconnect",
  permission_missing: "reconnect",
  pulls_failing: "wait",
  rate_limited: "wait",
  provider_quota: "wait",
  provider_off: "contact_support",
  provider_unavailable: "contact_support",
  disconnected: "connect",
};

export interface ConnectionHealth {
  healthy: boolean;
  reason: ConnectionHealthReason | null;
  action: ConnectionHealthAction;
  /** Since when it is unhealthy; null while healthy. */
  since: Date | null;
  /** When svc tries again by itself, when known. */
  retry_at: Date | null;
}

/** Whether the provider can run for the tenant now (switch on, keys working). */
export interface ProviderRunState {
  enabled: boolean;
  available: boolean;
}

const HEALTHY: ConnectionHealth = { healthy: true, reason: null, action: "none", since: null, retry_at: null };

/** The health of one connection from its row and its provider's state for the tenant (null: provider gone from this build). */
export function connectionHealth(row: ConnectionRow, provider: ProviderRunState | null): ConnectionHealth {
  if (row.status === "disconnected") return unhealthy("disconnected", row.disconnectedAt ?? row.updatedAt, null);
  const stored = knownReason(row.brokenReason);
  if (row.status === "needs_reauth") {
    const reason = stored && ACTION_OF_REASON[stored] === "reconnect" ? stored : "needs_reauth";
    return unhealthy(reason, row.brokenSince ?? row.updatedAt, null);
  }
  if (provider && !provider.enabled) return unhealthy("provider_off", null, null);
  if (!provider || !provider.available) return unhealthy("provider_unavailable", null, null);
  if (stored) return unhealthy(stored, row.brokenSince ?? row.updatedAt, row.retryAt, knownAction(row.brokenAction));
  return HEALTHY;
}

function unhealthy(reason: ConnectionHealthReason, since: Date | null, retryAt: Date | null, action?: ConnectionHealthAction | null): ConnectionHealth {
  return { healthy: false, reason, action: action ?? ACTION_OF_REASON[reason], since, retry_at: retryAt };
}

/** The action the sync engine stored with the reason, when it is one of ours. */
function knownAction(value: string | null): ConnectionHealthAction | null {
  return value !== null && value in CONNECTION_HEALTH_ACTIONS ? (value as ConnectionHealthAction) : null;
}

/** A stored reason; one this build does not know reads as pulls_failing (still unhealthy). */
function knownReason(value: string | null): ConnectionHealthReason | null {
  if (value === null) return null;
  return value in CONNECTION_HEALTH_REASONS ? (value as ConnectionHealthReason) : "pulls_failing";
}
