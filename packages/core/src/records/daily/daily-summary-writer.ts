import { DAILY_SUMMARY_FIGURES } from "../catalog/data-categories.ts";
import { type DbClient, isTimeZone } from "../../platform/index.ts";
import { upsertDailySummaries, type DailySummaryWrite } from "./daily-summary-repository.ts";
import { insertRejectedRecords } from "../rejected-record-repository.ts";
import { checkAmounts, normalizeProvenance, type RecordProvenanceInput } from "../record-fields.ts";
import { partitionRecords, writeSummary } from "../record-batches.ts";
import type { RecordBatch, WriteSummary } from "../record-batches.ts";

/** A provider's figures for one local day, as a parser produces them. */
export interface DailySummaryRecord extends Omit<RecordProvenanceInput, "external_id" | "source_name"> {
  /** The local date, YYYY-MM-DD. */
  date: string;
  steps?: number | null | undefined;
  distance_meters?: number | null | undefined;
  active_energy_kcal?: number | null | undefined;
  total_energy_kcal?: number | null | undefined;
  floors_climbed?: number | null | undefined;
  /** Rounded to whole seconds. */
  active_seconds?: number | null | undefined;
  resting_heart_rate?: number | null | undefined;
  average_heart_rate?: number | null | undefined;
  hrv_rmssd?: number | null | undefined;
  /** Rounded to whole seconds. */
  sleep_seconds?: number | null | undefined;
  score?: number | null | undefined;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const MAX_SECONDS_A_DAY = 2 * 86_400;

/** Whether a string is a YYYY-MM-DD date of the calendar (2026-02-30 is not). */
export function isCalendarDate(value: string): boolean {
  const match = DATE.exec(value);
  if (!match) return false;
  const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/**
 * Stores a provider's daily summaries, one per provider and local date (the last one of a
 * batch for a date wins). A sent summary replaces the summary svc derived from samples for
 * that day, and derivation never replaces it afterwards. Only changed summaries are
 * written; what cannot be stored becomes a rejected record whose reason never quotes a
 * value. Call inside the caller's transaction.
 */
export async function writeDailySummaries(db: DbClient, batch: RecordBatch, summaries: readonly DailySummaryRecord[]): Promise<WriteSummary> {
  const partitioned = partitionRecords(summaries, "daily_summary", (r) => normalizeDailySummary(r, batch.provider), (summary) => summary.date);
  const rows = [...partitioned.byIdentity.values()];
  const result = await upsertDailySummaries(db, { ...batch, rawObjectId: batch.rawObjectId ?? null }, rows, false);
  await insertRejectedRecords(db, batch, partitioned.rejected);
  const types = result.dates.length > 0 ? ["daily_summary"] : [];
  return writeSummary(partitioned, { inserted: result.inserted, updated: result.updated, types, days: result.dates });
}

function normalizeDailySummary(record: DailySummaryRecord, provider: string): DailySummaryWrite | { reason: string } {
  if (typeof record.date !== "string" || !isCalendarDate(record.date)) return { reason: "daily_summary: date is not a YYYY-MM-DD date" };
  const figures = checkAmounts("daily_summary", record, DAILY_SUMMARY_FIGURES);
  if ("reason" in figures) return figures;
  for (const field of ["active_seconds", "sleep_seconds"] as const) {
    const seconds = figures[field];
    if (seconds !== null && seconds > MAX_SECONDS_A_DAY) return { reason: `daily_summary: ${field} is more than two days` };
  }
  // The zone has its own column here rather than metadata.timezone.
  const timezone = record.timezone && isTimeZone(record.timezone) ? record.timezone : null;
  const provenance = normalizeProvenance({ ...record, timezone: null }, provider);
  return {
    date: record.date,
    timezone,
    steps: figures.steps,
    distanceMeters: figures.distance_meters,
    activeEnergyKcal: figures.active_energy_kcal,
    totalEnergyKcal: figures.total_energy_kcal,
    floorsClimbed: figures.floors_climbed,
    activeSeconds: figures.active_seconds === null ? null : Math.round(figures.active_seconds),
    restingHeartRate: figures.resting_heart_rate,
    averageHeartRate: figures.average_heart_rate,
    hrvRmssd: figures.hrv_rmssd,
    sleepSeconds: figures.sleep_seconds === null ? null : Math.round(figures.sleep_seconds),
    score: figures.score,
    metadata: provenance.metadata,
    source: provenance.source,
    sourceKey: provenance.sourceKey,
    device: provenance.device,
    onBody: provenance.onBody,
  };
}
