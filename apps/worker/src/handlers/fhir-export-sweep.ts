import { sweepFhirExports } from "@svc/core";
import type { WorkerDeps } from "../worker-deps.ts";

/** Every 15 minutes, at minutes 7, 22, 37 and 52 (one run per tick across every process). */
const EVERY_15_MINUTES = "7,22,37,52 * * * *";

/** Deletes the files and rows of FHIR exports past their expiry, and of cancelled ones. */
export async function registerFhirExportSweep(deps: WorkerDeps): Promise<void> {
  const { jobs, logger } = deps;
  await jobs.work("fhir-export-sweep", async () => {
    const { deleted } = await sweepFhirExports(deps);
    if (deleted > 0) logger.info({ exports: deleted }, "expired or cancelled FHIR exports deleted");
  });
  await jobs.schedule("fhir-export-sweep", EVERY_15_MINUTES, {});
}
