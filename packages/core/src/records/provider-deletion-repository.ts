import { Prisma } from "@svc/db";
import type { DbClient } from "../platform/index.ts";
import { categoryIdentity } from "./category-samples/category-sample-repository.ts";
import { deleteLegacyCategorySamplesByDedupeKeys } from "./category-samples/legacy-category-sample-repository.ts";

/** Tables of records besides samples a provider can delete by its own id; their parts go by cascade. */
const OTHER_RECORD_TABLES = [
  "sleep_sessions",
  "workouts",
  "nutrition_logs",
  "heartbeat_series",
  "ecg_recordings",
] as const;

/**
 * Deletes the provider's category samples with these dedupe keys, of any type: each key is
 * looked for under the identity it has in each type the provider stored, and among the samples
 * not moved yet since the upgrade to series. Returns their types.
 */
export async function deleteCategorySamplesByDedupeKeys(db: DbClient, batch: { userId: string; provider: string }, dedupeKeys: readonly string[]) {
  // The legacy samples first: one being moved meanwhile is deleted in series by the next statement.
  const legacy = await deleteLegacyCategorySamplesByDedupeKeys(db, batch, dedupeKeys);
  const identity = categoryIdentity(Prisma.sql`${batch.provider}`, Prisma.sql`t.type`, Prisma.sql`k.key`);
  const moved = await db.$queryRaw<Array<{ type: string }>>`
    WITH t AS (SELECT DISTINCT type FROM category_sample_series WHERE user_id = ${batch.userId}::uuid AND provider = ${batch.provider})
    DELETE FROM category_samples s
    USING t, unnest(${dedupeKeys as string[]}::text[]) AS k(key)
    WHERE s.user_id = ${batch.userId}::uuid AND s.identity = ${identity}
    RETURNING t.type`;
  return [...legacy, ...moved];
}

/** Deletes the provider's other records (sessions, workouts, logs, series, recordings, with their parts) by dedupe key; returns how many. */
export async function deleteOtherRecordsByDedupeKeys(db: DbClient, batch: { userId: string; provider: string }, dedupeKeys: readonly string[]) {
  let deleted = 0;
  for (const table of OTHER_RECORD_TABLES) {
    deleted += await db.$executeRaw`
      DELETE FROM ${Prisma.raw(table)}
      WHERE user_id = ${batch.userId}::uuid AND provider = ${batch.provider} AND dedupe_key = ANY(${dedupeKeys as string[]}::text[])`;
  }
  return deleted;
}
