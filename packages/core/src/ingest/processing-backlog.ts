import type { DbClient } from "../platform/index.ts";
import { countUserProcessingBacklog } from "./processing-backlog-repository.ts";

export interface ProcessingBacklog {
  /** Stored uploads and pulls of the user waiting for normalization. */
  pending_jobs: number;
  /** Uploads and pulls normalization gave up on. */
  parked_jobs: number;
  /** Records normalization could not store, all stored time. */
  rejected_records: number;
}

/** What of one user's data is not (yet) readable: the MCP get_coverage addition. */
export async function getProcessingBacklog(db: DbClient, userId: string, provider?: string): Promise<ProcessingBacklog> {
  const counts = await countUserProcessingBacklog(db, userId, provider);
  return { pending_jobs: counts.pending, parked_jobs: counts.parked, rejected_records: counts.rejected_records };
}
