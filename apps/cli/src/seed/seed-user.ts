// `svc dev seed`: realistic multi-source health data for one user, written day by day
// through the same writers the ETL uses, one transaction per day.

import {
  AppError,
  isAppError,
  requireActiveUserById,
  writeCategorySamples,
  writeDailySummaries,
  writeEcgRecordings,
  writeHeartbeatSeries,
  writeNutritionLogs,
  writeQuantitySamples,
  writeSleepSessions,
  writeWorkouts,
  WRITTEN_TABLES,
  type RecordBatch,
  type WriteSummary,
  type WrittenTable,
} from "@svc/core";
import type { Database, Prisma } from "@svc/db";
import { appleDay } from "./apple.ts";
import { garminDay } from "./garmin.ts";
import { nutritionDay } from "./nutrition.ts";
import { ouraDay } from "./oura.ts";
import { planDay, profileOf } from "./person.ts";
import type { ProviderDay, SeedOptions } from "./records.ts";
import { daysBefore } from "./time.ts";
import { withingsDay } from "./withings.ts";

export interface SeedInput extends SeedOptions {
  userId: string;
  days: number;
  /** Defaults to the current time; the seed covers the whole UTC days before its day. */
  now?: Date | undefined;
  /** Progress lines (counts only, never a health value). */
  log?: ((line: string) => void) | undefined;
}

export interface SeedResult {
  first: string;
  last: string;
  /** Records inserted or updated, per kind. */
  written: Record<WrittenTable, number>;
  unchanged: number;
  rejected: number;
}

type Tx = Prisma.TransactionClient;
type Writer = (tx: Tx, batch: RecordBatch) => Promise<WriteSummary>;

/** The writer calls of one provider's day, by kind; empty lists are skipped. */
function writersOf(day: ProviderDay): Array<[WrittenTable, Writer]> {
  const calls: Array<[WrittenTable, Writer] | null> = [
    day.quantity?.length ? ["quantity_samples", (tx, b) => writeQuantitySamples(tx, b, day.quantity ?? [])] : null,
    day.category?.length ? ["category_samples", (tx, b) => writeCategorySamples(tx, b, day.category ?? [])] : null,
    day.sleep?.length ? ["sleep_sessions", (tx, b) => writeSleepSessions(tx, b, day.sleep ?? [])] : null,
    day.workouts?.length ? ["workouts", (tx, b) => writeWorkouts(tx, b, day.workouts ?? [])] : null,
    day.nutrition?.length ? ["nutrition_logs", (tx, b) => writeNutritionLogs(tx, b, day.nutrition ?? [])] : null,
    day.daily?.length ? ["daily_summaries", (tx, b) => writeDailySummaries(tx, b, day.daily ?? [])] : null,
    day.heartbeats?.length ? ["heartbeat_series", (tx, b) => writeHeartbeatSeries(tx, b, day.heartbeats ?? [])] : null,
    day.ecg?.length ? ["ecg_recordings", (tx, b) => writeEcgRecordings(tx, b, day.ecg ?? [])] : null,
  ];
  return calls.filter((call) => call !== null);
}

const emptyCounts = (): Record<WrittenTable, number> => Object.fromEntries(WRITTEN_TABLES.map((k) => [k, 0])) as Record<WrittenTable, number>;

/** Fails with a 404-like error unless the user exists and is active (not being deleted). */
async function checkUser(db: Database | Tx, userId: string): Promise<void> {
  try {
    await requireActiveUserById(db, userId);
  } catch (error) {
    if (isAppError(error) && error.code === "not_found") {
      throw new AppError("not_found", `No active user ${userId}: it does not exist or is being deleted.`);
    }
    throw error;
  }
}

/**
 * Seeds the `days` whole UTC days before today for an active user, oldest first. Every
 * value is a function of the user id and the date, so running it again for the same days
 * stores nothing new.
 */
export async function seedUser(db: Database, input: SeedInput): Promise<SeedResult> {
  await checkUser(db, input.userId);
  const profile = profileOf(input.userId);
  const days = daysBefore(input.now ?? new Date(), input.days);
  const written = emptyCounts();
  let unchanged = 0;
  let rejected = 0;
  for (const [index, date] of days.entries()) {
    const plan = planDay(profile, date);
    const providerDays = [appleDay(plan, input), garminDay(plan), ouraDay(plan), withingsDay(plan), nutritionDay(plan)];
    await db.$transaction(
      async (tx) => {
        // Checked again in the day's transaction: a user whose deletion began meanwhile gets nothing more.
        await checkUser(tx, input.userId);
        for (const day of providerDays) {
          const batch: RecordBatch = { userId: input.userId, provider: day.provider };
          for (const [kind, write] of writersOf(day)) {
            const summary = await write(tx, batch);
            written[kind] += summary.inserted + summary.updated;
            unchanged += summary.unchanged;
            rejected += summary.rejected;
          }
        }
      },
      { timeout: 10 * 60_000, maxWait: 60_000 },
    );
    const done = index + 1;
    if (done % 10 === 0 || done === days.length) {
      const total = WRITTEN_TABLES.reduce((sum, kind) => sum + written[kind], 0);
      input.log?.(`day ${done}/${days.length} (${date}): ${total} records written so far`);
    }
  }
  return { first: days[0] ?? "", last: days.at(-1) ?? "", written, unchanged, rejected };
}

/** The summary line: records written per kind. */
export function formatSeedResult(userId: string, result: SeedResult, seconds: number): string {
  const kinds = WRITTEN_TABLES.map((kind) => `${kind}=${result.written[kind]}`).join(" ");
  return `seeded ${result.first}..${result.last} for user ${userId} in ${seconds.toFixed(1)} s; written: ${kinds}; unchanged: ${result.unchanged}; rejected: ${result.rejected}`;
}
