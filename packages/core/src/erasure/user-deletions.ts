import type { Database } from "@svc/db";
import { findDeletionJob, setDeletionJobStatus } from "../identity/index.ts";
import type { CoreDeps } from "../deps.ts";
import { emitEvent } from "../events/index.ts";
import { eraseUser } from "./user-erasure.ts";

/**
 * The background half of a user deletion: deletes the user's raw files and every row and, in the same
 * transaction as the final delete, writes `user.deleted` to the outbox and ends the job.
 * Safe to run again after a crash: every step is idempotent. A job whose row is gone (its
 * tenant was deleted meanwhile) has nothing left to do.
 */
export async function runUserDeletion(deps: CoreDeps, deletionJobId: string): Promise<void> {
  const { db, jobs } = deps;
  const job = await findDeletionJob(db, deletionJobId);
  if (!job || job.status === "done") return;
  await setDeletionJobStatus(db, job.id, { status: "running" });
  await eraseUser(deps, { tenantId: job.tenantId, userId: job.userId }, async (tx) => {
    await emitEvent(tx, jobs, {
      tenantId: job.tenantId,
      type: "user.deleted",
      userId: job.userId,
      data: { user_id: job.userId, external_ref: job.externalRef },
    });
    await setDeletionJobStatus(tx, job.id, { status: "done", finishedAt: new Date() });
  });
}

/** Records that a deletion gave up after its last attempt; the reason stays in logs. */
export async function failUserDeletion(db: Database, deletionJobId: string): Promise<void> {
  await setDeletionJobStatus(db, deletionJobId, { status: "failed", finishedAt: new Date(), error: "deletion failed" });
}
