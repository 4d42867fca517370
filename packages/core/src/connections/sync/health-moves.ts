import type { CoreDeps } from "../../deps.ts";
import {
  clearConnectionHealth,
  setConnectionBroken,
  setConnectionNeedsReauth,
  type SyncConnectionRow,
} from "../connection-health-repository.ts";
import type { DbClient } from "../../platform/index.ts";
import { ACTION_OF_REASON, type ConnectionHealthReason } from "../connection-health.ts";
import { emitEvent } from "../../events/index.ts";

/**
 * The moves of a connection's health made by the sync engine, each with its events in the
 * caller's transaction. A connection is broken from the first failure that breaks it until
 * a pull succeeds (or the user reconnects): one episode. connection.broken is sent when an
 * episode starts, and again only when its reason changes; connection.restored ends it.
 */

type ConnectionOfEvent = Pick<SyncConnectionRow, "id" | "userId" | "provider" | "status" | "brokenReason" | "brokenSince" | "user">;

const aboutConnection = (connection: ConnectionOfEvent) => ({
  user_id: connection.userId,
  external_ref: connection.user.externalRef,
  provider: connection.provider,
});

/**
 * The provider refused the grant (or the keys the connection was made with are gone):
 * needs_reauth, nothing syncs until the user reconnects. connection.needs_reauth and
 * connection.broken (action reconnect). False when it was not active any more.
 */
export async function moveToNeedsReauth(
  deps: Pick<CoreDeps, "jobs">,
  tx: DbClient,
  connection: ConnectionOfEvent,
  reason: Extract<ConnectionHealthReason, "needs_reauth" | "keys_changed">,
  now: Date,
): Promise<boolean> {
  const { count } = await setConnectionNeedsReauth(tx, connection.id, { reason, since: now });
  if (count === 0) return false;
  const tenantId = connection.user.tenantId;
  await emitEvent(tx, deps.jobs, { tenantId, userId: connection.userId, type: "connection.needs_reauth", data: aboutConnection(connection) });
  await emitEvent(tx, deps.jobs, {
    tenantId,
    userId: connection.userId,
    type: "connection.broken",
    data: { ...aboutConnection(connection), reason, action: ACTION_OF_REASON[reason], retry_at: null },
  });
  return true;
}

/**
 * The connection stays active but does not sync: a permission is missing, pulls keep
 * failing, or the provider's quota is spent for long. connection.broken when the episode
 * starts or its reason changes; otherwise only retry_at moves.
 */
export async function markBroken(
  deps: Pick<CoreDeps, "jobs">,
  tx: DbClient,
  connection: ConnectionOfEvent,
  broken: {
    reason: Extract<ConnectionHealthReason, "permission_missing" | "pulls_failing" | "provider_quota">;
    retryAt: Date | null;
    lastError: string | null;
    consecutiveFailures: number;
    now: Date;
  },
): Promise<void> {
  const action = ACTION_OF_REASON[broken.reason];
  const since = connection.brokenSince ?? broken.now;
  await setConnectionBroken(tx, connection.id, { reason: broken.reason, action, since, retryAt: broken.retryAt });
  if (connection.brokenReason === broken.reason) return;
  await emitEvent(tx, deps.jobs, {
    tenantId: connection.user.tenantId,
    userId: connection.userId,
    type: "connection.broken",
    data: {
      ...aboutConnection(connection),
      reason: broken.reason,
      action,
      retry_at: broken.retryAt?.toISOString() ?? null,
      last_error: broken.lastError,
      consecutive_failures: broken.consecutiveFailures,
    },
  });
}

/** A pull succeeded: a broken connection is healthy again (connection.restored). */
export async function markRestored(deps: Pick<CoreDeps, "jobs">, tx: DbClient, connection: ConnectionOfEvent, now: Date): Promise<void> {
  if (connection.brokenReason === null || connection.status !== "active") return;
  await clearConnectionHealth(tx, connection.id);
  const brokenSince = connection.brokenSince ?? now;
  await emitEvent(tx, deps.jobs, {
    tenantId: connection.user.tenantId,
    userId: connection.userId,
    type: "connection.restored",
    data: {
      ...aboutConnection(connection),
      previous_reason: connection.brokenReason,
      broken_since: brokenSince.toISOString(),
      broken_seconds: Math.max(0, Math.floor((now.getTime() - brokenSince.getTime()) / 1000)),
    },
  });
}
