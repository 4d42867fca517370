import { AppError } from "../errors/app-error.ts";
import type { Database } from "@svc/db";
import type { DbClient } from "../repositories/db-client.ts";
import { findDeletionJob, findTenantDeletionJob, setDeletionJobStatus } from "../repositories/deletion-job-repository.ts";
import { deleteIdempotencyRecordsOfUser } from "../repositories/idempotency-repository.ts";
import { deleteUserRow } from "../repositories/user-repository.ts";
import { deleteTokensOfUser } from "../repositories/user-token-repository.ts";
import { deleteWebhookDeliveriesAboutUser } from "../repositories/webhook-delivery-repository.ts";
import type { CoreDeps } from "../deps.ts";
import { releaseUserConnections } from "./connections.ts";
import { emitEvent } from "./events.ts";

export interface DeletionJobDto {
  job_id: string;
  user_id: string;
  provider: string | null;
  status: "pending" | "running" | "done" | "failed";
  created_at: string;
  finished_at: string | null;
}

export async function getDeletionJob(db: DbClient, tenantId: string, jobId: string): Promise<DeletionJobDto> {
  const job = await findTenantDeletionJob(db, tenantId, jobId);
  if (!job) throw new AppError("not_found", "No such deletion job.");
  return {
    job_id: job.id,
    user_id: job.userId,
    provider: job.provider,
    status: job.status,
    created_at: job.createdAt.toISOString(),
    finished_at: job.finishedAt?.toISOString() ?? null,
  };
}

/**
 * The background half of a user deletion: deletes the user's raw files and every row and, in the same
 * transaction as the final delete, writes `user.deleted` to the outbox and ends the job.
 * Safe to run again after a crash: every step is idempotent.
 */
export async function runUserDeletion(deps: CoreDeps, deletionJobId: string): Promise<void> {
  const { db, jobs, rawStore } = deps;
  const job = await findDeletionJob(db, deletionJobId);
  if (!job || job.status === "done") return;
  await setDeletionJobStatus(db, job.id, { status: "running" });
  // The user's grants are revoked and subscriptions removed at the providers while the
  // connection rows still hold the tokens; best effort, it never fails the deletion.
  await releaseUserConnections(deps, job.tenantId, job.userId).catch(() => {});
  // Raw files first: a crash after this leaves rows that point at nothing, and the retry deletes them.
  await rawStore.deleteUser(job.userId);
  await db.$transaction(async (tx) => {
    await deleteTokensOfUser(tx, job.userId);
    await deleteIdempotencyRecordsOfUser(tx, job.userId);
    await deleteUserRow(tx, job.userId);
    await deleteWebhookDeliveriesAboutUser(tx, job.userId);
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
