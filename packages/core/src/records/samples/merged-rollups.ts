import type { Database } from "@svc/db";
import type { CoreDeps } from "../../deps.ts";
import { deleteMergedRollups, replaceMergedRollups } from "./merged-rollup-repository.ts";
import { clearStaleRange, listStaleTypes, lockStaleRange, setStaleFrom } from "./merged-stale-repository.ts";
import { mergePadMs } from "./quantity-sample-repository.ts";
import { ceilQuarter, floorQuarter, QUARTER_MS } from "./rollup-stats.ts";
import { findRollupSpan } from "./rollup-stats-repository.ts";
import { matchKindOfType, rankedSampleStreams } from "./samples.ts";

/**
 * The job sample-merged-rollups: computes the merged rollups of a user's type again over its
 * stale range (merged-stale-repository.ts), widened by the merge's reach, a slice at a time.
 */

/** One transaction's slice: a month of a watch's 5-second samples and a phone's took about 3 s on the 2-core machine. */
const SLICE_MS = 31 * 86_400_000;
/** A slice's transaction may take this long on a busy machine. */
const SLICE_TIMEOUT_MS = 5 * 60_000;
/** How many users and types one sweep queues at most (the next sweep takes the rest). */
const SWEEP_BATCH = 5000;

/**
 * Computes the merged rollups of the user's type over its stale range, oldest first, one slice
 * per transaction: each holds the stale range's row lock, so a change marked meanwhile waits
 * and stays marked after it.
 */
export async function refreshMergedSampleRollups(db: Database, userId: string, type: string): Promise<void> {
  const kind = matchKindOfType(type).kind;
  for (let more = true; more; ) {
    more = await db.$transaction(
      async (tx) => {
        const stale = await lockStaleRange(tx, userId, type);
        if (!stale) return false;
        const span = await findRollupSpan(tx, userId, type);
        const streams = await rankedSampleStreams(tx, userId, type);
        // With one stream the merged view keeps every sample: stats read the rollups of the view all.
        if (!span || streams.length < 2) {
          await deleteMergedRollups(tx, userId, type);
          await clearStaleRange(tx, userId, type);
          return false;
        }
        // No sample lies outside the span (samples before or after it may have been deleted).
        await deleteMergedRollups(tx, userId, type, { from: span.first, to: new Date(span.last.getTime() + QUARTER_MS) });
        const padMs = mergePadMs(kind, streams);
        // Quarters outside the span hold no sample, so they have no merged rollup to compute.
        const from = Math.max(floorQuarter(stale.from.getTime() - padMs), span.first.getTime());
        const to = Math.min(ceilQuarter(stale.to.getTime() + padMs), span.last.getTime() + QUARTER_MS);
        const sliceEnd = Math.min(to, from + SLICE_MS);
        if (from < to) await replaceMergedRollups(tx, { userId, type }, { from: new Date(from), to: new Date(sliceEnd) }, { streams, kind });
        if (sliceEnd >= to) {
          await clearStaleRange(tx, userId, type);
          return false;
        }
        // Readers widen what is left by the reach again: it starts at the slice's end.
        await setStaleFrom(tx, userId, type, new Date(sliceEnd + padMs));
        return true;
      },
      { timeout: SLICE_TIMEOUT_MS },
    );
  }
}

/** Queues sample-merged-rollups for each user and type with a stale range (one job at a time per user and type). */
export async function queueStaleMergedRollups({ db, jobs }: Pick<CoreDeps, "db" | "jobs">): Promise<number> {
  const stale = await listStaleTypes(db, SWEEP_BATCH);
  for (const { user_id, type } of stale) {
    await jobs.send("sample-merged-rollups", { user_id, type }, undefined, { singletonKey: `${user_id}:${type}` });
  }
  return stale.length;
}
