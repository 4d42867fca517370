import type { DbClient } from "../platform/db/db-client.ts";

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
