import { Prisma } from "@svc/db";
import { DAILY_SUMMARY_FIGURES, type DailySummaryFigure } from "../records/index.ts";
import type { DbClient } from "../platform/index.ts";

/** What a consent revocation deletes of one user's data from one provider. */
export interface ConsentDeletionTarget {
  userId: string;
  provider: string;
  /** Quantity sample types of the revoked categories. */
  quantityTypes: readonly string[];
  /** Category sample types of the revoked categories. */
  categoryTypes: readonly string[];
  /** Tables whose every row of the user and provider belongs to a revoked category. */
  wholeTables: readonly ConsentWholeTable[];
  /** Daily summary figures (columns) of the revoked categories. */
  dailyFigures: readonly DailySummaryFigure[];
}

const DAILY_BATCH = 10_000;

/**
 * Record tables that belong to one category as a whole, with the size of one delete batch.
 * Parts go by cascade: sleep phases, workout route points and track summaries, RR intervals
 * and HRV results, ECG voltages.
 */
export const CONSENT_WHOLE_TABLES = {
  sleep_sessions: 1_000,
  workouts: 500,
  nutrition_logs: 10_000,
  heartbeat_series: 500,
  ecg_recordings: 500,
} as const;

export type ConsentWholeTable = keyof typeof CONSENT_WHOLE_TABLES;

/**
 * Deletes up to a batch of the target's rows from each table in turn, or every row when
 * `limited` is false; returns how many were deleted. Sample streams of the deleted types go
 * with the last, unlimited round (deleteConsentSampleStreams).
 */
export async function deleteConsentRows(db: DbClient, target: ConsentDeletionTarget, limited: boolean): Promise<number> {
  const { userId, provider } = target;
  const limitOf = (batch: number) => (limited ? Prisma.sql`LIMIT ${batch}` : Prisma.empty);
  let deleted = 0;
  const typed = [
    // A series takes its samples with it (chunks of quantity samples, category samples). Samples
    // an upgrade left in a legacy table until the job data-moves moves them go before their
    // series: one moved meanwhile goes with its series.
    { table: "quantity_samples_legacy", types: target.quantityTypes, batch: 5_000 },
    { table: "quantity_sample_series", types: target.quantityTypes, batch: 10 },
    { table: "category_samples_legacy", types: target.categoryTypes, batch: 5_000 },
    { table: "category_sample_series", types: target.categoryTypes, batch: 10 },
  ];
  for (const { table, types, batch } of typed) {
    if (types.length === 0) continue;
    const t = Prisma.raw(table);
    deleted += await db.$executeRaw`
      DELETE FROM ${t} WHERE ctid = ANY(ARRAY(
        SELECT ctid FROM ${t} WHERE user_id = ${userId}::uuid AND provider = ${provider} AND type = ANY(${[...types]}::text[])
        ${limitOf(batch)}))`;
  }
  for (const table of target.wholeTables) {
    const t = Prisma.raw(table);
    deleted += await db.$executeRaw`
      DELETE FROM ${t} WHERE ctid = ANY(ARRAY(
        SELECT ctid FROM ${t} WHERE user_id = ${userId}::uuid AND provider = ${provider}
        ${limitOf(CONSENT_WHOLE_TABLES[table])}))`;
  }
  deleted += await clearDailyFigures(db, target, limitOf(DAILY_BATCH));
  return deleted;
}

/**
 * The revoked figures of the target's daily summaries (derived ones included): a summary
 * holding no other figure is deleted, the others keep their other figures with these set to
 * null. Summaries that held none of them are left alone (unless every figure is revoked:
 * then every summary of the provider goes). The rows changed.
 */
async function clearDailyFigures(db: DbClient, target: ConsentDeletionTarget, limit: Prisma.Sql): Promise<number> {
  if (target.dailyFigures.length === 0) return 0;
  const { userId, provider } = target;
  const revoked = new Set<string>(target.dailyFigures);
  const others = DAILY_SUMMARY_FIGURES.filter((column) => !revoked.has(column));
  const anyRevoked = Prisma.join([...revoked].map((column) => Prisma.raw(`${column} IS NOT NULL`)), " OR ");
  // Every figure revoked: every summary of the provider goes, those without figures too.
  const goes =
    others.length === 0 ? Prisma.sql`TRUE` : Prisma.sql`(${anyRevoked}) AND ${Prisma.join(others.map((column) => Prisma.raw(`${column} IS NULL`)), " AND ")}`;
  const deleted = await db.$executeRaw`
    DELETE FROM daily_summaries WHERE ctid = ANY(ARRAY(
      SELECT ctid FROM daily_summaries WHERE user_id = ${userId}::uuid AND provider = ${provider} AND ${goes}
      ${limit}))`;
  const cleared = Prisma.join([...revoked].map((column) => Prisma.raw(`${column} = NULL`)), ", ");
  const updated = await db.$executeRaw`
    UPDATE daily_summaries SET ${cleared} WHERE ctid = ANY(ARRAY(
      SELECT ctid FROM daily_summaries WHERE user_id = ${userId}::uuid AND provider = ${provider} AND (${anyRevoked})
      ${limit}))`;
  return deleted + updated;
}

/** The user's sample streams of the provider and these types (their samples are gone). */
export function deleteConsentSampleStreams(db: DbClient, userId: string, provider: string, types: readonly string[]) {
  if (types.length === 0) return Promise.resolve(0);
  return db.$executeRaw`
    DELETE FROM quantity_sample_streams
    WHERE user_id = ${userId}::uuid AND provider = ${provider} AND type = ANY(${[...types]}::text[])`;
}
