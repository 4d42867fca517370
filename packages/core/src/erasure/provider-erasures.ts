import type { Database } from "@svc/db";
import { AppError, type DbClient } from "../platform/index.ts";
import type { CoreDeps } from "../deps.ts";
import { disconnectUserConnection, ERASURE_PULL_WAIT_MS, isConnected, pullOfProviderUnderWay } from "../connections/index.ts";
import {
  type DeletionJobDto,
  findDeletionJob,
  findOpenErasureJob,
  findUserById,
  getDeletionJob,
  insertDeletionJob,
  lockActiveUserForErasure,
  setDeletionJobStatus,
} from "../identity/index.ts";
import {
  deleteConnectionRows,
  deleteProviderRows,
  deleteRawObjectRows,
  deleteSelfReportIdempotencyRecords,
  listRawObjectKeys,
  type ErasureTarget,
} from "./provider-erasure-repository.ts";
import { emitEvent } from "../events/index.ts";
import { recomputeMenstrualCycles } from "../records/index.ts";
import { SELF_REPORT_PROVIDER } from "../ingest/index.ts";
import { revokeSharesOf } from "../sharing/index.ts";

/** Rows per delete statement: a user with millions of samples never holds one giant transaction. */
const ERASURE_BATCH = 10_000;
/** Raw objects whose files are deleted before their rows go, per round. */
const RAW_OBJECT_BATCH = 500;

/**
 * Whether the user is connected to the provider: a connection active or needing reauth
 * (409 "disconnect first"). Device providers (uploads, self reports) never are.
 */
async function providerConnected(db: DbClient, target: ErasureTarget): Promise<boolean> {
  return isConnected(db, target.userId, target.provider);
}

/**
 * DELETE /v1/users/{id}/data/{provider}: 404 for a provider unknown to this build or a user
 * not active in the tenant, 409 while the user is connected to the provider; otherwise the
 * erasure job (the one already pending or running, or a new one with its background job
 * queued in the same transaction). From here until the job is done, uploads and self
 * reports of the user and provider are refused with 409.
 */
export async function requestProviderErasure(
  deps: Pick<CoreDeps, "db" | "jobs" | "providers">,
  tenantId: string,
  userId: string,
  provider: string,
): Promise<DeletionJobDto> {
  if (!deps.providers.find(provider)) throw new AppError("not_found", `This build knows no provider ${provider}.`);
  const target = { userId, provider };
  const jobId = await deps.db.$transaction(async (tx) => {
    const user = await lockActiveUserForErasure(tx, tenantId, userId);
    if (!user) throw new AppError("not_found", "No such user.");
    if (await providerConnected(tx, target)) {
      throw new AppError("conflict", `The user is still connected to ${provider}; disconnect first.`);
    }
    const open = await findOpenErasureJob(tx, target);
    if (open) return open.id;
    // A replay of a stored self-report answer would hand back values being erased.
    if (provider === SELF_REPORT_PROVIDER) await deleteSelfReportIdempotencyRecords(tx, userId);
    const job = await insertDeletionJob(tx, { tenantId, userId, externalRef: user.external_ref, provider });
    await deps.jobs.send("provider-erase", { deletion_job_id: job.id }, tx);
    return job.id;
  });
  return getDeletionJob(deps.db, tenantId, jobId);
}

/**
 * DELETE /v1/users/{id}/connections/{provider}: the connection is disconnected
 * (disconnectUserConnection: tokens dropped, open sync runs cancelled, the grant released at
 * the provider, best effort); with deleteData the provider erasure follows (its job is the
 * answer). 404 when the user has no connection of the provider.
 */
export async function disconnectConnection(
  deps: CoreDeps,
  tenantId: string,
  userId: string,
  provider: string,
  deleteData: boolean,
): Promise<DeletionJobDto | null> {
  await disconnectUserConnection(deps, tenantId, userId, provider);
  if (!deleteData) return null;
  return requestProviderErasure(deps, tenantId, userId, provider);
}

/**
 * The background half of a provider erasure: raw files and their rows first (so an ETL
 * still running fails on its missing raw object, or has committed before the records are
 * deleted), then every record table in batches, then in one transaction what is left,
 * menstrual cycles recomputed (they derive from flow of any provider), the job done and
 * `data.erased`. Safe to run again after a crash: every step is idempotent.
 */
export async function runProviderErasure({ db, jobs, rawStore, sync }: Pick<CoreDeps, "db" | "jobs" | "rawStore" | "sync">, deletionJobId: string): Promise<void> {
  const job = await findDeletionJob(db, deletionJobId);
  if (!job || job.provider === null || job.status === "done") return;
  // A pull still running delays the erasure until it ends: this job ends, a later one looks again.
  if (await pullOfProviderUnderWay({ db, sync }, job.userId, job.provider)) {
    await jobs.send("provider-erase", { deletion_job_id: job.id }, undefined, { startAfter: new Date(Date.now() + ERASURE_PULL_WAIT_MS) });
    return;
  }
  await setDeletionJobStatus(db, job.id, { status: "running" });
  const target = { userId: job.userId, provider: job.provider };

  for (;;) {
    const rawObjects = await listRawObjectKeys(db, target, RAW_OBJECT_BATCH);
    if (rawObjects.length === 0) break;
    for (const raw of rawObjects) await rawStore.delete(raw.storageKey);
    await deleteRawObjectRows(db, target.userId, rawObjects.map((raw) => raw.id));
  }
  while ((await deleteProviderRows(db, target, ERASURE_BATCH)) > 0);

  await db.$transaction(async (tx) => {
    await deleteProviderRows(tx, target, null);
    await deleteConnectionRows(tx, target);
    if (target.provider === SELF_REPORT_PROVIDER) await deleteSelfReportIdempotencyRecords(tx, target.userId);
    await recomputeMenstrualCycles(tx, target.userId);
    // A user deleted meanwhile gets user.deleted, not data.erased.
    const user = await findUserById(tx, target.userId);
    if (user?.status === "active") {
      // Shares whose file holds records of the provider stop (share.revoked, reason provider_erased).
      await revokeSharesOf(tx, target, "provider_erased", jobs);
      await emitEvent(tx, jobs, {
        tenantId: job.tenantId,
        type: "data.erased",
        userId: job.userId,
        data: { user_id: job.userId, external_ref: job.externalRef, provider: target.provider, job_id: job.id },
      });
    }
    await setDeletionJobStatus(tx, job.id, { status: "done", finishedAt: new Date() });
  });
}

/** Records that an erasure gave up after its last attempt (uploads are accepted again); the reason stays in logs. */
export async function failProviderErasure(db: Database, deletionJobId: string): Promise<void> {
  await setDeletionJobStatus(db, deletionJobId, { status: "failed", finishedAt: new Date(), error: "erasure failed" });
}
