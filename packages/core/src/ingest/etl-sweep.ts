import type { CoreDeps } from "../deps.ts";
import { findPendingRawObjectsWithoutJob } from "./raw-object-repository.ts";
import { sendEtlJob } from "./etl-jobs.ts";

/**
 * Longer than one ETL attempt may run (the job's 35-minute expiry): an object younger than
 * this may still be in the hands of a worker that pg-boss has not yet given up on.
 */
const STALE_AFTER_MS = 40 * 60 * 1000;
const BATCH = 500;

/**
 * An accepted upload is never left unprocessed: a raw object still pending, long after it
 * arrived, with no ETL job waiting for it or running it, gets a new job. Its ETL locks the
 * row and does nothing when the object is no longer pending, so a job sent twice is harmless.
 */
export async function requeueOrphanedRawObjects(deps: Pick<CoreDeps, "db" | "jobs">, now = new Date()): Promise<string[]> {
  const orphans = await findPendingRawObjectsWithoutJob(deps.db, new Date(now.getTime() - STALE_AFTER_MS), BATCH);
  for (const orphan of orphans) await sendEtlJob(deps, orphan);
  return orphans.map((orphan) => orphan.id);
}
