import { failFhirExport, runFhirExport } from "@svc/core";
import type { WorkerDeps } from "../worker-deps.ts";

/** Runs a FHIR Bulk Data export; pg-boss retries a failed attempt, the last failure marks the export failed. */
export async function registerFhirExport(deps: WorkerDeps): Promise<void> {
  const { jobs, logger } = deps;
  await jobs.work("fhir-export", async ({ fhir_export_id }, job) => {
    try {
      await runFhirExport(deps, fhir_export_id);
    } catch (error) {
      logger.error({ err: error, fhir_export_id, attempt: job.retryCount + 1 }, "FHIR export attempt failed");
      if (job.lastAttempt) await failFhirExport(deps, fhir_export_id, error);
      throw error;
    }
  });
}
