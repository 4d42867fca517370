import type { DbClient } from "../../platform/index.ts";

/** What derived daily totals need of one sample. */
export interface SampleForTotal {
  start_date: Date;
  end_date: Date;
  value: number;
  source_key: string;
  source: string | null;
  device: string | null;
  on_body: boolean;
  /** metadata.timezone as stored (not checked here). */
  timezone: string | null;
}

/**
 * One provider's samples of a type starting in [start, end), oldest first. A plain range
 * read: its plan does not depend on table statistics, which are stale inside the very
 * transaction that bulk-inserted the samples.
 */
export function listProviderSamplesForTotals(
  db: DbClient,
  q: { userId: string; provider: string; type: string; start: Date; end: Date },
): Promise<SampleForTotal[]> {
  return db.$queryRaw<SampleForTotal[]>`
    SELECT s.start_date, s.end_date, s.value, s.source_key, s.source, s.device, s.on_body,
      s.metadata->>'timezone' AS timezone
    FROM quantity_samples s
    WHERE s.user_id = ${q.userId}::uuid AND s.type = ${q.type} AND s.provider = ${q.provider}
      AND s.start_date >= ${q.start} AND s.start_date < ${q.end}
    ORDER BY s.start_date`;
}
