import type { DbClient } from "../../platform/index.ts";
import { touchEcgRecording, upsertEcgRecordings, upsertEcgVoltages, type EcgRecordingWrite } from "./ecg-repository.ts";
import { insertRejectedRecords } from "../rejected-record-repository.ts";
import { checkAmounts, checkInterval, identityOf, normalizeProvenance, snakeCaseCode, type RecordProvenanceInput } from "../record-fields.ts";
import { partitionRecords, writeSummary } from "../record-batches.ts";
import { utcDays } from "../utc-days.ts";
import type { RecordBatch, WriteSummary } from "../record-batches.ts";

/** An ECG recording as a parser produces it. */
export interface EcgRecordingRecord extends RecordProvenanceInput {
  start_date: Date;
  /** Missing means start_date + sample count / sampling frequency. */
  end_date?: Date | undefined;
  /** Any spelling (`sinusRhythm`, `Sinus Rhythm`); stored as snake_case (`sinus_rhythm`). */
  classification?: string | null | undefined;
  average_heart_rate?: number | null | undefined;
  sampling_frequency_hz: number;
  lead_name?: string | null | undefined;
  /** The voltage samples in microvolts, in time order. */
  voltages: readonly number[];
  /** Stored as snake_case codes. */
  symptoms?: readonly string[] | undefined;
}

interface NormalizedRecording {
  recording: EcgRecordingWrite;
  voltages: readonly number[];
}

const MAX_SAMPLES = 2_000_000;
const MAX_FREQUENCY_HZ = 100_000;

/**
 * Stores ECG recordings with their voltages idempotently (identity: the provider's id,
 * else times, device and source name); a recording seen before is updated when its
 * fields or voltages changed. What cannot be stored becomes a rejected record whose
 * reason never quotes a value. Call inside the caller's transaction.
 */
export async function writeEcgRecordings(db: DbClient, batch: RecordBatch, records: readonly EcgRecordingRecord[]): Promise<WriteSummary> {
  const partitioned = partitionRecords(records, "ecg_recording", (r) => normalizeRecording(r, batch.provider), (n) => n.recording.dedupeKey);
  const { byIdentity } = partitioned;
  const all = [...byIdentity.values()];
  const stored = await upsertEcgRecordings(db, { ...batch, rawObjectId: batch.rawObjectId ?? null }, all.map((r) => r.recording));
  let inserted = 0;
  let updated = 0;
  const days = new Set<string>();
  for (const row of stored) {
    const normalized = byIdentity.get(row.dedupe_key);
    if (!normalized) continue;
    const voltagesChanged = await upsertEcgVoltages(db, batch.userId, row.id, normalized.voltages);
    if (row.inserted) inserted++;
    else if (row.changed || voltagesChanged) updated++;
    else continue;
    if (!row.changed) await touchEcgRecording(db, batch.userId, row.id);
    for (const day of utcDays(normalized.recording.startDate, normalized.recording.endDate)) days.add(day);
  }
  await insertRejectedRecords(db, batch, partitioned.rejected);
  const types = inserted + updated > 0 ? ["ecg_recording"] : [];
  return writeSummary(partitioned, { inserted, updated, types, days });
}

function normalizeRecording(record: EcgRecordingRecord, provider: string): NormalizedRecording | { reason: string } {
  const kind = "ecg_recording";
  const frequency = record.sampling_frequency_hz;
  if (typeof frequency !== "number" || !Number.isFinite(frequency) || frequency <= 0 || frequency > MAX_FREQUENCY_HZ) {
    return { reason: `${kind}: sampling_frequency_hz is not a number above 0 and at most ${MAX_FREQUENCY_HZ}` };
  }
  const voltages = record.voltages ?? [];
  if (!Array.isArray(voltages)) return { reason: `${kind}: voltages is not a list of microvolts` };
  if (voltages.length > MAX_SAMPLES) return { reason: `${kind}: a recording holds at most ${MAX_SAMPLES} voltage samples` };
  if (!voltages.every((v) => typeof v === "number" && Number.isFinite(v))) return { reason: `${kind}: a voltage sample is not a finite number` };
  const start = record.start_date;
  const end =
    record.end_date ??
    (start instanceof Date ? new Date(start.getTime() + Math.round((voltages.length / frequency) * 1000)) : undefined);
  const times = checkInterval(kind, start, end);
  if ("reason" in times) return times;
  const amounts = checkAmounts(kind, record, ["average_heart_rate"] as const);
  if ("reason" in amounts) return amounts;
  const symptoms: string[] = [];
  for (const symptom of record.symptoms ?? []) {
    const code = typeof symptom === "string" ? snakeCaseCode(symptom) : null;
    if (code === null) return { reason: `${kind}: a symptom is not a name` };
    if (!symptoms.includes(code)) symptoms.push(code);
  }
  const provenance = normalizeProvenance(record, provider);
  return {
    recording: {
      startDate: times.start,
      endDate: times.end,
      classification: snakeCaseCode(record.classification),
      averageHeartRate: amounts.average_heart_rate,
      samplingFrequencyHz: frequency,
      leadName: record.lead_name ?? null,
      sampleCount: voltages.length,
      symptoms,
      ...provenance,
      dedupeKey: identityOf(provenance, times.start, times.end),
    },
    voltages,
  };
}
