import type { DbClient } from "../platform/index.ts";

/**
 * The connection as the sync engine reads it: sync bookkeeping, health and its user.
 * Tokens are read only where a pull needs them (connection-token reads below).
 */
const syncConnectionFields = {
  id: true,
  userId: true,
  provider: true,
  status: true,
  providerUserId: true,
  scopes: true,
  keySource: true,
  applicationId: true,
  lastSyncAt: true,
  initialBackfillAt: true,
  syncedThrough: true,
  lastNotificationAt: true,
  nextPullAt: true,
  brokenReason: true,
  brokenAction: true,
  brokenSince: true,
  retryAt: true,
  consecutiveFailures: true,
  lastError: true,
  lastErrorAt: true,
  connectedAt: true,
  user: { select: { tenantId: true, externalRef: true, status: true } },
} as const;

export interface SyncConnectionRow {
  id: bigint;
  userId: string;
  provider: string;
  status: "active" | "needs_reauth" | "disconnected";
  providerUserId: string | null;
  scopes: string[];
  keySource: string;
  applicationId: string;
  lastSyncAt: Date | null;
  initialBackfillAt: Date | null;
  syncedThrough: Date | null;
  lastNotificationAt: Date | null;
  nextPullAt: Date | null;
  brokenReason: string | null;
  brokenAction: string | null;
  brokenSince: Date | null;
  retryAt: Date | null;
  consecutiveFailures: number;
  lastError: string | null;
  lastErrorAt: Date | null;
  connectedAt: Date;
  user: { tenantId: string; externalRef: string | null; status: "active" | "deleting" };
}

export function findSyncConnection(db: DbClient, id: bigint): Promise<SyncConnectionRow | null> {
  return db.connection.findFirst({ where: { id }, select: syncConnectionFields });
}

export function findUserSyncConnection(db: DbClient, userId: string, provider: string): Promise<SyncConnectionRow | null> {
  return db.connection.findUnique({ where: { userId_provider: { userId, provider } }, select: syncConnectionFields });
}

/** The user's connections (any status), in the order they were made. */
export function listUserSyncConnections(db: DbClient, userId: string): Promise<SyncConnectionRow[]> {
  return db.connection.findMany({ where: { userId }, select: syncConnectionFields, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
}

/** Locks the connection row until the transaction ends (sync now, health moves); null when gone. */
export async function lockSyncConnection(db: DbClient, id: bigint): Promise<SyncConnectionRow | null> {
  const rows = await db.$queryRaw<Array<{ id: bigint }>>`SELECT id FROM connections WHERE id = ${id} FOR UPDATE`;
  return rows[0] ? findSyncConnection(db, id) : null;
}

/**
 * Active connections of users of active accounts whose provider user id is this one (push
 * notifications); only those made with `applicationId` when given.
 */
export function findActiveConnectionsOfProviderUser(
  db: DbClient,
  provider: string,
  providerUserId: string,
  applicationId?: string,
): Promise<SyncConnectionRow[]> {
  return db.connection.findMany({
    where: { provider, providerUserId, status: "active", user: { status: "active" }, ...(applicationId ? { applicationId } : {}) },
    select: syncConnectionFields,
    orderBy: { id: "asc" },
  });
}

export function setLastNotificationAt(db: DbClient, ids: readonly bigint[], at: Date) {
  return db.connection.updateMany({ where: { id: { in: [...ids] } }, data: { lastNotificationAt: at } });
}

/** Active connections whose next pull is due (or was never planned), oldest plan first. */
export function listConnectionsDueForPull(db: DbClient, now: Date, limit: number): Promise<SyncConnectionRow[]> {
  return db.connection.findMany({
    where: { status: "active", user: { status: "active" }, OR: [{ nextPullAt: null }, { nextPullAt: { lte: now } }] },
    select: syncConnectionFields,
    orderBy: [{ nextPullAt: { sort: "asc", nulls: "first" } }, { id: "asc" }],
    take: limit,
  });
}

export function setNextPullAt(db: DbClient, id: bigint, at: Date) {
  return db.connection.updateMany({ where: { id }, data: { nextPullAt: at } });
}

/** A pull succeeded: sync times, failures counted from zero again. */
export function recordPullSuccess(db: DbClient, id: bigint, input: { at: Date; syncedThrough: Date; initialBackfillAt?: Date }) {
  return db.connection.updateMany({
    where: { id },
    data: {
      lastSyncAt: input.at,
      syncedThrough: input.syncedThrough,
      consecutiveFailures: 0,
      ...(input.initialBackfillAt && { initialBackfillAt: input.initialBackfillAt }),
    },
  });
}

/** A failed attempt: the provider's error in our words, one more failure in a row; answers the count. */
export async function recordPullFailure(
  db: DbClient,
  connection: { id: bigint; userId: string },
  input: { error: string; at: Date; countsAsFailure: boolean },
): Promise<number> {
  const row = await db.connection.update({
    where: { userId_id: { userId: connection.userId, id: connection.id } },
    data: {
      lastError: input.error,
      lastErrorAt: input.at,
      ...(input.countsAsFailure && { consecutiveFailures: { increment: 1 } }),
    },
    select: { consecutiveFailures: true },
  });
  return row.consecutiveFailures;
}

/** Health: broken with a reason and an action since `since` (kept when already broken), until `retryAt`. */
export function setConnectionBroken(db: DbClient, id: bigint, health: { reason: string; action: string; since: Date; retryAt: Date | null }) {
  return db.connection.updateMany({
    where: { id },
    data: { brokenReason: health.reason, brokenAction: health.action, brokenSince: health.since, retryAt: health.retryAt },
  });
}

/** The grant is refused (or the keys are gone): needs_reauth, broken with a reason, nothing planned. */
export function setConnectionNeedsReauth(db: DbClient, id: bigint, health: { reason: string; since: Date }) {
  return db.connection.updateMany({
    where: { id, status: "active" },
    data: { status: "needs_reauth", brokenReason: health.reason, brokenAction: "reconnect", brokenSince: health.since, retryAt: null },
  });
}

export function clearConnectionHealth(db: DbClient, id: bigint) {
  return db.connection.updateMany({ where: { id }, data: { brokenReason: null, brokenAction: null, brokenSince: null, retryAt: null } });
}

/** Where the connection's tokens stand: sealed, when the access token ends, and the version a refresh commits over. */
export interface ConnectionTokenState {
  status: "active" | "needs_reauth" | "disconnected";
  sealedTokens: string | null;
  accessExpiresAt: Date | null;
  tokenVersion: number;
}

export function findConnectionTokens(db: DbClient, id: bigint): Promise<ConnectionTokenState | null> {
  return db.connection.findFirst({ where: { id }, select: { status: true, sealedTokens: true, accessExpiresAt: true, tokenVersion: true } });
}

/** Locks the connection row for a token refresh; the state read under the lock. */
export async function lockConnectionTokens(db: DbClient, id: bigint): Promise<ConnectionTokenState | null> {
  const rows = await db.$queryRaw<Array<{ id: bigint }>>`SELECT id FROM connections WHERE id = ${id} FOR UPDATE`;
  return rows[0] ? findConnectionTokens(db, id) : null;
}

/** New tokens, committed only over the version they were refreshed from. */
export async function replaceConnectionTokens(
  db: DbClient,
  id: bigint,
  fromVersion: number,
  tokens: { sealedTokens: string; accessExpiresAt: Date | null; scopes: string[] | null },
): Promise<boolean> {
  const { count } = await db.connection.updateMany({
    where: { id, tokenVersion: fromVersion, status: "active" },
    data: {
      sealedTokens: tokens.sealedTokens,
      accessExpiresAt: tokens.accessExpiresAt,
      tokenVersion: { increment: 1 },
      ...(tokens.scopes && { scopes: tokens.scopes }),
    },
  });
  return count > 0;
}
