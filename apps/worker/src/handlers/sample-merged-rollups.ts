import { refreshMergedSampleRollups } from "@svc/core";
import type { WorkerDeps } from "../worker-deps.ts";

/** Computes the merged rollups of one user's type over its stale range; pg-boss retries a failed attempt. */
export async function registerSampleMergedRollups(deps: WorkerDeps): Promise<void> {
  const { db, logger } = deps;
  await deps.jobs.work("sample-merged-rollups", async ({ user_id, type }, job) => {
    try {
      await refreshMergedSampleRollups(db, user_id, type);
    } catch (error) {
      logger.error({ err: error, user_id, type, attempt: job.retryCount + 1 }, "merged rollups could not be computed; stats compute them from the samples meanwhile");
      throw error;
    }
  });
}
