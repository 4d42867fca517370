import { ensurePartitionsAhead } from "@svc/core";
import type { WorkerDeps } from "../worker-deps.ts";

/** Daily at 03:17 UTC (one run per tick across every process). */
const EVERY_DAY = "17 3 * * *";

/** Makes the monthly partitions ahead: once before the workers start taking jobs, then daily. */
export async function registerPartitionsMaintain(deps: WorkerDeps): Promise<void> {
  const { jobs, logger, db } = deps;
  const maintain = async () => {
    const created = await ensurePartitionsAhead(db);
    if (created.length > 0) logger.info({ partitions: created }, "partitions created ahead");
  };
  // A failure here (a database not migrated yet: SVC_MIGRATE_ON_START=false) must not stop the
  // workers from starting; the daily run tries again.
  await maintain().catch((error: unknown) => logger.warn({ err: error }, "partitions could not be made ahead at start; the daily run tries again"));
  await jobs.work("partitions-maintain", maintain);
  await jobs.schedule("partitions-maintain", EVERY_DAY, {});
}
