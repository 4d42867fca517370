import type { DbClient } from "../platform/index.ts";

export interface ProcessingBacklogCounts {
  pending: number;
  parked: number;
  rejected_records: number;
}

/**
 * One user's raw objects waiting for the ETL (pending), those it gave up on (failed), and the
 * records normalization could not store; optionally of one provider. Counts only.
 */
export async function countUserProcessingBacklog(db: DbClient, userId: string, provider: string | undefined): Promise<ProcessingBacklogCounts> {
  const [rawObjects, rejectedRecords] = await Promise.all([
    db.rawObject.groupBy({
      by: ["status"],
      where: { userId, status: { in: ["pending", "failed"] }, ...(provider ? { provider } : {}) },
      _count: { _all: true },
    }),
    db.rejectedRecord.count({ where: { userId, ...(provider ? { provider } : {}) } }),
  ]);
  const countOf = (status: string) => rawObjects.find((group) => group.status === status)?._count._all ?? 0;
  return { pending: countOf("pending"), parked: countOf("failed"), rejected_records: rejectedRecords };
}
