import { isTimeZone } from "../platform/index.ts";
import { recordIdentity } from "./samples/sample-identity.ts";

/**
 * Fields every record kind a parser produces carries about where it came from (daily
 * summaries leave out external_id and source_name; sleep sessions, workouts and daily
 * summaries keep the zone in a column of their own rather than in metadata).
 */
export interface RecordProvenanceInput {
  /** The vendor that produced it, when known (lower-case slug, e.g. `apple`, `garmin`). */
  source?: string | null | undefined;
  device?: string | null | undefined;
  /** Worn on the body (a watch, a ring, a strap) rather than a phone in a pocket. */
  on_body?: boolean | undefined;
  source_name?: string | null | undefined;
  external_id?: string | null | undefined;
  /** IANA zone or ±hh:mm offset where it was recorded; kept in metadata.timezone. */
  timezone?: string | null | undefined;
  /** Provider fields as sent. */
  metadata?: Record<string, unknown> | undefined;
  /** Where in the raw object (line, index), kept with a rejected record. */
  locator?: string | undefined;
}

/** Provenance columns as stored. */
export interface StoredProvenance {
  source: string | null;
  sourceKey: string;
  device: string | null;
  onBody: boolean;
  sourceName: string | null;
  externalId: string | null;
  metadata: Record<string, unknown>;
}

export function normalizeProvenance(record: RecordProvenanceInput, provider: string): StoredProvenance {
  const metadata: Record<string, unknown> = { ...record.metadata };
  if (record.timezone && isTimeZone(record.timezone)) metadata.timezone = record.timezone;
  const source = record.source ?? null;
  return {
    source,
    sourceKey: source ?? provider,
    device: record.device ?? null,
    onBody: record.on_body ?? false,
    sourceName: record.source_name ?? null,
    externalId: record.external_id ?? null,
    metadata,
  };
}

/** A record's identity within its user and provider (see recordIdentity). */
export function identityOf(p: StoredProvenance, start: Date, end: Date): string {
  return recordIdentity({ externalId: p.externalId, start, end, device: p.device, sourceName: p.sourceName });
}

/** Start and end of a record, or why they cannot be stored (never quoting a value). */
export function checkInterval(kind: string, start: Date, end: Date | undefined): { start: Date; end: Date } | { reason: string } {
  const last = end ?? start;
  if (!(start instanceof Date) || !(last instanceof Date) || Number.isNaN(start.getTime()) || Number.isNaN(last.getTime())) {
    return { reason: `${kind}: start or end is not a valid time` };
  }
  if (last < start) return { reason: `${kind}: end_date is before start_date` };
  return { start, end: last };
}

/**
 * The named amounts of a record as stored (missing means null), or why they cannot be
 * stored: each must be a finite number of at least 0. The reason names the field only.
 */
export function checkAmounts<K extends string>(
  kind: string,
  record: Partial<Record<K, number | null | undefined>>,
  fields: readonly K[],
): Record<K, number | null> | { reason: string } {
  const amounts = {} as Record<K, number | null>;
  for (const field of fields) {
    const value = record[field];
    if (value === undefined || value === null) {
      amounts[field] = null;
    } else if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
      return { reason: `${kind}: ${field} is not a finite number of at least 0` };
    } else {
      amounts[field] = value;
    }
  }
  return amounts;
}

/** A free-form code as a snake_case name (`sinusRhythm`, `Sinus Rhythm` -> `sinus_rhythm`); null when nothing is left. */
export function snakeCaseCode(value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const code = value
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .slice(0, 64);
  return code === "" ? null : code;
}
