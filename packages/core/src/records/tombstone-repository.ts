import { Prisma } from "@svc/db";
import type { DbClient } from "../platform/index.ts";

/** The record kind of tombstones written for a provider's deletion by id, which names no kind. */
export const ANY_RECORD_KIND = "*";

/**
 * SQL true unless the provider told us it deleted the record of `recordKind` whose dedupe
 * key is `n.dedupe_key`, or of any kind (the row aliased `n`): a late copy of a deleted record is not stored again.
 */
export function notTombstoned(batch: { userId: string; provider: string }, recordKind: string): Prisma.Sql {
  return Prisma.sql`NOT EXISTS (
    SELECT 1 FROM provider_tombstones t
    WHERE t.user_id = ${batch.userId}::uuid AND t.provider = ${batch.provider}
      AND t.record_kind IN (${recordKind}, ${ANY_RECORD_KIND}) AND t.dedupe_key = n.dedupe_key
  )`;
}

/** Records tombstones so a late copy of these records is never stored again; repeats are ignored. */
export async function insertAnyKindTombstones(db: DbClient, batch: { userId: string; provider: string }, dedupeKeys: readonly string[]) {
  await db.$executeRaw`
    INSERT INTO provider_tombstones (id, user_id, provider, record_kind, dedupe_key, deleted_at)
    SELECT gen_random_uuid(), ${batch.userId}::uuid, ${batch.provider}, ${ANY_RECORD_KIND}, key, now()
    FROM unnest(${dedupeKeys as string[]}::text[]) AS key
    ON CONFLICT (user_id, provider, record_kind, dedupe_key) DO NOTHING`;
}

/** Which of `dedupeKeys` the provider deleted (records of `recordKind` or of any kind). */
export async function listTombstonedKeys(
  db: DbClient,
  batch: { userId: string; provider: string },
  recordKind: string,
  dedupeKeys: readonly string[],
): Promise<Set<string>> {
  if (dedupeKeys.length === 0) return new Set();
  const rows = await db.$queryRaw<Array<{ dedupe_key: string }>>`
    SELECT dedupe_key FROM provider_tombstones
    WHERE user_id = ${batch.userId}::uuid AND provider = ${batch.provider} AND record_kind IN (${recordKind}, ${ANY_RECORD_KIND})
      AND dedupe_key = ANY(${dedupeKeys as string[]}::text[])`;
  return new Set(rows.map((row) => row.dedupe_key));
}
