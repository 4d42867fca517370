import type { DbClient } from "../platform/index.ts";

/** Which active connections a key change leaves without a working application. */
export interface KeyChangeTarget {
  provider: string;
  /** Connections of this tenant's users only; null for every tenant (instance keys). */
  tenantId: string | null;
  /** `instance`, `tenant`: whose keys the connections were made with. */
  keySources: readonly string[];
  /** Connections made with this application keep working; null: none does. */
  keptApplicationId: string | null;
}

/**
 * The target's active connections, with what their health move and events need. The move
 * itself only takes a connection still active, so a concurrent change cannot move one twice.
 */
export function findConnectionsForKeyChange(db: DbClient, target: KeyChangeTarget) {
  return db.connection.findMany({
    where: {
      provider: target.provider,
      status: "active",
      keySource: { in: [...target.keySources] },
      ...(target.keptApplicationId !== null && { applicationId: { not: target.keptApplicationId } }),
      ...(target.tenantId !== null && { user: { tenantId: target.tenantId } }),
    },
    select: {
      id: true,
      userId: true,
      provider: true,
      status: true,
      brokenReason: true,
      brokenSince: true,
      user: { select: { tenantId: true, externalRef: true, status: true } },
    },
    orderBy: { id: "asc" },
  });
}

/**
 * Ends `cancelled` the queued pulls of a provider that was switched off: of one tenant's
 * users, or of every tenant's connections made with the instance's keys (`keySource`).
 */
export async function cancelQueuedSyncRuns(
  db: DbClient,
  target: { provider: string; tenantId: string | null; keySource?: string; error: string },
): Promise<number> {
  const { count } = await db.syncRun.updateMany({
    where: {
      provider: target.provider,
      status: "queued",
      ...(target.tenantId !== null && { user: { tenantId: target.tenantId } }),
      ...(target.keySource !== undefined && { connection: { keySource: target.keySource } }),
    },
    data: { status: "cancelled", error: target.error, nextAttemptAt: null, finishedAt: new Date() },
  });
  return count;
}
