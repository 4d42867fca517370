import { Prisma } from "@svc/db";
import type { TestService } from "./test-service.ts";

/** Every table holding records of a user and provider (parts counted through their parents' table). */
export const PROVIDER_RECORD_TABLES = [
  "raw_objects",
  "quantity_samples",
  "quantity_sample_streams",
  "category_samples",
  "sleep_sessions",
  "workouts",
  "nutrition_logs",
  "daily_summaries",
  "heartbeat_series",
  "ecg_recordings",
  "rejected_records",
  "provider_tombstones",
] as const;

/** Rows of the user and provider in each of PROVIDER_RECORD_TABLES. */
export async function providerRecordCounts(svc: TestService, user: string, provider: string): Promise<Record<string, number>> {
  const result: Record<string, number> = {};
  for (const table of PROVIDER_RECORD_TABLES) {
    const [row] = await svc.db.$queryRaw<Array<{ n: bigint }>>`
      SELECT count(*) AS n FROM ${Prisma.raw(table)} WHERE user_id = ${user}::uuid AND provider = ${provider}`;
    result[table] = Number(row!.n);
  }
  return result;
}
