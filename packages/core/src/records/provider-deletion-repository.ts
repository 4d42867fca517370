import { Prisma } from "@svc/db";
import type { DbClient } from "../platform/index.ts";

/** Tables of records besides samples a provider can delete by its own id; their parts go by cascade. */
const OTHER_RECORD_TABLES = [
  "sleep_sessions",
  "workouts",
  "nutrition_logs",
  "heartbeat_series",
  "ecg_recordings",
] as const;

/** Deletes the provider's category samples with these dedupe keys; returns their types. */
export function deleteCategorySamplesByDedupeKeys(db: DbClient, batch: { userId: string; provider: string }, dedupeKeys: readonly string[]) {
  return db.$queryRaw<Array<{ type: string }>>`
    DELETE FROM category_samples
    WHERE user_id = ${batch.userId}::uuid AND provider = ${batch.provider} AND dedupe_key = ANY(${dedupeKeys as string[]}::text[])
    RETURNING type`;
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
