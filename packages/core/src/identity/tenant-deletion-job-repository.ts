import type { DbClient } from "../platform/index.ts";

const jobFields = {
  id: true,
  tenantId: true,
  tenantName: true,
  status: true,
  usersTotal: true,
  usersDeleted: true,
  createdAt: true,
  startedAt: true,
  finishedAt: true,
} as const;

export interface TenantDeletionJobRow {
  id: string;
  tenantId: string;
  tenantName: string;
  status: "pending" | "running" | "done" | "failed";
  usersTotal: number;
  usersDeleted: number;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
}

export function insertTenantDeletionJob(
  db: DbClient,
  input: { tenantId: string; tenantName: string; usersTotal: number; requestedBy: string | null },
): Promise<TenantDeletionJobRow> {
  return db.tenantDeletionJob.create({ data: input, select: jobFields });
}

export function findTenantDeletionJobById(db: DbClient, id: string): Promise<TenantDeletionJobRow | null> {
  return db.tenantDeletionJob.findUnique({ where: { id }, select: jobFields });
}

/** The deletion of a tenant (there is at most one per tenant), or null. */
export function findTenantDeletionJobOfTenant(db: DbClient, tenantId: string): Promise<TenantDeletionJobRow | null> {
  return db.tenantDeletionJob.findUnique({ where: { tenantId }, select: jobFields });
}

/** The deletions of these tenants, for a list of tenants some of which are being deleted. */
export function listTenantDeletionJobsOf(db: DbClient, tenantIds: string[]): Promise<Array<{ id: string; tenantId: string }>> {
  return db.tenantDeletionJob.findMany({ where: { tenantId: { in: tenantIds } }, select: { id: true, tenantId: true } });
}

/** Whether a tenant of this name was ever deleted (or is being deleted). */
export async function tenantNameWasDeleted(db: DbClient, name: string): Promise<boolean> {
  return (await db.tenantDeletionJob.findFirst({ where: { tenantName: name }, select: { id: true } })) !== null;
}

/** How many tenant deletions the instance has seen. */
export function countTenantDeletionJobs(db: DbClient): Promise<number> {
  return db.tenantDeletionJob.count();
}

export async function setTenantDeletionJobState(
  db: DbClient,
  id: string,
  data: {
    status?: "pending" | "running" | "done" | "failed";
    usersDeleted?: number;
    startedAt?: Date;
    finishedAt?: Date | null;
    error?: string | null;
  },
): Promise<void> {
  await db.tenantDeletionJob.update({ where: { id }, data, select: { id: true } });
}
