import { queueStaleMergedRollups } from "@svc/core";
import type { WorkerDeps } from "../worker-deps.ts";

/** Every minute (one run per tick across every process). */
const EVERY_MINUTE = "* * * * *";

/** Queues the computation of merged rollups for every user and type whose rollups are stale. */
export async function registerSampleRollupsSweep(deps: WorkerDeps): Promise<void> {
  await deps.jobs.work("sample-rollups-sweep", async () => {
    await queueStaleMergedRollups(deps);
  });
  await deps.jobs.schedule("sample-rollups-sweep", EVERY_MINUTE, {});
}
