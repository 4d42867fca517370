import type { DbClient } from "../platform/index.ts";

const jobFields = {
  id: true,
  tenantId: true,
  userId: true,
  externalRef: true,
  provider: true,
  status: true,
  createdAt: true,
  finishedAt: true,
} as const;

export function insertDeletionJob(
  db: DbClient,
  input: { tenantId: string; userId: string; externalRef: string | null; provider: string | null },
) {
  return db.deletionJob.create({ data: input, select: jobFields });
}

export function findDeletionJob(db: DbClient, id: string) {
  return db.deletionJob.findUnique({ where: { id }, select: jobFields });
}

export function findTenantDeletionJob(db: DbClient, tenantId: string, id: string) {
  return db.deletionJob.findFirst({ where: { id, tenantId }, select: jobFields });
}

export function setDeletionJobStatus(
  db: DbClient,
  id: string,
  data: { status: "running" | "done" | "failed"; finishedAt?: Date; error?: string },
) {
  return db.deletionJob.update({ where: { id }, data, select: { id: true } });
}

/** Whether an erasure of the user's data of this provider is pending or running (a consent revocation's job is not one). */
export async function erasureRunning(db: DbClient, userId: string, provider: string): Promise<boolean> {
  return (await findOpenErasureJob(db, { userId, provider })) !== null;
}

/** The user's erasure of this provider that is pending or running, if any (a consent revocation's job is not one). */
export function findOpenErasureJob(db: DbClient, target: { userId: string; provider: string }) {
  return db.deletionJob.findFirst({
    where: { userId: target.userId, provider: target.provider, status: { in: ["pending", "running"] }, categories: { isEmpty: true } },
    select: { id: true },
    orderBy: { createdAt: "asc" },
  });
}

/** The consent revocations (deletion jobs with categories) of the user and provider, newest first. */
export function listConsentDeletionJobs(db: DbClient, userId: string, provider: string) {
  return db.deletionJob.findMany({
    where: { userId, provider, NOT: { categories: { isEmpty: true } } },
    select: { id: true, categories: true, status: true, createdAt: true },
    orderBy: { createdAt: "desc" },
  });
}

export function insertConsentDeletionJob(
  db: DbClient,
  input: { tenantId: string; userId: string; externalRef: string | null; provider: string; categories: readonly string[] },
) {
  return db.deletionJob.create({ data: { ...input, categories: [...input.categories] }, select: { id: true } });
}

/** A consent revocation's job: its user, provider and categories. */
export function findConsentDeletionJob(db: DbClient, id: string) {
  return db.deletionJob.findUnique({
    where: { id },
    select: { id: true, tenantId: true, userId: true, provider: true, categories: true, status: true },
  });
}
