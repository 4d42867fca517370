import { AppError, type DbClient } from "../platform/index.ts";
import { findTenantDeletionJob } from "./deletion-job-repository.ts";

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
