import type { DbClient } from "../platform/index.ts";

export interface RejectedRecordWrite {
  recordKind: string;
  locator: string | null;
  /** Why; names fields and units, never a value. */
  reason: string;
}

export async function insertRejectedRecords(
  db: DbClient,
  batch: { userId: string; provider: string; rawObjectId?: string | null | undefined },
  records: readonly RejectedRecordWrite[],
) {
  if (records.length === 0) return;
  await db.rejectedRecord.createMany({
    data: records.map((r) => ({ ...r, userId: batch.userId, provider: batch.provider, rawObjectId: batch.rawObjectId ?? null })),
  });
}
