import type { DbClient } from "../platform/index.ts";

const connectionFields = {
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
  brokenReason: true,
  brokenAction: true,
  brokenSince: true,
  retryAt: true,
  connectedAt: true,
  disconnectedAt: true,
  createdAt: true,
  updatedAt: true,
} as const;

export type ConnectionStatus = "active" | "needs_reauth" | "disconnected";

/** A connection as the routes read it; the sealed tokens are read only where needed. */
export interface ConnectionRow {
  id: bigint;
  userId: string;
  provider: string;
  status: ConnectionStatus;
  providerUserId: string | null;
  scopes: string[];
  keySource: string;
  applicationId: string;
  lastSyncAt: Date | null;
  initialBackfillAt: Date | null;
  brokenReason: string | null;
  brokenAction: string | null;
  brokenSince: Date | null;
  retryAt: Date | null;
  connectedAt: Date;
  disconnectedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** What a consent writes on the connection. */
export interface ConnectedWrite {
  userId: string;
  provider: string;
  providerUserId: string;
  scopes: string[];
  sealedTokens: string;
  accessExpiresAt: Date | null;
  keySource: string;
  applicationId: string;
  connectedAt: Date;
}

/** The user's connections, one per provider, in the order they were first made. */
export function listUserConnections(db: DbClient, userId: string): Promise<ConnectionRow[]> {
  return db.connection.findMany({ where: { userId }, select: connectionFields, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
}

/** Locks the user's connection of the provider until the transaction ends (a token refresh or a pull holding it waits). */
export async function lockConnection(db: DbClient, userId: string, provider: string): Promise<ConnectionRow | null> {
  const rows = await db.$queryRaw<Array<{ id: bigint }>>`
    SELECT id FROM connections WHERE user_id = ${userId}::uuid AND provider = ${provider} FOR UPDATE`;
  if (!rows[0]) return null;
  return db.connection.findFirst({ where: { userId, id: rows[0].id }, select: connectionFields });
}

/** The sealed tokens of a connection (null once disconnected). */
export async function findSealedTokens(db: DbClient, connectionId: bigint): Promise<string | null> {
  const row = await db.connection.findFirst({ where: { id: connectionId }, select: { sealedTokens: true } });
  return row?.sealedTokens ?? null;
}

/**
 * Another user of the same tenant whose connection of the provider (active or needs_reauth)
 * is to the same account at the provider.
 */
export function findOtherUsersConnection(db: DbClient, input: { tenantId: string; userId: string; provider: string; providerUserId: string }) {
  return db.connection.findFirst({
    where: {
      provider: input.provider,
      providerUserId: input.providerUserId,
      status: { in: ["active", "needs_reauth"] },
      userId: { not: input.userId },
      user: { tenantId: input.tenantId },
    },
    select: { id: true, userId: true },
  });
}

/**
 * Makes the user's connection of the provider active with a new grant: created, or
 * reconnected (health cleared, tokens replaced, token version bumped so a refresh that read
 * the old tokens does not commit over the new ones).
 */
export function upsertConnectedConnection(db: DbClient, input: ConnectedWrite): Promise<ConnectionRow> {
  const grant = {
    status: "active" as const,
    providerUserId: input.providerUserId,
    scopes: input.scopes,
    sealedTokens: input.sealedTokens,
    accessExpiresAt: input.accessExpiresAt,
    keySource: input.keySource,
    applicationId: input.applicationId,
    connectedAt: input.connectedAt,
    disconnectedAt: null,
    brokenReason: null,
    brokenAction: null,
    brokenSince: null,
    retryAt: null,
    consecutiveFailures: 0,
  };
  return db.connection.upsert({
    where: { userId_provider: { userId: input.userId, provider: input.provider } },
    create: { userId: input.userId, provider: input.provider, ...grant },
    update: { ...grant, tokenVersion: { increment: 1 } },
    select: connectionFields,
  });
}

/** Disconnected: no tokens, no health, no pull planned; the bookkeeping of syncs stays. */
export async function markConnectionDisconnected(db: DbClient, connectionId: bigint, at: Date): Promise<void> {
  await db.connection.updateMany({
    where: { id: connectionId },
    data: {
      status: "disconnected",
      disconnectedAt: at,
      sealedTokens: null,
      accessExpiresAt: null,
      tokenVersion: { increment: 1 },
      nextPullAt: null,
      brokenReason: null,
      brokenAction: null,
      brokenSince: null,
      retryAt: null,
      consecutiveFailures: 0,
    },
  });
}

/** Whether the user is connected to the provider (active or needs_reauth: not disconnected). */
export async function isConnected(db: DbClient, userId: string, provider: string): Promise<boolean> {
  const count = await db.connection.count({ where: { userId, provider, status: { in: ["active", "needs_reauth"] } } });
  return count > 0;
}

export function insertPushSubscriptions(db: DbClient, connection: { id: bigint; userId: string; provider: string }, externalIds: readonly string[]) {
  return db.pushSubscription.createMany({
    data: externalIds.map((externalId) => ({ connectionId: connection.id, userId: connection.userId, provider: connection.provider, externalId })),
    skipDuplicates: true,
  });
}

export function listPushSubscriptions(db: DbClient, connection: { id: bigint; userId: string }) {
  return db.pushSubscription.findMany({
    where: { userId: connection.userId, connectionId: connection.id },
    select: { id: true, externalId: true },
    orderBy: { id: "asc" },
  });
}

export function deletePushSubscriptions(db: DbClient, userId: string, ids: readonly bigint[]) {
  return db.pushSubscription.deleteMany({ where: { userId, id: { in: [...ids] } } });
}
