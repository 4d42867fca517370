import { resolveStatsIntervals, type StatsInterval } from "./intervals.ts";
import { sampleStatsBuckets } from "./quantity-sample-repository.ts";
import type { DbClient } from "../../platform/index.ts";
import { checkSampleType, matchKindOfType, rankedSampleStreams, type RecordView } from "./samples.ts";

/** Above this many matching samples the answer is truncated to the earliest ones (spec: Limits). */
export const STATS_ROW_CAP = 50_000;

export interface StatsBucketDto {
  start: string;
  provider: string;
  source: string;
  device: string | null;
  unit: string;
  count: number;
  sum: number;
  avg: number;
  min: number;
  max: number;
}

export interface SampleStatsDto {
  type: string;
  interval: StatsInterval;
  tz: string;
  view: RecordView;
  start: string;
  end: string;
  truncated: boolean;
  buckets: StatsBucketDto[];
}

/**
 * GET samples/stats: count, sum, avg, min and max per hour or local day, one series per
 * provider, source, device and unit, computed in SQL over the matching samples (at most
 * the earliest 50000; `truncated` says when more matched).
 */
export async function getSampleStats(
  db: DbClient,
  userId: string,
  input: { type: string; start: string; end: string; interval: StatsInterval; tz: string; provider?: string | undefined; view: RecordView },
): Promise<SampleStatsDto> {
  await checkSampleType(db, userId, input.type);
  const intervals = resolveStatsIntervals(input);
  const { boundaries, labels } = intervals;
  const first = boundaries[0];
  const last = boundaries.at(-1);
  const merged =
    input.view === "merged"
      ? { streams: await rankedSampleStreams(db, userId, input.type), kind: matchKindOfType(input.type).kind }
      : undefined;
  const rows =
    first && last && labels.length > 0
      ? await sampleStatsBuckets(db, { userId, type: input.type, start: first, end: last, provider: input.provider }, boundaries, STATS_ROW_CAP, merged)
      : [];
  return {
    type: input.type,
    interval: intervals.interval,
    tz: intervals.tz,
    view: input.view,
    start: intervals.start,
    end: intervals.end,
    truncated: (rows[0]?.matched ?? 0) > STATS_ROW_CAP,
    buckets: rows.map((row) => ({
      start: labels[row.bucket - 1] ?? intervals.start,
      provider: row.provider,
      source: row.source,
      device: row.device,
      unit: row.unit,
      count: row.count,
      sum: row.sum,
      avg: row.sum / row.count,
      min: row.min,
      max: row.max,
    })),
  };
}
