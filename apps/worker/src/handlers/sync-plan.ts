import { planScheduledPulls } from "@svc/core";
import type { WorkerDeps } from "../worker-deps.ts";

/** Every minute (one run per tick across every process). */
const EVERY_MINUTE = "* * * * *";

/** Queues the scheduled pulls that are due, spread over each connector's pull interval. */
export async function registerSyncPlan(deps: WorkerDeps): Promise<void> {
  const { jobs, logger } = deps;
  await jobs.work("sync-plan", async () => {
    const planned = await planScheduledPulls(deps);
    if (planned.queued > 0 || planned.skipped > 0) logger.info(planned, "scheduled pulls planned");
  });
  await jobs.schedule("sync-plan", EVERY_MINUTE, {});
}
