import { type DbClient, isTimeZone } from "../../platform/index.ts";
import { insertRejectedRecords } from "../rejected-record-repository.ts";
import { replaceSleepPhases, type SleepPhaseWrite } from "./sleep-phase-repository.ts";
import { upsertSleepSessions, type SleepSessionWrite } from "./sleep-session-repository.ts";
import { deriveStageTotals, SLEEP_STAGES, type SleepStage } from "./stage-totals.ts";
import { partitionRecords, writeSummary } from "../record-batches.ts";
import { identityOf, normalizeProvenance } from "../record-fields.ts";
import { utcDays } from "../utc-days.ts";
import type { RecordBatch, WriteSummary } from "../record-batches.ts";

export interface SleepPhaseRecord {
  /** `awake`, `light`, `deep`, `rem`, `asleep` (stage unknown), `in_bed` or `out_of_bed`. */
  stage: string;
  start_date: Date;
  end_date: Date;
}

/** A sleep session as a parser produces it. Durations in seconds; missing totals are derived from `phases`. */
export interface SleepSessionRecord {
  /** `sleep` (default) or `nap`. */
  kind?: string | undefined;
  bedtime_start: Date;
  bedtime_end: Date;
  /** IANA zone or ±hh:mm offset of the night. */
  timezone?: string | null | undefined;
  total_sleep_seconds?: number | null | undefined;
  awake_seconds?: number | null | undefined;
  light_seconds?: number | null | undefined;
  deep_seconds?: number | null | undefined;
  rem_seconds?: number | null | undefined;
  /** Seconds from bedtime_start to falling asleep. */
  latency_seconds?: number | null | undefined;
  /** Time asleep / time in bed, 0 to 1. */
  efficiency?: number | null | undefined;
  /** The provider's sleep score, 0 to 100. */
  score?: number | null | undefined;
  /** count/min */
  average_heart_rate?: number | null | undefined;
  lowest_heart_rate?: number | null | undefined;
  /** RMSSD in ms. */
  average_hrv?: number | null | undefined;
  /** breaths/min */
  respiratory_rate?: number | null | undefined;
  source?: string | null | undefined;
  device?: string | null | undefined;
  on_body?: boolean | undefined;
  source_name?: string | null | undefined;
  external_id?: string | null | undefined;
  metadata?: Record<string, unknown> | undefined;
  locator?: string | undefined;
  /** When given (even empty), replaces the session's stored phases; when missing, stored phases stay. */
  phases?: readonly SleepPhaseRecord[] | undefined;
}

const KINDS = ["sleep", "nap"];
const MAX_INT = 2_147_483_647;
const CHUNK = 1000;

type Normalized = { session: SleepSessionWrite; phases: SleepPhaseWrite[] | undefined };

/**
 * Stores sleep sessions idempotently (identity: the provider's id, else bedtimes, device and
 * source name) and replaces the phases of each session that carries `phases`. Totals the
 * provider left out are derived from the phases (sleep/stage-totals.ts). What cannot be
 * stored becomes a rejected record that never quotes a value. Call inside the caller's
 * transaction.
 */
export async function writeSleepSessions(db: DbClient, batch: RecordBatch, records: readonly SleepSessionRecord[]): Promise<WriteSummary> {
  const partitioned = partitionRecords(records, "sleep_session", (r) => normalizeSession(r, batch.provider), (n) => n.session.dedupeKey);
  const all = [...partitioned.byIdentity.values()];
  const counts = { inserted: 0, updated: 0 };
  const days = new Set<string>();
  for (let i = 0; i < all.length; i += CHUNK) {
    const chunk = all.slice(i, i + CHUNK);
    const { changed, ids } = await upsertSleepSessions(db, { ...batch, rawObjectId: batch.rawObjectId ?? null }, chunk.map((n) => n.session));
    const changedIds = new Set<string>();
    for (const row of changed) {
      changedIds.add(row.id);
      if (row.inserted) counts.inserted++;
      else counts.updated++;
      for (const day of utcDays(row.bedtime_start, row.bedtime_end)) days.add(day);
    }
    const phasesBySession = new Map<string, SleepPhaseWrite[]>();
    const byId = new Map<string, SleepSessionWrite>();
    for (const n of chunk) {
      const id = ids.get(n.session.dedupeKey);
      if (id === undefined || n.phases === undefined) continue; // tombstoned, or phases not sent
      phasesBySession.set(id, n.phases);
      byId.set(id, n.session);
    }
    for (const id of await replaceSleepPhases(db, batch.userId, phasesBySession)) {
      if (changedIds.has(id)) continue;
      counts.updated++;
      const session = byId.get(id);
      if (session) for (const day of utcDays(session.bedtimeStart, session.bedtimeEnd)) days.add(day);
    }
  }
  await insertRejectedRecords(db, batch, partitioned.rejected);
  const types = counts.inserted + counts.updated > 0 ? ["sleep_session"] : [];
  return writeSummary(partitioned, { ...counts, types, days });
}

const isValidDate = (d: unknown): d is Date => d instanceof Date && !Number.isNaN(d.getTime());

/** A number field: null when missing, a reason when out of range. */
function checkNumber(
  name: string,
  value: number | null | undefined,
  range: { min: number; max: number; minExclusive?: boolean },
): number | null | { reason: string } {
  if (value === undefined || value === null) return null;
  const below = range.minExclusive ? value <= range.min : value < range.min;
  if (typeof value !== "number" || !Number.isFinite(value) || below || value > range.max) {
    return { reason: `${name} must be a number ${range.minExclusive ? "above" : "from"} ${range.min} ${range.minExclusive ? "and at most" : "to"} ${range.max}` };
  }
  return value;
}

function normalizeSession(record: SleepSessionRecord, provider: string): Normalized | { reason: string } {
  const start = record.bedtime_start;
  const end = record.bedtime_end;
  if (!isValidDate(start) || !isValidDate(end)) return { reason: "bedtime_start or bedtime_end is not a valid time" };
  if (end < start) return { reason: "bedtime_end is before bedtime_start" };
  const kind = record.kind ?? "sleep";
  if (!KINDS.includes(kind)) return { reason: "kind is not one of sleep, nap" };

  let phases: Array<SleepPhaseWrite & { stage: SleepStage }> | undefined;
  if (record.phases !== undefined) {
    phases = [];
    for (const [i, phase] of record.phases.entries()) {
      if (!SLEEP_STAGES.includes(phase.stage as SleepStage)) return { reason: `phases[${i}]: stage is not one of ${SLEEP_STAGES.join(", ")}` };
      if (!isValidDate(phase.start_date) || !isValidDate(phase.end_date)) return { reason: `phases[${i}]: start_date or end_date is not a valid time` };
      if (phase.end_date < phase.start_date) return { reason: `phases[${i}]: end_date is before start_date` };
      phases.push({ stage: phase.stage as SleepStage, startDate: phase.start_date, endDate: phase.end_date });
    }
  }

  const seconds = { min: 0, max: MAX_INT };
  const fields = {
    totalSleepSeconds: checkNumber("total_sleep_seconds", record.total_sleep_seconds, seconds),
    awakeSeconds: checkNumber("awake_seconds", record.awake_seconds, seconds),
    lightSeconds: checkNumber("light_seconds", record.light_seconds, seconds),
    deepSeconds: checkNumber("deep_seconds", record.deep_seconds, seconds),
    remSeconds: checkNumber("rem_seconds", record.rem_seconds, seconds),
    latencySeconds: checkNumber("latency_seconds", record.latency_seconds, seconds),
    efficiency: checkNumber("efficiency", record.efficiency, { min: 0, max: 1 }),
    score: checkNumber("score", record.score, { min: 0, max: 100 }),
    averageHeartRate: checkNumber("average_heart_rate", record.average_heart_rate, { min: 0, max: 400, minExclusive: true }),
    lowestHeartRate: checkNumber("lowest_heart_rate", record.lowest_heart_rate, { min: 0, max: 400, minExclusive: true }),
    averageHrv: checkNumber("average_hrv", record.average_hrv, { min: 0, max: 5000 }),
    respiratoryRate: checkNumber("respiratory_rate", record.respiratory_rate, { min: 0, max: 200, minExclusive: true }),
  };
  for (const value of Object.values(fields)) if (value !== null && typeof value === "object") return value;
  const given = fields as Record<keyof typeof fields, number | null>;
  const derived = phases ? deriveStageTotals(start, end, phases) : {};
  // Phases far from the bedtimes can add up to more seconds than the columns hold.
  if (Object.values(derived).some((value) => Math.round(value) > MAX_INT)) return { reason: "phases add up to more than 68 years" };
  const pick = (name: keyof typeof derived & keyof typeof given, round: boolean) => {
    const value = given[name] ?? derived[name] ?? null;
    return value === null ? null : round ? Math.round(value) : value;
  };

  // The zone has its own column here rather than metadata.timezone.
  const provenance = normalizeProvenance({ ...record, timezone: null }, provider);
  return {
    phases,
    session: {
      kind,
      bedtimeStart: start,
      bedtimeEnd: end,
      timezone: record.timezone && isTimeZone(record.timezone) ? record.timezone : null,
      totalSleepSeconds: pick("totalSleepSeconds", true),
      awakeSeconds: pick("awakeSeconds", true),
      lightSeconds: pick("lightSeconds", true),
      deepSeconds: pick("deepSeconds", true),
      remSeconds: pick("remSeconds", true),
      latencySeconds: pick("latencySeconds", true),
      efficiency: pick("efficiency", false),
      score: given.score,
      averageHeartRate: given.averageHeartRate,
      lowestHeartRate: given.lowestHeartRate,
      averageHrv: given.averageHrv,
      respiratoryRate: given.respiratoryRate,
      ...provenance,
      dedupeKey: identityOf(provenance, start, end),
    },
  };
}
