import { isoTime } from "../platform/index.ts";

/** Where a stored record came from, as every record list answers it. */
export interface ProvenanceDto {
  provider: string;
  source: string | null;
  device: string | null;
  ingested_at: string;
}

/** The provenance columns of a record row, as answered. */
export const toProvenanceDto = (row: { provider: string; source: string | null; device: string | null; ingested_at: Date }): ProvenanceDto => ({
  provider: row.provider,
  source: row.source,
  device: row.device,
  ingested_at: isoTime(row.ingested_at),
});
