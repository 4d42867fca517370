import { requeueOrphanedRawObjects } from "@svc/core";
import type { WorkerDeps } from "../worker-deps.ts";

/** Every 10 minutes (one run per tick across every process). */
const EVERY_10_MINUTES = "*/10 * * * *";

/** Gives raw objects left pending without an ETL job a new one. */
export async function registerEtlSweep(deps: WorkerDeps): Promise<void> {
  const { jobs, logger } = deps;
  await jobs.work("etl-sweep", async () => {
    const requeued = await requeueOrphanedRawObjects(deps);
    if (requeued.length > 0) logger.warn({ raw_object_ids: requeued }, "pending uploads without an ETL job queued again");
  });
  await jobs.schedule("etl-sweep", EVERY_10_MINUTES, {});
}
