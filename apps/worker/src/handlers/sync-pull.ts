import { abandonSyncRun, attemptSyncRun, type SyncAttemptResult } from "@svc/core";
import type { WorkerDeps } from "../worker-deps.ts";

/**
 * One attempt of one sync run. The retry schedule is the run's own (each failed or rate
 * limited attempt queues the next one); pg-boss retries a job only when its worker died or
 * the database failed. Logs carry ids, states and our words of the provider's error; never
 * a payload, a token or a health value.
 */
export async function registerSyncPull(deps: WorkerDeps): Promise<void> {
  const { jobs, logger } = deps;
  await jobs.work("sync-pull", async ({ sync_run_id }, job) => {
    let outcome: SyncAttemptResult;
    try {
      outcome = await attemptSyncRun(deps, BigInt(sync_run_id), job.retryCount > 0);
    } catch (error) {
      logger.error({ err: error, sync_run_id, attempt: job.retryCount + 1 }, "sync pull attempt crashed");
      if (job.lastAttempt) await abandonSyncRun(deps, BigInt(sync_run_id));
      throw error;
    }
    if (outcome.result === "nothing-to-do") return;
    const fields = {
      sync_run_id,
      provider: outcome.provider,
      result: outcome.result,
      attempts: outcome.attempts,
      objects_stored: outcome.objectsStored,
      error: outcome.error,
      next_attempt_at: outcome.nextAttemptAt?.toISOString(),
      provider_not_reached: outcome.providerNotReached || undefined,
    };
    if (outcome.cause !== undefined) logger.warn({ ...fields, err_name: (outcome.cause as Error)?.name }, "sync pull failed in the connector");
    else if (outcome.result === "succeeded") logger.debug(fields, "sync pull succeeded");
    else if (outcome.result === "failed") logger.warn(fields, "sync run failed");
    else logger.info(fields, `sync run ${outcome.result}`);
  });
}
