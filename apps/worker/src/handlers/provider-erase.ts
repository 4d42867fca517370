import { failProviderErasure, runProviderErasure } from "@svc/core";
import type { WorkerDeps } from "../worker-deps.ts";

/** Erases a user's data of one provider; pg-boss retries a failed attempt, the last failure marks the job failed. */
export async function registerProviderErase(deps: WorkerDeps): Promise<void> {
  const { db, logger } = deps;
  await deps.jobs.work("provider-erase", async ({ deletion_job_id }, job) => {
    try {
      await runProviderErasure(deps, deletion_job_id);
    } catch (error) {
      logger.error({ err: error, deletion_job_id, attempt: job.retryCount + 1 }, "provider erasure attempt failed");
      if (job.lastAttempt) await failProviderErasure(db, deletion_job_id);
      throw error;
    }
  });
}
