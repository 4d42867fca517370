import { failTenantDeletion, runTenantDeletion } from "@svc/core";
import type { WorkerDeps } from "../worker-deps.ts";

/** Deletes a tenant; pg-boss retries a failed attempt, the last failure marks the deletion failed. */
export async function registerTenantDelete(deps: WorkerDeps): Promise<void> {
  const { jobs, logger } = deps;
  await jobs.work("tenant-delete", async ({ tenant_deletion_job_id }, job) => {
    try {
      await runTenantDeletion(deps, tenant_deletion_job_id);
    } catch (error) {
      logger.error({ err: error, tenant_deletion_job_id, attempt: job.retryCount + 1 }, "tenant deletion attempt failed");
      if (job.lastAttempt) await failTenantDeletion(deps, tenant_deletion_job_id);
      throw error;
    }
  });
}
