// From HealthKit objects (as both upload formats give them) to svc's records, collected in
// batches. Both parsers feed one AppleHealthRecords; it owns what must span batches: the
// sleep analysis samples (grouped into sessions at the end), the identities of blood
// pressure and food samples already given (so a correlation's samples and the same samples
// as lone records are given once), and a count per HealthKit type svc does not map.
// What it keeps past a batch is copied (structuredClone): a string cut from the parser's
// text can keep that whole chunk of text alive, and every chunk with a sleep sample in it
// then stayed in memory until the end of the upload.

import {
  findQuantityType,
  toStorageUnit,
  type CategorySampleRecord,
  type DailySummaryRecord,
  type EcgRecordingRecord,
  type HeartbeatSeriesRecord,
  type QuantitySampleRecord,
  type SleepPhaseRecord,
  type SleepSessionRecord,
  type WorkoutRecord,
} from "@svc/core";
import { emptyParsedRecords, type ParsedRecords, type RecordListName } from "../parsed-records.ts";
import {
  categoryMappingOf,
  categoryValueOf,
  FRACTION_TYPES,
  isCorrelatedType,
  quantityTypeOf,
  SLEEP_ANALYSIS,
  sleepStageOf,
} from "./healthkit-types.ts";
import { baseProvenance, type HkProvenance } from "./provenance.ts";

/** A batch of records from an Apple Health upload. */
export interface AppleHealthParsedRecords extends ParsedRecords {
  /**
   * HealthKit uuids of deleted objects (NDJSON `deleted` lines): the ETL turns them into
   * tombstones (external_id = uuid). Present only when the batch has some.
   */
  deletedExternalIds?: string[];
}

export interface AppleHealthParseOptions {
  /** Records (and rejections) per yielded batch, about; default 5000. */
  batchSize?: number;
}

/** Samples of one source further apart than this start a new sleep session. */
export const SLEEP_SESSION_GAP_MS = 60 * 60 * 1000;

const DEFAULT_BATCH = 5000;
const MAX_UNKNOWN_TYPES = 1000;
const TYPE_NAME_SHOWN = /^HK[A-Za-z0-9_]{1,120}$/;

/** A HealthKit quantity or category sample, before mapping. */
export interface HkSample {
  /** HealthKit type identifier. */
  type: string;
  value: unknown;
  unit?: string | null | undefined;
  start: Date;
  end: Date;
  provenance: HkProvenance;
}

interface SleepEntry {
  stage: string;
  start: Date;
  end: Date;
  provenance: HkProvenance;
}

/** A workout's statistic of one quantity type (HKStatistics, or export.xml's WorkoutStatistics). */
export interface HkWorkoutStatistic {
  type: string;
  sum?: number | undefined;
  average?: number | undefined;
  minimum?: number | undefined;
  maximum?: number | undefined;
  unit?: string | undefined;
}

export interface HkWorkout {
  activityType: string;
  start: Date;
  end: Date;
  durationSeconds: number | null;
  totalDistance: { value: number; unit: string | undefined } | null;
  /** HKWorkout.totalEnergyBurned: active energy. */
  totalEnergyBurned: { value: number; unit: string | undefined } | null;
  statistics: readonly HkWorkoutStatistic[];
  route: WorkoutRecord["route"];
  provenance: HkProvenance;
}

export class AppleHealthRecords {
  private batch: AppleHealthParsedRecords = newBatch();
  private size = 0;
  private readonly batchSize: number;
  private readonly sleep = new Map<string, SleepEntry[]>();
  private readonly givenCorrelated = new Set<string>();
  private readonly unknownTypes = new Map<string, { kind: string; count: number; locator: string }>();

  constructor(options: AppleHealthParseOptions = {}) {
    const size = options.batchSize;
    this.batchSize = typeof size === "number" && Number.isFinite(size) && size >= 1 ? Math.floor(size) : DEFAULT_BATCH;
  }

  /** Whether the current batch should be handed over. */
  get full(): boolean {
    return this.size >= this.batchSize;
  }

  /** The current batch; a new one starts. */
  take(): AppleHealthParsedRecords {
    const batch = this.batch;
    this.batch = newBatch();
    this.size = 0;
    return batch;
  }

  /** The last batches (none empty): what is left, the sleep sessions and a rejection per unmapped type. */
  *finish(): Generator<AppleHealthParsedRecords> {
    for (const entries of this.sleep.values()) {
      for (const session of sleepSessions(entries)) {
        this.push("sleepSessions", session, 1 + (session.phases?.length ?? 0));
        if (this.full) yield this.take();
      }
    }
    this.sleep.clear();
    for (const [type, { kind, count, locator }] of this.unknownTypes) {
      const name = type === "" ? "types svc does not recognize" : `HealthKit type ${type}, which svc does not map`;
      this.reject(kind, locator, `${count} record(s) of ${name}; the first at ${locator}`);
    }
    this.unknownTypes.clear();
    const last = this.take();
    if (!isEmpty(last)) yield last;
  }

  reject(recordKind: string, locator: string, reason: string): void {
    this.batch.rejected.push({ recordKind, locator, reason });
    this.size++;
  }

  deleted(uuid: string): void {
    (this.batch.deletedExternalIds ??= []).push(uuid);
    this.size++;
  }

  /** A record of a HealthKit type svc does not map: counted, one rejection per type at the end. */
  unknownType(kind: string, type: string, locator: string): void {
    let key = TYPE_NAME_SHOWN.test(type) ? type : "";
    if (!this.unknownTypes.has(key) && this.unknownTypes.size >= MAX_UNKNOWN_TYPES) key = "";
    const known = this.unknownTypes.get(key);
    if (known) known.count++;
    else this.unknownTypes.set(structuredClone(key), { kind, count: 1, locator });
  }

  private push<K extends RecordListName>(list: K, record: ParsedRecords[K][number], weight = 1): void {
    (this.batch[list] as Array<ParsedRecords[K][number]>).push(record);
    this.size += weight;
  }

  /** A quantity sample (HKQuantitySample). Returns false when it was not given (rejected, unmapped or a repeat). */
  quantity(sample: HkSample): boolean {
    const p = sample.provenance;
    const type = quantityTypeOf(sample.type);
    if (type === undefined) {
      this.unknownType("quantity_sample", sample.type, p.locator);
      return false;
    }
    if (typeof sample.value !== "number" || !Number.isFinite(sample.value)) {
      this.reject("quantity_sample", p.locator, `${type}: value is not a finite number`);
      return false;
    }
    if (sample.end < sample.start) {
      this.reject("quantity_sample", p.locator, `${type}: end is before start`);
      return false;
    }
    if (isCorrelatedType(sample.type) && !this.firstTimeGiven(sample)) return false;
    let unit = typeof sample.unit === "string" && sample.unit.trim() !== "" ? sample.unit.trim() : undefined;
    if (FRACTION_TYPES.has(type) && (unit === undefined || unit === "%")) {
      // HealthKit's percent is a fraction 0-1; a value above 1 was already sent as a percentage.
      unit = Math.abs(sample.value) <= 1 ? "fraction" : "%";
    }
    const record: QuantitySampleRecord = {
      type,
      value: sample.value,
      unit,
      start_date: sample.start,
      end_date: sample.end,
      ...baseProvenance(p),
      source_bundle_id: p.bundleId,
      device_model: p.device?.model ?? null,
      product_type: p.device?.hardware ?? null,
      was_user_entered: p.wasUserEntered,
    };
    this.push("quantitySamples", record);
    return true;
  }

  /** Blood pressure and food samples come alone and inside their correlation: give each once. */
  private firstTimeGiven(sample: HkSample): boolean {
    const p = sample.provenance;
    const key = p.uuid
      ? `id:${p.uuid}`
      : `at:${sample.type}/${sample.start.getTime()}/${sample.end.getTime()}/${p.device?.name ?? ""}/${p.sourceName ?? ""}`;
    if (this.givenCorrelated.has(key)) return false;
    this.givenCorrelated.add(structuredClone(key));
    return true;
  }

  /** A category sample (HKCategorySample); sleep analysis is kept for the sessions. */
  category(sample: HkSample): void {
    const p = sample.provenance;
    if (sample.end < sample.start) {
      this.reject("category_sample", p.locator, "end is before start");
      return;
    }
    if (sample.type === SLEEP_ANALYSIS) {
      const stage = sleepStageOf(sample.value);
      if (stage === undefined) {
        this.reject("sleep_session", p.locator, "sleep analysis value is not one HealthKit defines (inBed, asleepUnspecified, asleepCore, asleepDeep, asleepREM, awake)");
        return;
      }
      const key = p.bundleId ?? p.sourceName ?? p.device?.name ?? "";
      const entries = this.sleep.get(key) ?? [];
      if (entries.length === 0) this.sleep.set(key, entries);
      entries.push({ stage, start: sample.start, end: sample.end, provenance: structuredClone(p) });
      return;
    }
    const mapping = categoryMappingOf(sample.type);
    if (mapping === undefined) {
      this.unknownType("category_sample", sample.type, p.locator);
      return;
    }
    const value = categoryValueOf(mapping, sample.value, p.metadata);
    if (value === undefined) {
      this.reject("category_sample", p.locator, `${mapping.type}: value is not one HealthKit defines for the type`);
      return;
    }
    const record: CategorySampleRecord = {
      type: mapping.type,
      value,
      start_date: sample.start,
      end_date: sample.end,
      ...baseProvenance(p),
      source_bundle_id: p.bundleId,
      device_model: p.device?.model ?? null,
      was_user_entered: p.wasUserEntered,
    };
    this.push("categorySamples", record);
  }

  workout(w: HkWorkout): void {
    const p = w.provenance;
    const problems: string[] = [];
    const convert = (catalogType: string, field: string, value: number | undefined, unit: string | undefined): number | null => {
      if (value === undefined || !Number.isFinite(value)) return null;
      const result = toCatalogUnit(catalogType, value, unit);
      if (typeof result === "number") return result;
      problems.push(`${field}: ${result.error}`);
      return null;
    };
    let distance = w.totalDistance ? convert("distance_walking_running", "total_distance", w.totalDistance.value, w.totalDistance.unit) : null;
    let active = w.totalEnergyBurned ? convert("active_energy_burned", "total_energy_burned", w.totalEnergyBurned.value, w.totalEnergyBurned.unit) : null;
    let basal: number | null = null;
    let averageHeartRate: number | null = null;
    let maxHeartRate: number | null = null;
    let steps: number | null = null;
    for (const s of w.statistics) {
      const type = quantityTypeOf(s.type);
      if (type === undefined) continue;
      if (type.startsWith("distance_")) distance ??= convert(type, "statistics distance", s.sum, s.unit);
      else if (type === "active_energy_burned") active ??= convert(type, "statistics active energy", s.sum, s.unit);
      else if (type === "basal_energy_burned") basal ??= convert(type, "statistics basal energy", s.sum, s.unit);
      else if (type === "step_count") steps ??= convert(type, "statistics steps", s.sum, s.unit);
      else if (type === "heart_rate") {
        averageHeartRate ??= convert(type, "statistics average heart rate", s.average, s.unit);
        maxHeartRate ??= convert(type, "statistics maximum heart rate", s.maximum, s.unit);
      }
    }
    const elevation = metadataQuantity(p.metadata.HKElevationAscended ?? p.metadata.HKMetadataKeyElevationAscended);
    const elevationGain = elevation ? convert("distance_walking_running", "HKElevationAscended", elevation.value, elevation.unit) : null;
    for (const problem of problems) this.reject("workout", p.locator, problem);
    const record: WorkoutRecord = {
      activity_type: w.activityType,
      start_date: w.start,
      end_date: w.end,
      duration_seconds: w.durationSeconds,
      distance_meters: distance,
      active_energy_kcal: active,
      total_energy_kcal: active !== null && basal !== null ? active + basal : null,
      average_heart_rate: averageHeartRate,
      max_heart_rate: maxHeartRate,
      elevation_gain_meters: elevationGain,
      steps,
      ...baseProvenance(p),
      route: w.route,
    };
    this.push("workouts", record, 1 + Math.floor((w.route?.length ?? 0) / 1000));
  }

  heartbeatSeries(record: HeartbeatSeriesRecord): void {
    this.push("heartbeatSeries", record, 1 + Math.floor((record.beats?.length ?? 0) / 1000));
  }

  ecg(record: EcgRecordingRecord): void {
    this.push("ecgRecordings", record, 1 + Math.floor(record.voltages.length / 1000));
  }

  dailySummary(record: DailySummaryRecord): void {
    this.push("dailySummaries", record);
  }
}

/** HealthKit never edits a sample (a change is a deletion and a new sample): its UUID names fixed times. */
const newBatch = (): AppleHealthParsedRecords => ({ ...emptyParsedRecords(), fixedTimeIds: true });

/** Whether a batch holds nothing at all. */
function isEmpty(batch: AppleHealthParsedRecords): boolean {
  return Object.values(batch).every((list) => !Array.isArray(list) || list.length === 0);
}

/** A value converted to a catalog type's storage unit, or why not (quoting neither the value nor the unit). */
export function toCatalogUnit(catalogType: string, value: number, unit: string | undefined): number | { error: string } {
  const type = findQuantityType(catalogType);
  if (!type) return { error: `${catalogType} is not in the catalog` };
  const converted = toStorageUnit(type, value, unit);
  return "error" in converted ? { error: `the unit is not one svc converts to ${type.unit}` } : converted.value;
}

/** An HKQuantity in metadata: `{value, unit}` (NDJSON) or its description `1570 cm` (export.xml). */
export function metadataQuantity(value: unknown): { value: number; unit: string } | null {
  if (typeof value === "string") {
    const m = /^\s*(-?\d+(?:\.\d+)?(?:e[+-]?\d+)?)\s*([^\s\d].*?)\s*$/i.exec(value);
    if (!m || m[1] === undefined || m[2] === undefined) return null;
    return { value: Number(m[1]), unit: m[2] };
  }
  if (typeof value === "object" && value !== null && !Array.isArray(value)) {
    const q = value as Record<string, unknown>;
    if (typeof q.value === "number" && Number.isFinite(q.value) && typeof q.unit === "string") return { value: q.value, unit: q.unit };
  }
  return null;
}

/**
 * Sleep analysis samples of one source as sessions: sorted by start, a sample starting less
 * than SLEEP_SESSION_GAP_MS after the latest end so far joins the session. Each sample is a
 * phase. The session takes its provenance from its first sample, its external_id from the
 * first sample's uuid (so a night sent again with more samples updates the session), and
 * its metadata from all samples (the first value of a key wins).
 */
export function sleepSessions(entries: SleepEntry[]): SleepSessionRecord[] {
  const sorted = [...entries].sort((a, b) => a.start.getTime() - b.start.getTime() || a.end.getTime() - b.end.getTime() || (a.provenance.uuid ?? "").localeCompare(b.provenance.uuid ?? ""));
  const sessions: SleepSessionRecord[] = [];
  let group: SleepEntry[] = [];
  let groupEnd = 0;
  const close = () => {
    const first = group[0];
    if (first === undefined) return;
    const metadata: Record<string, unknown> = {};
    for (const entry of group) for (const [key, value] of Object.entries(entry.provenance.metadata)) if (!Object.hasOwn(metadata, key)) metadata[key] = value;
    const phases: SleepPhaseRecord[] = group.map((e) => ({ stage: e.stage, start_date: e.start, end_date: e.end }));
    const base = baseProvenance(first.provenance);
    sessions.push({
      kind: "sleep",
      bedtime_start: first.start,
      bedtime_end: new Date(groupEnd),
      ...base,
      timezone: group.find((e) => e.provenance.timezone !== null)?.provenance.timezone ?? null,
      metadata,
      phases,
    });
    group = [];
  };
  for (const entry of sorted) {
    if (group.length > 0 && entry.start.getTime() - groupEnd >= SLEEP_SESSION_GAP_MS) close();
    if (group.length === 0) groupEnd = entry.end.getTime();
    group.push(entry);
    groupEnd = Math.max(groupEnd, entry.end.getTime());
  }
  close();
  return sessions;
}
