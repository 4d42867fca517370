import { type DbClient, type Page, parseTimeWindow, toPage } from "../../platform/index.ts";
import { listHrvResults as listHrvRows, type HrvResultRow } from "./heartbeat-repository.ts";
import { decodeAfterUuid } from "../record-cursors.ts";
import { toProvenanceDto } from "../provenance-dto.ts";

export interface HrvResultDto {
  series_id: string;
  first_beat_at: string;
  last_beat_at: string;
  beat_count: number;
  rmssd_ms: number | null;
  sdnn_ms: number | null;
  pnn50: number | null;
  mean_rr_ms: number | null;
  mean_heart_rate: number | null;
  provider: string;
  source: string | null;
  device: string | null;
  ingested_at: string;
}

const toHrvDto = (row: HrvResultRow): HrvResultDto => ({
  series_id: row.series_id,
  first_beat_at: row.first_beat_at.toISOString(),
  last_beat_at: row.last_beat_at.toISOString(),
  beat_count: row.beat_count,
  rmssd_ms: row.rmssd_ms,
  sdnn_ms: row.sdnn_ms,
  pnn50: row.pnn50,
  mean_rr_ms: row.mean_rr_ms,
  mean_heart_rate: row.mean_heart_rate,
  ...toProvenanceDto(row),
});

/** HRV of a user's heartbeat series by the series' first beat (start and end filter on it), optionally of one series. */
export async function listHrvResults(
  db: DbClient,
  userId: string,
  input: { series_id?: string | undefined; start?: string | undefined; end?: string | undefined; cursor?: string | undefined; limit: number },
): Promise<Page<HrvResultDto>> {
  const window = parseTimeWindow(input);
  const rows = await listHrvRows(db, {
    userId,
    seriesId: input.series_id,
    start: window.start,
    end: window.end,
    after: decodeAfterUuid(input.cursor),
    limit: input.limit,
  });
  return toPage(rows, input.limit, toHrvDto, (row) => ({ t: row.first_beat_at.toISOString(), id: row.series_id }));
}
