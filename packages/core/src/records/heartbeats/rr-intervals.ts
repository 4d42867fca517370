import { type DbClient, type Page, parseTimeWindow, toPage } from "../../platform/index.ts";
import { listRrIntervals as listRrRows, type RrIntervalRow } from "./heartbeat-repository.ts";
import { decodeAfterUuid } from "../record-cursors.ts";
import { toProvenanceDto } from "../provenance-dto.ts";

export interface RrIntervalDto {
  series_id: string;
  timestamp: string;
  interval_ms: number;
  preceded_by_gap: boolean;
  provider: string;
  source: string | null;
  device: string | null;
  ingested_at: string;
}

const toRrDto = (row: RrIntervalRow): RrIntervalDto => ({
  series_id: row.series_id,
  timestamp: row.timestamp.toISOString(),
  interval_ms: row.interval_ms,
  preceded_by_gap: row.preceded_by_gap,
  ...toProvenanceDto(row),
});

/**
 * A user's RR intervals by the time of the beat that ends each, then by series (a series has one
 * interval per time), optionally of one series. The cursor holds the last one's time and series.
 */
export async function listRrIntervals(
  db: DbClient,
  userId: string,
  input: { series_id?: string | undefined; start?: string | undefined; end?: string | undefined; cursor?: string | undefined; limit: number },
): Promise<Page<RrIntervalDto>> {
  const window = parseTimeWindow(input);
  const rows = await listRrRows(db, {
    userId,
    seriesId: input.series_id,
    start: window.start,
    end: window.end,
    after: decodeAfterUuid(input.cursor),
    limit: input.limit,
  });
  return toPage(rows, input.limit, toRrDto, (row) => ({ t: row.timestamp.toISOString(), id: row.series_id }));
}
