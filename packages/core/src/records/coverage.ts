import { AppError, type DbClient, parseTimeWindow } from "../platform/index.ts";
import { COVERED_KINDS, countRecordsPerDay, type CoveredKind } from "./coverage-repository.ts";

const DAY_MS = 86_400_000;
/** Without start, coverage reports the 30 days before end (spec: MCP get_coverage). */
export const COVERAGE_DEFAULT_DAYS = 30;
/** Coverage is not paged: a window is at most this long. */
export const COVERAGE_MAX_DAYS = 366;

export type RecordCounts = Record<CoveredKind, number>;

export interface CoverageDto {
  start: string;
  end: string;
  data: Array<{ date: string; provider: string; records: RecordCounts; total: number }>;
}

const emptyCounts = (): RecordCounts => ({
  quantity_samples: 0,
  category_samples: 0,
  ...(Object.fromEntries(Object.keys(COVERED_KINDS).map((kind) => [kind, 0])) as Record<keyof typeof COVERED_KINDS, number>),
  daily_summaries: 0,
});

/** Records per provider per UTC day, by kind, ordered by day then provider. */
export async function getCoverage(
  db: DbClient,
  userId: string,
  input: { provider?: string | undefined; start?: string | undefined; end?: string | undefined },
  now = new Date(),
): Promise<CoverageDto> {
  const window = parseTimeWindow(input);
  const end = window.end ?? now;
  const start = window.start ?? new Date(end.getTime() - COVERAGE_DEFAULT_DAYS * DAY_MS);
  if (start > end) throw new AppError("bad_request", "start must not be after end (end defaults to now)");
  if (end.getTime() - start.getTime() > COVERAGE_MAX_DAYS * DAY_MS) {
    throw new AppError("bad_request", `coverage covers at most ${COVERAGE_MAX_DAYS} days: narrow start and end`);
  }
  const rows = await countRecordsPerDay(db, { userId, start, end, provider: input.provider });
  const byDay = new Map<string, CoverageDto["data"][number]>();
  for (const row of rows) {
    const key = `${row.day}\u0000${row.provider}`;
    let entry = byDay.get(key);
    if (!entry) {
      entry = { date: row.day, provider: row.provider, records: emptyCounts(), total: 0 };
      byDay.set(key, entry);
    }
    entry.records[row.kind] += row.count;
    entry.total += row.count;
  }
  return { start: start.toISOString(), end: end.toISOString(), data: [...byDay.values()] };
}
