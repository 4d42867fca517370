import { sweepDroppedUploads } from "@svc/core";
import type { WorkerDeps } from "../worker-deps.ts";

/** Every minute (one run per tick across every process). */
const EVERY_MINUTE = "* * * * *";

/** Deletes the bytes and rows of uploads whose process died or whose bytes stopped arriving. */
export async function registerUploadSweep(deps: WorkerDeps): Promise<void> {
  const { jobs, logger } = deps;
  await jobs.work("upload-sweep", async () => {
    const { dropped, failed } = await sweepDroppedUploads(deps);
    if (dropped.length > 0) logger.warn({ raw_object_ids: dropped }, "uploads whose heartbeat lapsed dropped (bytes and row)");
    for (const { id, error } of failed) logger.error({ raw_object_id: id, err: error }, "an upload whose heartbeat lapsed could not be dropped; the next sweep tries again");
  });
  await jobs.schedule("upload-sweep", EVERY_MINUTE, {});
}
