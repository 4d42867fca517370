import { failUserDeletion, runUserDeletion } from "@svc/core";
import type { WorkerDeps } from "../worker-deps.ts";

/** Deletes a user's rows; pg-boss retries a failed attempt, the last failure marks the job failed. */
export async function registerUserDelete(deps: WorkerDeps): Promise<void> {
  const { db, jobs, logger } = deps;
  await jobs.work("user-delete", async ({ deletion_job_id }, job) => {
    try {
      await runUserDeletion(deps, deletion_job_id);
    } catch (error) {
      logger.error({ err: error, deletion_job_id, attempt: job.retryCount + 1 }, "user deletion attempt failed");
      if (job.lastAttempt) await failUserDeletion(db, deletion_job_id);
      throw error;
    }
  });
}
