// POST /v1/ingest/health-connect: Health Connect records as NDJSON, one record per line.
// The line format is described in docs/reference/upload-formats.md ("Health Connect NDJSON").
import { emptyParsedRecords, type ParsedRecords } from "../parsed-records.ts";
import { isObject, mapRecord, recordTypeName, type JsonObject } from "./records.ts";

/** A batch of parsed lines, plus the ids of records Health Connect reported deleted. */
export interface HealthConnectBatch extends ParsedRecords {
  /** `metadata.id`s of `{"recordType": "Deleted", "recordId": ...}` lines, in order. */
  deletedExternalIds: string[];
}

/** Records (of every kind, rejected ones and deletions included) per yielded batch, about. */
export const HEALTH_CONNECT_BATCH_SIZE = 5000;

export const DELETED_RECORD_TYPE = "Deleted";
const MAX_ID_LENGTH = 256;

type Line = { kind: "blank" } | { kind: "error"; reason: string } | { kind: "record"; value: JsonObject; recordType: string };

function readLine(line: string): Line {
  const trimmed = line.replace(/^\uFEFF/, "").trim();
  if (trimmed === "") return { kind: "blank" };
  let value: unknown;
  try {
    value = JSON.parse(trimmed);
  } catch {
    return { kind: "error", reason: "not valid JSON" };
  }
  if (!isObject(value)) return { kind: "error", reason: "not a JSON object" };
  const recordType = value.recordType;
  if (typeof recordType !== "string" || recordType.trim() === "") return { kind: "error", reason: "recordType is missing or not a string" };
  if (recordType === DELETED_RECORD_TYPE) {
    const id = value.recordId;
    if (typeof id !== "string" || id.trim() === "" || id.length > MAX_ID_LENGTH) {
      return { kind: "error", reason: `a Deleted line needs recordId as a string of 1 to ${MAX_ID_LENGTH} characters` };
    }
  }
  return { kind: "record", value, recordType };
}

/**
 * The structural check of one line for the route's 400: `line N: why` when the line is not
 * a JSON object with a string `recordType` (or a Deleted line without `recordId`), else null.
 * Blank lines pass. Record types svc does not read and unreadable fields are not structural:
 * they become rejected records.
 */
export function checkHealthConnectLine(line: string, lineNumber: number): string | null {
  const read = readLine(typeof line === "string" ? line : "");
  return read.kind === "error" ? `line ${lineNumber}: ${read.reason}` : null;
}

function emptyBatch(): HealthConnectBatch {
  return { ...emptyParsedRecords(), deletedExternalIds: [] };
}

function sizeOf(batch: HealthConnectBatch): number {
  return (
    batch.quantitySamples.length +
    batch.categorySamples.length +
    batch.sleepSessions.length +
    batch.workouts.length +
    batch.nutritionLogs.length +
    batch.dailySummaries.length +
    batch.heartbeatSeries.length +
    batch.ecgRecordings.length +
    batch.rejected.length +
    batch.deletedExternalIds.length
  );
}

const quotable = (name: string) => /^[A-Za-z0-9_]{1,64}$/.test(name);

/** Record types svc does not read, counted per upload: rejected once per type, not per line. */
export type UnknownRecordTypes = Map<string, { count: number; firstLine: number }>;

/** Adds one line's records (or its rejection) to a batch. */
export function parseHealthConnectLine(line: string, lineNumber: number, batch: HealthConnectBatch, unknown?: UnknownRecordTypes): void {
  const locator = `line ${lineNumber}`;
  const read = readLine(line);
  if (read.kind === "blank") return;
  if (read.kind === "error") {
    batch.rejected.push({ recordKind: "health_connect_line", locator, reason: read.reason });
    return;
  }
  if (read.recordType === DELETED_RECORD_TYPE) {
    batch.deletedExternalIds.push((read.value.recordId as string).trim());
    return;
  }
  const name = recordTypeName(read.recordType);
  if (name === undefined) {
    // Named when the name is plain text, and for at most 100 names a part (the rest are counted together).
    const key = quotable(read.recordType) && (unknown === undefined || unknown.size < 100 || unknown.has(read.recordType)) ? read.recordType : "";
    if (unknown) {
      const seen = unknown.get(key);
      if (seen) seen.count++;
      else unknown.set(key, { count: 1, firstLine: lineNumber });
    } else {
      batch.rejected.push(unknownTypeRejection(key, 1, lineNumber));
    }
    return;
  }
  mapRecord(name, read.value, locator, batch);
}

function unknownTypeRejection(key: string, count: number, firstLine: number) {
  const what = key === "" ? "record types" : `recordType ${key}`;
  return {
    recordKind: "health_connect_record",
    locator: `line ${firstLine}`,
    reason: `${count} record(s) of ${what} svc does not read; the first at line ${firstLine}`,
  };
}

/**
 * Parses Health Connect NDJSON lines (strings numbered from 1 as they come, or bodyLines'
 * `{line, number}` with their own numbers) into batches of about
 * HEALTH_CONNECT_BATCH_SIZE records. Lines that cannot be read become rejected records
 * (`line N`); record types svc does not read are rejected once per type, in the last batch,
 * naming the first line. Nothing a line holds makes it throw.
 */
export async function* parseHealthConnectNdjson(
  lines: AsyncIterable<string | { line: string; number: number }>,
): AsyncGenerator<HealthConnectBatch> {
  let batch = emptyBatch();
  let lineNumber = 0;
  const unknown: UnknownRecordTypes = new Map();
  for await (const item of lines) {
    // Plain strings are numbered as they come; bodyLines' `{line, number}` keep their numbers.
    const numbered = typeof item === "object" && item !== null;
    lineNumber = numbered && Number.isInteger(item.number) && item.number > lineNumber ? item.number : lineNumber + 1;
    const line = numbered ? item.line : item;
    parseHealthConnectLine(typeof line === "string" ? line : "", lineNumber, batch, unknown);
    if (sizeOf(batch) >= HEALTH_CONNECT_BATCH_SIZE) {
      yield batch;
      batch = emptyBatch();
    }
  }
  for (const [key, { count, firstLine }] of unknown) batch.rejected.push(unknownTypeRejection(key, count, firstLine));
  if (sizeOf(batch) > 0) yield batch;
}
