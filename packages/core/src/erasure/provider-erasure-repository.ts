import { Prisma } from "@svc/db";
import type { DbClient } from "../platform/index.ts";

/** One user's data of one provider. */
export interface ErasureTarget {
  userId: string;
  provider: string;
}

/**
 * Every table holding rows of a user and provider, with the size of one delete batch.
 * Parts go by cascade: sleep phases, workout route points and track summaries, RR
 * intervals and HRV results, ECG voltages (smaller batches for the tables with parts).
 */
const ERASED_TABLES = [
  // Samples an upgrade left in a legacy table until the job data-moves moves them go before
  // their series: one moved meanwhile goes with its series. A series takes its samples with it.
  { table: "quantity_samples_legacy", batch: 5_000 },
  { table: "quantity_sample_series", batch: 10 },
  { table: "quantity_sample_streams", batch: 10_000 },
  { table: "category_samples_legacy", batch: 5_000 },
  { table: "category_sample_series", batch: 10 },
  { table: "sleep_sessions", batch: 1_000 },
  { table: "workouts", batch: 500 },
  { table: "nutrition_logs", batch: 10_000 },
  { table: "daily_summaries", batch: 10_000 },
  { table: "heartbeat_series", batch: 500 },
  { table: "ecg_recordings", batch: 500 },
  { table: "rejected_records", batch: 10_000 },
  { table: "provider_tombstones", batch: 10_000 },
] as const;

/** The route and operation under which self reports keep their idempotent answers (packages/api). */
const SELF_REPORT_OPERATION = "POST /v1/users/{id}/self-reports";

/** Up to `limit` raw objects of the user and provider: their ids and where their bytes are. */
export function listRawObjectKeys(db: DbClient, target: ErasureTarget, limit: number) {
  return db.rawObject.findMany({
    where: { userId: target.userId, provider: target.provider },
    select: { id: true, storageKey: true },
    take: limit,
  });
}

export function deleteRawObjectRows(db: DbClient, userId: string, ids: readonly string[]) {
  return db.rawObject.deleteMany({ where: { userId, id: { in: [...ids] } } });
}

/**
 * Deletes up to `limit` rows of the user and provider from each table in turn, or every
 * row when `limit` is null; returns how many were deleted.
 */
export async function deleteProviderRows(db: DbClient, target: ErasureTarget, limit: number | null): Promise<number> {
  let deleted = 0;
  for (const { table, batch } of ERASED_TABLES) {
    const t = Prisma.raw(table);
    if (limit === null) {
      deleted += await db.$executeRaw`DELETE FROM ${t} WHERE user_id = ${target.userId}::uuid AND provider = ${target.provider}`;
      continue;
    }
    deleted += await db.$executeRaw`
      DELETE FROM ${t} WHERE ctid = ANY(ARRAY(
        SELECT ctid FROM ${t} WHERE user_id = ${target.userId}::uuid AND provider = ${target.provider}
        LIMIT ${Math.min(limit, batch)}))`;
  }
  return deleted;
}

/** The stored answers of the user's self reports (a replay would hand back erased values). */
export function deleteSelfReportIdempotencyRecords(db: DbClient, userId: string) {
  return db.idempotencyRecord.deleteMany({ where: { userId, operation: SELF_REPORT_OPERATION } });
}

/**
 * The user's consent states of the provider and its disconnected connection, with the
 * connection's sync runs and push subscriptions (by cascade). A connection made again
 * meanwhile (active or needs_reauth) is not the erasure's to remove.
 */
export async function deleteConnectionRows(db: DbClient, target: ErasureTarget): Promise<void> {
  await db.consentState.deleteMany({ where: { userId: target.userId, provider: target.provider } });
  await db.connection.deleteMany({ where: { userId: target.userId, provider: target.provider, status: "disconnected" } });
}
