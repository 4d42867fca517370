import type { RejectedRecordWrite } from "./rejected-record-repository.ts";

/** Why a record cannot be stored; names fields, never a value. */
export interface Rejection {
  reason: string;
}

/** A batch's records split into those a writer stores, one per identity, and the rejected ones. */
export interface PartitionedRecords<N> {
  /** Normalized records by identity; of two with one identity the later one given wins. */
  byIdentity: Map<string, N>;
  rejected: RejectedRecordWrite[];
}

/**
 * Normalizes each record of a batch. A record `normalize` cannot store becomes a rejected
 * record of `recordKind` at the record's locator (else `#index`, its place in the batch);
 * the others are keyed by `identityOf`.
 */
export function partitionRecords<R extends { locator?: string | undefined }, N extends object>(
  records: readonly R[],
  recordKind: string,
  normalize: (record: R, locator: string) => N | Rejection,
  identityOf: (normalized: N) => string,
): PartitionedRecords<N> {
  const byIdentity = new Map<string, N>();
  const rejected: RejectedRecordWrite[] = [];
  records.forEach((record, index) => {
    const locator = record.locator ?? `#${index}`;
    const normalized = normalize(record, locator);
    if (isRejection(normalized)) rejected.push({ recordKind, locator, reason: normalized.reason });
    else byIdentity.set(identityOf(normalized), normalized);
  });
  return { byIdentity, rejected };
}

function isRejection(value: object): value is Rejection {
  return "reason" in value;
}

/**
 * The summary of a written batch: records neither inserted nor updated count as unchanged,
 * and every rejected record written (including any the writer added) as rejected.
 */
export function writeSummary<N>(
  records: PartitionedRecords<N>,
  written: { inserted: number; updated: number; types: Iterable<string>; days: Iterable<string> },
): WriteSummary {
  return {
    inserted: written.inserted,
    updated: written.updated,
    unchanged: records.byIdentity.size - written.inserted - written.updated,
    rejected: records.rejected.length,
    types: [...written.types].sort(),
    days: [...written.days].sort(),
  };
}

/** Where a batch of records came from: one user, one provider, usually one raw object. */
export interface RecordBatch {
  userId: string;
  provider: string;
  rawObjectId?: string | null;
}

export interface WriteSummary {
  inserted: number;
  updated: number;
  unchanged: number;
  rejected: number;
  /** Types with inserted or updated records. */
  types: string[];
  /** UTC days (YYYY-MM-DD) touched by inserted or updated records. */
  days: string[];
}
