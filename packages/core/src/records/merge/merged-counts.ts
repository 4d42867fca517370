/**
 * The merged view's rule for counts (match-kinds.ts: intervals overlap; a record of no
 * length counts as one millisecond long), applied in memory to one metric's records: a
 * record is left out when any better ranked stream has an overlapping record, whether or
 * not that one is itself left out (no chains), as records/merge/merge-sql-repository.ts does in SQL.
 */
export interface RankedInterval {
  /** Epoch milliseconds. */
  startMs: number;
  endMs: number;
  /** The rank of the record's stream; 0 is the best. */
  rank: number;
}

export function keepMergedCounts<T extends RankedInterval>(records: readonly T[]): T[] {
  const span = (r: RankedInterval) => Math.max(r.endMs, r.startMs + 1);
  // Per rank: starts in order and the running maximum of the ends up to each start.
  const streams = new Map<number, { starts: number[]; maxEnds: number[] }>();
  for (const record of [...records].sort((a, b) => a.startMs - b.startMs)) {
    let stream = streams.get(record.rank);
    if (!stream) {
      stream = { starts: [], maxEnds: [] };
      streams.set(record.rank, stream);
    }
    stream.starts.push(record.startMs);
    stream.maxEnds.push(Math.max(stream.maxEnds.at(-1) ?? -Infinity, span(record)));
  }
  const better = [...streams.entries()].sort(([a], [b]) => a - b);
  return records.filter((record) => {
    const end = span(record);
    for (const [rank, stream] of better) {
      if (rank >= record.rank) break;
      // The last record of the better stream starting before this one ends: it or an
      // earlier one overlaps exactly when the furthest end so far reaches past this start.
      const last = lastBefore(stream.starts, end);
      if (last >= 0 && (stream.maxEnds[last] ?? -Infinity) > record.startMs) return false;
    }
    return true;
  });
}

/** Index of the last value below `limit` in ascending `values`; -1 when none. */
function lastBefore(values: readonly number[], limit: number): number {
  let low = 0;
  let high = values.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if ((values[mid] ?? Infinity) < limit) low = mid + 1;
    else high = mid;
  }
  return low - 1;
}
