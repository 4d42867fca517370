import type { CoreDeps } from "../../deps.ts";
import type { DbClient } from "../../platform/index.ts";
import type { SyncTrigger } from "../sync-run-repository.ts";

/** pg-boss priority of a run's jobs: what a person or the provider asked for first, backfill chunks last. */
const TRIGGER_PRIORITY: Readonly<Record<SyncTrigger, number>> = { manual: 30, notification: 20, scheduled: 20, backfill: 0 };

/**
 * Sends the job of a run's next attempt in the caller's transaction. Jobs of one provider
 * application share a pg-boss group, which the `sync-pull` queue caps (backfill chunks more
 * tightly, by their tier), so one application's runs cannot take every worker.
 */
export function sendPullJob(
  deps: Pick<CoreDeps, "jobs">,
  tx: DbClient,
  run: { id: bigint; provider: string; trigger: SyncTrigger },
  applicationId: string,
  startAfter: Date | null = null,
): Promise<void> {
  return deps.jobs.send("sync-pull", { sync_run_id: run.id.toString() }, tx, {
    ...(startAfter !== null && startAfter.getTime() > Date.now() && { startAfter }),
    priority: TRIGGER_PRIORITY[run.trigger],
    group: { id: `${run.provider}:${applicationId}`, ...(run.trigger === "backfill" && { tier: "backfill" }) },
  });
}
