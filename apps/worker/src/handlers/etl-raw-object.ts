import { giveUpRawObject, processRawObject } from "@svc/core";
import { parseRawObject } from "@svc/providers";
import type { WorkerDeps } from "../worker-deps.ts";

/** Parses and stores one raw object; pg-boss retries a failed attempt, the last failure marks it failed. */
export async function registerEtlRawObject(deps: WorkerDeps): Promise<void> {
  const { db, jobs, logger } = deps;
  await jobs.work("etl-raw-object", async ({ raw_object_id }, job) => {
    try {
      await processRawObject(deps, raw_object_id, parseRawObject);
    } catch (error) {
      logger.error({ err: error, raw_object_id, attempt: job.retryCount + 1 }, "ETL attempt failed");
      if (job.lastAttempt) await giveUpRawObject(db, raw_object_id);
      throw error;
    }
  });
}
