import { resolveStatsIntervals, type StatsInterval } from "./intervals.ts";
import { sampleStatsBuckets, type StatsBucketRow } from "./quantity-sample-repository.ts";
import { rollupStatsBuckets } from "./rollup-stats.ts";
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

export interface SampleStatsInput {
  type: string;
  start: string;
  end: string;
  interval: StatsInterval;
  tz: string;
  provider?: string | undefined;
  view: RecordView;
}

/**
 * GET samples/stats: count, sum, avg, min and max per hour or local day, one series per
 * provider, source, device and unit, over the matching samples (at most the earliest 50000;
 * `truncated` says when more matched). Read from the rollups where they answer exactly
 * (rollup-stats.ts), else computed in SQL over the samples.
 */
export async function getSampleStats(db: DbClient, userId: string, input: SampleStatsInput): Promise<SampleStatsDto> {
  return (await computeSampleStats(db, userId, input)).stats;
}

/**
 * getSampleStats, and where the answer came from: `rollups` when any sample was counted from
 * them, else `samples`. `useRollups: false` computes it from the samples alone, as before the
 * rollups (tests compare the two).
 */
export async function computeSampleStats(
  db: DbClient,
  userId: string,
  input: SampleStatsInput,
  options: { useRollups?: boolean } = {},
): Promise<{ stats: SampleStatsDto; source: "rollups" | "samples" }> {
  await checkSampleType(db, userId, input.type);
  const intervals = resolveStatsIntervals(input);
  const { boundaries, labels } = intervals;
  const first = boundaries[0];
  const last = boundaries.at(-1);
  const merged =
    input.view === "merged"
      ? { streams: await rankedSampleStreams(db, userId, input.type), kind: matchKindOfType(input.type).kind }
      : undefined;
  let rows: StatsBucketRow[] = [];
  let source: "rollups" | "samples" = "samples";
  if (first && last && labels.length > 0) {
    const q = { userId, type: input.type, start: first, end: last, provider: input.provider };
    const fromRollups = options.useRollups === false ? undefined : await rollupStatsBuckets(db, q, boundaries, STATS_ROW_CAP, merged);
    if (fromRollups?.rollupsRead) source = "rollups";
    rows = fromRollups?.rows ?? (await sampleStatsBuckets(db, q, boundaries, STATS_ROW_CAP, merged));
  }
  const stats: SampleStatsDto = {
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
  return { stats, source };
}
