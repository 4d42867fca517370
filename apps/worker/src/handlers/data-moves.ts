import { moveLegacyData } from "@svc/core";
import type { WorkerDeps } from "../worker-deps.ts";

/** Every minute (one run per tick across every process). */
const EVERY_MINUTE = "* * * * *";
/** A run stops taking batches after this long, so that runs rarely overlap. */
const RUN_MS = 45_000;

/**
 * Moves the rows an upgrade left in legacy tables into the new ones, a batch at a time while
 * svc serves (docs/decisions.md, "Online data moves"); once none is left a run costs one query
 * per legacy table.
 */
export async function registerDataMoves(deps: WorkerDeps): Promise<void> {
  const { db, jobs, logger } = deps;
  await jobs.work("data-moves", async () => {
    const run = await moveLegacyData(db, { until: new Date(Date.now() + RUN_MS) });
    const moved = Object.values(run.moved).reduce((a, b) => a + b, 0);
    if (moved > 0) logger.info({ moved: run.moved, done: run.done }, "legacy rows moved");
  });
  await jobs.schedule("data-moves", EVERY_MINUTE, {});
}
