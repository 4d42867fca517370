import type { DbClient } from "../../platform/index.ts";
import { hasLegacySamples } from "./legacy-sample-repository.ts";
import type { SqlStream } from "../merge/merge-sql-repository.ts";
import type { MatchKind } from "../merge/match-kinds.ts";
import { mergePadMs, sampleStatsBuckets, type SeriesFilter, type StatsBucketRow } from "./quantity-sample-repository.ts";
import { findRollupCut, listStatsSeriesOrder, type QuarterRange, rollupBuckets, type RollupBucketRow, type RollupCut, type RollupTable } from "./rollup-stats-repository.ts";

/**
 * samples/stats from the rollups (a quarter hour of UTC per series): the same answer as the
 * computation over the samples (sampleStatsBuckets), cap included. Buckets are unions of
 * quarter hours, so quarters before the one where the cap is reached count whole; that one is
 * computed from its samples, the earliest first. In the merged view the quarters the merged
 * rollups may not hold yet (a stale range widened by the merge's reach) are computed from the
 * samples too.
 */

export const QUARTER_MS = 900_000;
/** The first range whose quarters are counted in search of the cap; each next one is WINDOW_GROWTH times longer. */
const FIRST_WINDOW_MS = 7 * 86_400_000;
const WINDOW_GROWTH = 8;

export const floorQuarter = (t: number) => Math.floor(t / QUARTER_MS) * QUARTER_MS;
export const ceilQuarter = (t: number) => Math.ceil(t / QUARTER_MS) * QUARTER_MS;

interface Segment extends QuarterRange {
  /** Computed from the samples: the merged rollups may not hold it yet. */
  fromSamples: boolean;
}

/**
 * The rows sampleStatsBuckets would give, from the rollups (`rollupsRead`: whether any sample
 * was counted from them); undefined where they cannot give them: a bucket boundary off the
 * quarter hours (an old local mean time), the merged view of one provider among several
 * (merged among that provider's samples alone), or samples of the type not moved yet.
 */
export async function rollupStatsBuckets(
  db: DbClient,
  q: SeriesFilter & { start: Date; end: Date },
  boundaries: readonly Date[],
  cap: number,
  merged: { streams: readonly SqlStream[]; kind: MatchKind } | undefined,
): Promise<{ rows: StatsBucketRow[]; rollupsRead: boolean } | undefined> {
  if (!boundaries.every((b) => b.getTime() % QUARTER_MS === 0)) return undefined;
  // Samples an upgrade left one row each have no rollups until the job data-moves moves them.
  if (await hasLegacySamples(db, q.userId, q.type)) return undefined;
  // With one stream the merged view keeps every sample: it is the view all.
  if (merged && merged.streams.length < 2) return rollupStatsBuckets(db, q, boundaries, cap, undefined);
  if (merged && q.provider !== undefined) {
    const providers = new Set(merged.streams.map((s) => s.provider));
    if (providers.has(q.provider) && providers.size > 1) return undefined;
  }
  const table: RollupTable = merged ? "merged" : "all";
  // The first window of the range counted, and in the merged view the stale range read with it:
  // when no stale range reaches the request, the count goes on from there.
  const firstWindow = { from: q.start, to: new Date(Math.min(q.end.getTime(), q.start.getTime() + FIRST_WINDOW_MS)) };
  const first = await findRollupCut(db, q, table, firstWindow, cap, merged ? q.type : undefined);
  const segments = merged && first.stale ? staleSegments(q, first.stale, merged) : [{ from: q.start, to: q.end, fromSamples: false }];
  const firstCounted = segments.length === 1 && !segments[0]!.fromSamples ? first : undefined;

  const pieces: Array<Array<RollupBucketRow | StatsBucketRow>> = [];
  let remaining = cap;
  let truncated = false;
  let rollupsRead = false;
  for (const segment of segments) {
    if (segment.fromSamples) {
      // With none left to count, only whether a sample lies here matters (then more than the cap matched).
      const rows = await sampleStatsBuckets(db, { ...q, start: segment.from, end: segment.to }, boundaries, Math.max(remaining, 1), merged);
      if (remaining > 0) pieces.push(rows);
      const matched = rows[0]?.matched ?? 0;
      truncated = matched > remaining;
      if (truncated) break;
      remaining -= matched;
      continue;
    }
    // Quarters before the one where the cap is reached count whole; that one, its earliest samples.
    const { counted, cut } = await countUpToCap(db, q, table, segment, remaining, firstCounted);
    const tail = cut && remaining > cut.before ? { quarter: cut.quarter, limit: remaining - cut.before, keptWhole: cut.keptWhole } : undefined;
    const range = { from: segment.from, to: cut?.quarter ?? segment.to };
    pieces.push(await rollupBuckets(db, q, table, range, tail, boundaries, merged));
    if ((cut?.before ?? counted) > 0) rollupsRead = true;
    truncated = cut !== undefined;
    if (truncated) break;
    remaining -= counted;
  }
  const matched = truncated ? cap + 1 : cap - remaining;
  const rows = pieces.length === 1 ? pieces[0]! : await combine(db, q, pieces.flat());
  return { rows: rows.map((row) => ({ ...row, matched })), rollupsRead };
}

/**
 * The segment's quarters in time order, counted in windows until more than `limit` samples:
 * then `cut` names the quarter where that happens and how many lie before it. `first`: the
 * count of the first window, when read already.
 */
async function countUpToCap(
  db: DbClient,
  q: SeriesFilter,
  table: RollupTable,
  segment: QuarterRange,
  limit: number,
  first?: RollupCut,
): Promise<{ counted: number; cut?: { quarter: Date; before: number; keptWhole?: string[] } }> {
  let counted = 0;
  let from = segment.from.getTime();
  for (let width = FIRST_WINDOW_MS; from < segment.to.getTime(); width *= WINDOW_GROWTH) {
    const to = Math.min(segment.to.getTime(), from + width);
    const window = width === FIRST_WINDOW_MS && first ? first : await findRollupCut(db, q, table, { from: new Date(from), to: new Date(to) }, limit - counted);
    if (window.cut) return { counted, cut: { quarter: window.cut, before: counted + window.before, keptWhole: window.keptWhole } };
    counted += window.total;
    from = to;
  }
  return { counted };
}

/**
 * The request's range cut into what the merged rollups answer and what is computed from the
 * samples: the stale range widened by the merge's reach, on quarter hours.
 */
function staleSegments(
  q: { start: Date; end: Date },
  stale: { from: Date; to: Date },
  merged: { streams: readonly SqlStream[]; kind: MatchKind },
): Segment[] {
  const start = q.start.getTime();
  const end = q.end.getTime();
  const padMs = mergePadMs(merged.kind, merged.streams);
  const staleFrom = Math.min(Math.max(floorQuarter(stale.from.getTime() - padMs), start), end);
  const staleTo = Math.max(Math.min(ceilQuarter(stale.to.getTime() + padMs), end), staleFrom);
  const segments: Segment[] = [
    { from: new Date(start), to: new Date(staleFrom), fromSamples: false },
    { from: new Date(staleFrom), to: new Date(staleTo), fromSamples: true },
    { from: new Date(staleTo), to: new Date(end), fromSamples: false },
  ];
  return segments.filter((s) => s.to > s.from);
}

/** The pieces summed per bucket and series, in the order of sampleStatsBuckets. */
async function combine(db: DbClient, q: SeriesFilter, pieces: ReadonlyArray<RollupBucketRow | StatsBucketRow>): Promise<RollupBucketRow[]> {
  const key = (row: { provider: string; source: string; device: string | null; unit: string }) => JSON.stringify([row.provider, row.source, row.device, row.unit]);
  const places = new Map((await listStatsSeriesOrder(db, q)).map((s) => [key(s), s.place]));
  const rows = new Map<string, RollupBucketRow>();
  for (const piece of pieces) {
    const id = `${piece.bucket}|${key(piece)}`;
    const row = rows.get(id);
    if (!row) {
      rows.set(id, { bucket: piece.bucket, provider: piece.provider, source: piece.source, device: piece.device, unit: piece.unit, count: piece.count, sum: piece.sum, min: piece.min, max: piece.max });
      continue;
    }
    row.count += piece.count;
    row.sum += piece.sum;
    row.min = Math.min(row.min, piece.min);
    row.max = Math.max(row.max, piece.max);
  }
  const place = (row: RollupBucketRow) => places.get(key(row)) ?? Number.MAX_SAFE_INTEGER;
  return [...rows.values()].sort((a, b) => a.bucket - b.bucket || place(a) - place(b));
}
