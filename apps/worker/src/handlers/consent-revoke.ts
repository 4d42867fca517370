import { failConsentRevocation, runConsentRevocation } from "@svc/core";
import type { WorkerDeps } from "../worker-deps.ts";

/** Deletes a user's records of revoked categories of one provider; pg-boss retries a failed attempt, the last failure marks the job failed. */
export async function registerConsentRevoke(deps: WorkerDeps): Promise<void> {
  const { db, logger } = deps;
  await deps.jobs.work("consent-revoke", async ({ deletion_job_id }, job) => {
    try {
      await runConsentRevocation(deps, deletion_job_id);
    } catch (error) {
      logger.error({ err: error, deletion_job_id, attempt: job.retryCount + 1 }, "consent revocation attempt failed");
      if (job.lastAttempt) await failConsentRevocation(db, deletion_job_id);
      throw error;
    }
  });
}
