import type { CoreDeps } from "../deps.ts";
import type { DbClient } from "../platform/index.ts";

/**
 * Queues the ETL job of a raw object, in the caller's transaction when given. Jobs of one
 * user share a pg-boss group, which the `etl-raw-object` queue runs one at a time (oldest
 * first), while other users' jobs run beside it.
 */
export function sendEtlJob(deps: Pick<CoreDeps, "jobs">, raw: { id: string; userId: string }, tx?: DbClient): Promise<void> {
  return deps.jobs.send("etl-raw-object", { raw_object_id: raw.id }, tx, { group: { id: raw.userId } });
}
