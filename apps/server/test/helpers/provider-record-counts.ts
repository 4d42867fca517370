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

/** Tables whose rows name their provider in their series. */
const SERIES_OF: Partial<Record<(typeof PROVIDER_RECORD_TABLES)[number], string>> = { category_samples: "category_sample_series" };

/** Rows of the user and provider in each of PROVIDER_RECORD_TABLES. */
export async function providerRecordCounts(svc: TestService, user: string, provider: string): Promise<Record<string, number>> {
  const result: Record<string, number> = {};
  for (const table of PROVIDER_RECORD_TABLES) {
    const series = SERIES_OF[table];
    const from = series
      ? Prisma.sql`${Prisma.raw(table)} x JOIN ${Prisma.raw(series)} r ON r.user_id = x.user_id AND r.id = x.series_id`
      : Prisma.sql`${Prisma.raw(table)} r`;
    const [row] = await svc.db.$queryRaw<Array<{ n: bigint }>>`
      SELECT count(*) AS n FROM ${from} WHERE r.user_id = ${user}::uuid AND r.provider = ${provider}`;
    result[table] = Number(row!.n);
  }
  return result;
}
