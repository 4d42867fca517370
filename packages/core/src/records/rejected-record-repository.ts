import type { DbClient } from "../platform/index.ts";

export interface RejectedRecordWrite {
  recordKind: string;
  locator: string | null;
  /** Why; names fields and units, never a value. */
  reason: string;
}

export interface RejectedRecordRow {
  recordKind: string;
  locator: string | null;
  line: number | null;
  reason: string;
}

export async function insertRejectedRecords(
  db: DbClient,
  batch: { userId: string; provider: string; rawObjectId?: string | null | undefined },
  records: readonly RejectedRecordWrite[],
) {
  if (records.length === 0) return;
  await db.rejectedRecord.createMany({
    data: records.map((r) => ({
      ...r,
      line: lineOf(r.locator),
      userId: batch.userId,
      provider: batch.provider,
      rawObjectId: batch.rawObjectId ?? null,
    })),
  });
}

/** The first `limit` records rejected from one raw object, by line (those naming no line last). */
export function listRejectedRecordsOfRawObject(db: DbClient, userId: string, rawObjectId: string, limit: number): Promise<RejectedRecordRow[]> {
  return db.rejectedRecord.findMany({
    where: { userId, rawObjectId },
    select: { recordKind: true, locator: true, line: true, reason: true },
    orderBy: [{ line: { sort: "asc", nulls: "last" } }, { locator: "asc" }, { id: "asc" }],
    take: limit,
  });
}

export function countRejectedRecordsOfRawObject(db: DbClient, userId: string, rawObjectId: string): Promise<number> {
  return db.rejectedRecord.count({ where: { userId, rawObjectId } });
}

const MAX_INT4 = 2_147_483_647;

/** The (first) line a locator names: `line 7`, `lines 7-9`, `line 7, objects[0]`; null for any other. */
function lineOf(locator: string | null): number | null {
  const match = /^lines? (\d{1,10})(?!\d)/.exec(locator ?? "");
  const line = match ? Number(match[1]) : null;
  return line !== null && line <= MAX_INT4 ? line : null;
}
