import { AppError, type DbClient, type Page, parseTimeWindow, toPage } from "../../platform/index.ts";
import { findEcgRecording, selectEcgRecordings as listEcgRows, type EcgRecordingRow } from "./ecg-repository.ts";
import { decodeAfterUuid } from "../record-cursors.ts";
import { toProvenanceDto } from "../provenance-dto.ts";

export interface EcgRecordingDto {
  id: string;
  start_date: string;
  end_date: string;
  classification: string | null;
  average_heart_rate: number | null;
  sampling_frequency_hz: number;
  lead_name: string | null;
  sample_count: number;
  symptoms: string[];
  source_name: string | null;
  external_id: string | null;
  metadata: Record<string, unknown>;
  provider: string;
  source: string | null;
  device: string | null;
  ingested_at: string;
}

export const toEcgDto = (row: EcgRecordingRow): EcgRecordingDto => ({
  id: row.id,
  start_date: row.start_date.toISOString(),
  end_date: row.end_date.toISOString(),
  classification: row.classification,
  average_heart_rate: row.average_heart_rate,
  sampling_frequency_hz: row.sampling_frequency_hz,
  lead_name: row.lead_name,
  sample_count: row.sample_count,
  symptoms: row.symptoms ?? [],
  source_name: row.source_name,
  external_id: row.external_id,
  metadata: row.metadata,
  ...toProvenanceDto(row),
});

/** A user's ECG recordings by start_date, without their voltages. */
export async function listEcgRecordings(
  db: DbClient,
  userId: string,
  input: { start?: string | undefined; end?: string | undefined; cursor?: string | undefined; limit: number },
): Promise<Page<EcgRecordingDto>> {
  const window = parseTimeWindow(input);
  const rows = await listEcgRows(db, {
    userId,
    start: window.start,
    end: window.end,
    after: decodeAfterUuid(input.cursor),
    limit: input.limit,
  });
  return toPage(rows, input.limit, toEcgDto, (row) => ({ t: row.start_date.toISOString(), id: row.id }));
}

/** One recording of the user with its voltages in microvolts; 404 when the user has no such recording. */
export async function getEcgRecording(db: DbClient, userId: string, recordingId: string): Promise<EcgRecordingDto & { voltages: number[] }> {
  const row = await findEcgRecording(db, userId, recordingId);
  if (!row) throw new AppError("not_found", "No such ECG recording.");
  return { ...toEcgDto(row), voltages: row.microvolts };
}
