import type { CoreDeps } from "../deps.ts";
import { AppError } from "../platform/index.ts";
import {
  countUsersOfTenant,
  deleteTenantDeliveriesBatch,
  deleteTenantOutboxBatch,
  deleteTenantRows,
  disableEndpointsOfTenant,
  listUserIdsOfTenant,
  lockTenant,
  markTenantDeleting,
  markUsersOfTenantDeleting,
  pullUnderWayInTenant,
} from "./tenant-erasure-repository.ts";
import {
  type AuditContext,
  findTenantDeletionJobById,
  findTenantDeletionJobOfTenant,
  insertTenantDeletionJob,
  forgetCachedIdentities,
  recordAudit,
  setTenantDeletionJobState,
  type TenantDeletionJobRow,
} from "../identity/index.ts";
import { ERASURE_PULL_WAIT_MS } from "../connections/index.ts";
import { eraseUser } from "./user-erasure.ts";
import { discardFhirExportsOfTenant } from "../fhir/index.ts";

/** A tenant's deletion as the admin routes answer it. */
export interface TenantDeletionDto {
  job_id: string;
  tenant_id: string;
  tenant_name: string;
  status: "pending" | "running" | "done" | "failed";
  users_total: number;
  users_deleted: number;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

const toDto = (job: TenantDeletionJobRow): TenantDeletionDto => ({
  job_id: job.id,
  tenant_id: job.tenantId,
  tenant_name: job.tenantName,
  status: job.status,
  users_total: job.usersTotal,
  users_deleted: Math.min(job.usersDeleted, job.usersTotal),
  created_at: job.createdAt.toISOString(),
  started_at: job.startedAt?.toISOString() ?? null,
  finished_at: job.finishedAt?.toISOString() ?? null,
});

/** Users erased between two progress updates of the job. */
const USER_BATCH = 10;
/** Deliveries and outbox events deleted per statement before the last transaction. */
const ROW_BATCH = 5_000;
/** One run of the job works this long, then queues the next run: no job outlives a worker's shutdown grace by much. */
const RUN_SLICE_MS = 30_000;

/**
 * DELETE /v1/admin/tenants/{tenant_id} (and `svc admin tenant delete`): in one transaction,
 * under the tenant's row lock, the tenant turns `deleting` (its keys answer 401), every user
 * turns `deleting` (tokens 401, reads 404, uploads in flight 410, pulls and ETL stop), every
 * webhook endpoint is disabled (nothing more is sent), the job is recorded, audited as
 * `tenant.delete` (when an admin key asked) and queued. Asked again while it runs, it answers
 * the same job; a failed job is queued again. 404 for a tenant that is not there (any more).
 */
export async function requestTenantDeletion(
  deps: Pick<CoreDeps, "db" | "jobs">,
  requester: AuditContext | null,
  tenantId: string,
): Promise<TenantDeletionDto> {
  const deletion = await deps.db.$transaction(async (tx) => {
    const tenant = await lockTenant(tx, tenantId);
    if (!tenant) throw new AppError("not_found", "No such tenant.");
    const audit = async (jobId: string) => {
      if (requester) await recordAudit(tx, requester, "tenant.delete", { tenantId, resource: { type: "tenant_deletion", id: jobId } });
    };
    const existing = await findTenantDeletionJobOfTenant(tx, tenantId);
    if (existing) {
      if (existing.status !== "failed") return toDto(existing);
      await setTenantDeletionJobState(tx, existing.id, { status: "pending", error: null, finishedAt: null });
      await audit(existing.id);
      await deps.jobs.send("tenant-delete", { tenant_deletion_job_id: existing.id }, tx);
      return toDto({ ...existing, status: "pending", finishedAt: null });
    }
    await markTenantDeleting(tx, tenantId);
    await markUsersOfTenantDeleting(tx, tenantId);
    await disableEndpointsOfTenant(tx, tenantId);
    const job = await insertTenantDeletionJob(tx, {
      tenantId,
      tenantName: tenant.name,
      usersTotal: await countUsersOfTenant(tx, tenantId),
      requestedBy: requester?.actor.id ?? null,
    });
    await audit(job.id);
    await deps.jobs.send("tenant-delete", { tenant_deletion_job_id: job.id }, tx);
    return toDto(job);
  });
  forgetCachedIdentities({ tenantId });
  return deletion;
}

/** GET /v1/admin/tenant-deletions/{job_id}: readable after the tenant is gone. An instance-level read: not audited. */
export async function getTenantDeletion(deps: Pick<CoreDeps, "db">, jobId: string): Promise<TenantDeletionDto> {
  const job = await findTenantDeletionJobById(deps.db, jobId);
  if (!job) throw new AppError("not_found", "No such tenant deletion.");
  return toDto(job);
}

/**
 * The `tenant-delete` job: erases each user the way a user deletion does (grants revoked best
 * effort, raw files, every row; no user.deleted event: the tenant's endpoints go too), then the
 * tenant's deliveries and outbox in batches, then, in one transaction, its last rows and the
 * tenant itself, ending the job. A pull still running (its users turned `deleting`, so no new
 * one starts) delays the job until it ends, as it does a provider erasure. A run stops after
 * about 30 s and queues the next one. Safe to run again after a crash, or twice at once: every
 * step is idempotent.
 */
export async function runTenantDeletion(deps: CoreDeps, jobId: string): Promise<void> {
  const { db, jobs } = deps;
  const job = await findTenantDeletionJobById(db, jobId);
  if (!job || job.status === "done") return;
  if (job.status !== "running") await setTenantDeletionJobState(db, job.id, { status: "running", startedAt: job.startedAt ?? new Date() });
  const { tenantId } = job;
  if (await pullUnderWayInTenant(db, tenantId, new Date(Date.now() - deps.sync.runLeaseMs))) {
    await jobs.send("tenant-delete", { tenant_deletion_job_id: job.id }, undefined, { startAfter: new Date(Date.now() + ERASURE_PULL_WAIT_MS) });
    return;
  }
  const sliceEnds = Date.now() + RUN_SLICE_MS;

  for (;;) {
    const userIds = await listUserIdsOfTenant(db, tenantId, USER_BATCH);
    if (userIds.length === 0) break;
    for (const userId of userIds) await eraseUser(deps, { tenantId, userId });
    const remaining = await countUsersOfTenant(db, tenantId);
    await setTenantDeletionJobState(db, job.id, { usersDeleted: Math.max(0, job.usersTotal - remaining) });
    if (Date.now() > sliceEnds) {
      await jobs.send("tenant-delete", { tenant_deletion_job_id: job.id });
      return;
    }
  }

  // Exports no erased user dated (kicked off before any of them existed) still have files.
  await discardFhirExportsOfTenant(deps, tenantId);
  while ((await deleteTenantDeliveriesBatch(db, tenantId, ROW_BATCH)) > 0);
  while ((await deleteTenantOutboxBatch(db, tenantId, ROW_BATCH)) > 0);
  await db.$transaction(async (tx) => {
    // The lock waits for a user being created at this moment (its insert holds the tenant row):
    // that user is then found here, and the job's next attempt erases it.
    await lockTenant(tx, tenantId);
    if ((await countUsersOfTenant(tx, tenantId)) > 0) throw new Error("a user was added to the tenant during its deletion");
    await deleteTenantRows(tx, tenantId);
    await setTenantDeletionJobState(tx, job.id, { status: "done", usersDeleted: job.usersTotal, finishedAt: new Date() });
  });
}

/** Records that a tenant deletion gave up after its last attempt; the reason stays in logs. DELETE again queues it again. */
export async function failTenantDeletion(deps: Pick<CoreDeps, "db">, jobId: string): Promise<void> {
  await setTenantDeletionJobState(deps.db, jobId, { status: "failed", finishedAt: new Date(), error: "tenant deletion failed" });
}
