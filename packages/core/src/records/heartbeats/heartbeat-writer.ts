import { computeHrv } from "./heart-rate-variability.ts";
import type { DbClient } from "../../platform/index.ts";
import {
  lockUserRrIntervals,
  moveLegacyRrIntervals,
  replaceRrIntervals,
  touchHeartbeatSeries,
  upsertHeartbeatSeries,
  upsertHrvResult,
  type HeartbeatSeriesWrite,
  type RrIntervalWrite,
} from "./heartbeat-repository.ts";
import { insertRejectedRecords } from "../rejected-record-repository.ts";
import { checkInterval, identityOf, normalizeProvenance, type RecordProvenanceInput } from "../record-fields.ts";
import { partitionRecords, writeSummary } from "../record-batches.ts";
import { utcDays } from "../utc-days.ts";
import type { RecordBatch, WriteSummary } from "../record-batches.ts";

/**
 * A heartbeat series as a parser produces it, with either `beats` (the time of each beat,
 * as HealthKit's HKHeartbeatSeriesSample gives them) or `rr_intervals` (beat-to-beat
 * intervals in milliseconds, the first starting with a beat at start_date, as chest straps
 * give them). `preceded_by_gap` marks beats missing before that beat (or interval).
 */
export interface HeartbeatSeriesRecord extends RecordProvenanceInput {
  start_date: Date;
  /** Missing means the last beat. */
  end_date?: Date | undefined;
  beats?: ReadonlyArray<{ timestamp: Date; preceded_by_gap?: boolean | undefined }> | undefined;
  rr_intervals?: ReadonlyArray<{ interval_ms: number; preceded_by_gap?: boolean | undefined }> | undefined;
}

interface NormalizedSeries {
  series: HeartbeatSeriesWrite;
  intervals: RrIntervalWrite[];
  firstBeatAt: Date;
  lastBeatAt: Date;
}

const MAX_BEATS = 200_000;

/**
 * Stores heartbeat series idempotently (identity: the provider's id, else times, device
 * and source name). Writing a series replaces its RR intervals when they changed and
 * recomputes its HRV row (see hrv/heart-rate-variability.ts). What cannot be stored becomes
 * a rejected record whose reason never quotes a value. Call inside the caller's transaction.
 */
export async function writeHeartbeatSeries(db: DbClient, batch: RecordBatch, records: readonly HeartbeatSeriesRecord[]): Promise<WriteSummary> {
  const partitioned = partitionRecords(records, "heartbeat_series", (r) => normalizeSeries(r, batch.provider), (n) => n.series.dedupeKey);
  const { byIdentity } = partitioned;
  const all = [...byIdentity.values()];
  if (all.length > 0) await lockUserRrIntervals(db, batch.userId);
  const stored = await upsertHeartbeatSeries(db, { ...batch, rawObjectId: batch.rawObjectId ?? null }, all.map((s) => s.series));
  let inserted = 0;
  let updated = 0;
  const days = new Set<string>();
  for (const row of stored) {
    const normalized = byIdentity.get(row.dedupe_key);
    if (!normalized) continue;
    // Intervals an upgrade left behind join the chunks first, so they are compared and kept as stored ones.
    await moveLegacyRrIntervals(db, batch.userId, row.id);
    const intervalsChanged = await replaceRrIntervals(db, row.id, batch.userId, normalized.intervals);
    const hrvChanged = await upsertHrvResult(db, row.id, batch.userId, {
      firstBeatAt: normalized.firstBeatAt,
      lastBeatAt: normalized.lastBeatAt,
      beatCount: normalized.series.beatCount,
      ...computeHrv(normalized.intervals),
    });
    if (row.inserted) inserted++;
    else if (row.changed || intervalsChanged || hrvChanged) updated++;
    else continue;
    if (!row.changed) await touchHeartbeatSeries(db, row.id, batch.userId);
    for (const day of utcDays(normalized.series.startDate, normalized.series.endDate)) days.add(day);
  }
  await insertRejectedRecords(db, batch, partitioned.rejected);
  const types = inserted + updated > 0 ? ["heartbeat_series"] : [];
  return writeSummary(partitioned, { inserted, updated, types, days });
}

function normalizeSeries(record: HeartbeatSeriesRecord, provider: string): NormalizedSeries | { reason: string } {
  const kind = "heartbeat_series";
  const hasBeats = (record.beats?.length ?? 0) > 0;
  const hasIntervals = (record.rr_intervals?.length ?? 0) > 0;
  if (hasBeats === hasIntervals) return { reason: `${kind}: give either beats or rr_intervals` };
  const start = record.start_date;
  if (!(start instanceof Date) || Number.isNaN(start.getTime())) return { reason: `${kind}: start or end is not a valid time` };
  const beats = hasBeats ? beatsFromTimes(record.beats ?? []) : beatsFromIntervals(start, record.rr_intervals ?? []);
  if ("reason" in beats) return { reason: `${kind}: ${beats.reason}` };
  const first = beats.times[0];
  const last = beats.times.at(-1);
  if (!first || !last || beats.times.length < 2) return { reason: `${kind}: a series needs at least two beats` };
  if (beats.times.length > MAX_BEATS) return { reason: `${kind}: a series holds at most ${MAX_BEATS} beats` };
  if (first < start) return { reason: `${kind}: a beat is before start_date` };
  const times = checkInterval(kind, start, record.end_date ?? last);
  if ("reason" in times) return times;
  if (last > times.end) return { reason: `${kind}: a beat is after end_date` };
  const provenance = normalizeProvenance(record, provider);
  return {
    series: {
      startDate: times.start,
      endDate: times.end,
      beatCount: beats.times.length,
      ...provenance,
      dedupeKey: identityOf(provenance, times.start, times.end),
    },
    intervals: beats.intervals,
    firstBeatAt: first,
    lastBeatAt: last,
  };
}

type Beats = { times: Date[]; intervals: RrIntervalWrite[] } | { reason: string };

/** Beat times in order: each beat after the first ends one interval. */
function beatsFromTimes(beats: NonNullable<HeartbeatSeriesRecord["beats"]>): Beats {
  const times: Date[] = [];
  const intervals: RrIntervalWrite[] = [];
  for (const beat of beats) {
    const time = beat.timestamp;
    if (!(time instanceof Date) || Number.isNaN(time.getTime())) return { reason: "a beat's timestamp is not a valid time" };
    const previous = times.at(-1);
    if (previous) {
      if (time <= previous) return { reason: "beats must be in strictly increasing time order (to the millisecond)" };
      intervals.push({ timestamp: time, intervalMs: time.getTime() - previous.getTime(), precededByGap: beat.preceded_by_gap ?? false });
    }
    times.push(time);
  }
  return { times, intervals };
}

/** RR intervals in order from a first beat at `start`; beat times are rounded to the millisecond. */
function beatsFromIntervals(start: Date, rr: NonNullable<HeartbeatSeriesRecord["rr_intervals"]>): Beats {
  const times: Date[] = [start];
  const intervals: RrIntervalWrite[] = [];
  let elapsed = 0;
  for (const interval of rr) {
    if (typeof interval.interval_ms !== "number" || !Number.isFinite(interval.interval_ms) || interval.interval_ms <= 0) {
      return { reason: "an RR interval is not a finite number of milliseconds above 0" };
    }
    elapsed += interval.interval_ms;
    const time = new Date(start.getTime() + Math.round(elapsed));
    if (time <= (times.at(-1) ?? start)) return { reason: "two beats fall on one millisecond" };
    times.push(time);
    intervals.push({ timestamp: time, intervalMs: interval.interval_ms, precededByGap: interval.preceded_by_gap ?? false });
  }
  return { times, intervals };
}
