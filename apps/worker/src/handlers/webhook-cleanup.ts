import { cleanUpWebhookDeliveries } from "@svc/core";
import type { WorkerDeps } from "../worker-deps.ts";

/** Hourly, at minute 23 (one run per tick across every process). */
const EVERY_HOUR = "23 * * * *";

/** Deletes finished deliveries (and outbox events) past the retention of the delivery schedule. */
export async function registerWebhookCleanup(deps: WorkerDeps): Promise<void> {
  const { jobs, logger } = deps;
  await jobs.work("webhook-cleanup", async () => {
    const deleted = await cleanUpWebhookDeliveries(deps);
    if (deleted.deliveries > 0 || deleted.events > 0) logger.info(deleted, "old webhook deliveries and events deleted");
  });
  await jobs.schedule("webhook-cleanup", EVERY_HOUR, {});
}
