import type { CoreDeps } from "../../deps.ts";
import { listConnectionsDueForPull, lockSyncConnection, setNextPullAt } from "../connection-health-repository.ts";
import { deleteOrphanUserQuotas } from "../provider-quota-repository.ts";
import { findOpenSyncRun } from "../sync-run-repository.ts";
import { queueSyncRun } from "../sync-runs.ts";
import { incrementalStart, nextPullTime } from "./sync-windows.ts";

/** Connections planned per run of the `sync-plan` job (every minute); the rest wait for the next minute. */
const PLAN_BATCH = 500;

export interface PlanResult {
  /** Scheduled runs queued. */
  queued: number;
  /** Due connections left without a run: provider off or unavailable for the tenant, or a scheduled run still open. */
  skipped: number;
}

/**
 * The `sync-plan` job: queues a `scheduled` run for each active connection whose next pull
 * is due, and moves its next pull to its own slot of the connector's pull interval (a
 * connection never planned gets its first slot; its backfill covers the present). No run is
 * queued while the provider is off or unavailable for the tenant, nor a second open
 * scheduled run of one connection. Also drops the quota counters of erased connections.
 */
export async function planScheduledPulls(deps: CoreDeps): Promise<PlanResult> {
  const now = new Date();
  const result: PlanResult = { queued: 0, skipped: 0 };
  for (const due of await listConnectionsDueForPull(deps.db, now, PLAN_BATCH)) {
    const connector = deps.providers.connector(due.provider);
    const next = nextPullTime(due.id, connector?.pullIntervalMinutes ?? 60, now);
    const runs = connector ? (await deps.providerConfig.availability(due.user.tenantId, connector)).available : false;
    const queued = await deps.db.$transaction(async (tx) => {
      const connection = await lockSyncConnection(tx, due.id);
      // Gone, or planned meanwhile by another process.
      if (!connection || connection.status !== "active" || (connection.nextPullAt !== null && connection.nextPullAt > now)) return false;
      await setNextPullAt(tx, connection.id, next);
      if (connection.nextPullAt === null || !runs) return false;
      if (await findOpenSyncRun(tx, connection.id, "scheduled")) return false;
      await queueSyncRun(deps, tx, {
        connectionId: connection.id,
        userId: connection.userId,
        provider: connection.provider,
        trigger: "scheduled",
        windowStart: incrementalStart(connection.syncedThrough, now),
        windowEnd: now,
      });
      return true;
    });
    if (queued) result.queued += 1;
    else if (due.nextPullAt !== null) result.skipped += 1;
  }
  await deleteOrphanUserQuotas(deps.db);
  return result;
}
