import { Prisma } from "@svc/db";

/**
 * SQL true unless the provider told us it deleted the record of `recordKind` whose dedupe
 * key is `n.dedupe_key` (the row aliased `n`): a late copy of a deleted record is not stored again.
 */
export function notTombstoned(batch: { userId: string; provider: string }, recordKind: string): Prisma.Sql {
  return Prisma.sql`NOT EXISTS (
    SELECT 1 FROM provider_tombstones t
    WHERE t.user_id = ${batch.userId}::uuid AND t.provider = ${batch.provider}
      AND t.record_kind = ${recordKind} AND t.dedupe_key = n.dedupe_key
  )`;
}
