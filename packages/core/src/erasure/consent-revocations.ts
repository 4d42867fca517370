import type { Database } from "@svc/db";
import {
  type CategorizedRecordKind,
  categoryTypesOf,
  dailyFiguresOf,
  MENSTRUAL_FLOW,
  quantityTypesOf,
  recomputeMenstrualCycles,
  RECORD_KIND_CATEGORIES,
} from "../records/index.ts";
import type { CoreDeps } from "../deps.ts";
import { deleteConsentRows, deleteConsentSampleStreams, type ConsentDeletionTarget, type ConsentWholeTable } from "./consent-deletion-repository.ts";
import { findConsentDeletionJob, setDeletionJobStatus } from "../identity/index.ts";
import { revokeSharesOf, waitForRecordWriters } from "../sharing/index.ts";

/**
 * The table of each kind of record that is not a sample. Self reports are quantity samples
 * (`reported_*`, deleted by type), menstrual cycles are derived from menstrual flow of
 * every provider (recomputed), and daily summaries lose the figures of the revoked
 * categories (DAILY_SUMMARY_FIGURE_CATEGORIES), not whole rows.
 */
const RECORD_KIND_TABLES: Partial<Record<CategorizedRecordKind, ConsentWholeTable>> = {
  sleep_session: "sleep_sessions",
  workout: "workouts",
  nutrition_log: "nutrition_logs",
  ecg_recording: "ecg_recordings",
  heartbeat_series: "heartbeat_series",
};

/** What revoking these categories of the provider deletes of the user's records. */
export function consentDeletionTarget(userId: string, provider: string, categories: readonly string[]): ConsentDeletionTarget {
  const revoked = new Set(categories);
  const wholeTables = Object.entries(RECORD_KIND_TABLES)
    .filter(([kind]) => revoked.has(RECORD_KIND_CATEGORIES[kind as CategorizedRecordKind]))
    .map(([, table]) => table);
  return {
    userId,
    provider,
    quantityTypes: quantityTypesOf(revoked),
    categoryTypes: categoryTypesOf(revoked),
    wholeTables,
    dailyFigures: dailyFiguresOf(revoked),
  };
}

/**
 * The background half of a consent revocation: waits for the writes of the user's records
 * of the provider that may have read the consent before it was revoked, deletes the
 * records of the revoked categories from that provider in batches, then in one transaction
 * what is left, the sample streams of their types, menstrual cycles recomputed when flow
 * went, the shares holding the provider and a revoked category revoked (reason `consent`:
 * shares made after the revocation but before this job finished) and the job done. Raw
 * objects, rejected records and tombstones stay. Daily summaries lose the figures of the
 * revoked categories (a summary left with none is deleted); derived daily totals come from
 * activity samples only, so revoking activity deletes the derived summaries with them. Safe
 * to run again after a crash: every step is idempotent.
 */
export async function runConsentRevocation({ db, jobs }: Pick<CoreDeps, "db" | "jobs">, deletionJobId: string): Promise<void> {
  const job = await findConsentDeletionJob(db, deletionJobId);
  if (!job || job.provider === null || job.categories.length === 0 || job.status === "done") return;
  await setDeletionJobStatus(db, job.id, { status: "running" });
  await waitForRecordWriters(db, job.userId, job.provider);
  const target = consentDeletionTarget(job.userId, job.provider, job.categories);
  while ((await deleteConsentRows(db, target, true)) > 0);
  await db.$transaction(async (tx) => {
    await deleteConsentRows(tx, target, false);
    await deleteConsentSampleStreams(tx, target.userId, target.provider, target.quantityTypes);
    if (target.categoryTypes.includes(MENSTRUAL_FLOW)) await recomputeMenstrualCycles(tx, target.userId);
    await revokeSharesOf(tx, { userId: target.userId, provider: target.provider, categories: job.categories }, "consent", jobs);
    await setDeletionJobStatus(tx, job.id, { status: "done", finishedAt: new Date() });
  });
}

/** Records that a revocation's deletion gave up after its last attempt; the reason stays in logs. */
export async function failConsentRevocation(db: Database, deletionJobId: string): Promise<void> {
  await setDeletionJobStatus(db, deletionJobId, { status: "failed", finishedAt: new Date(), error: "consent revocation failed" });
}
