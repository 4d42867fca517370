import type { ParsedRecords } from "@svc/core";
import { MalformedUpload } from "../parsed-records.ts";
import { instantOf, isObject, numberOf } from "../json-fields.ts";

export { instantOf, isObject, numberOf };

/** Provenance of every WHOOP record: the strap on the wrist. */
export const WHOOP_PROVENANCE = { source: "whoop", device: "WHOOP", on_body: true, source_name: "WHOOP" } as const;

export type WhoopRecord = Readonly<Record<string, unknown>>;

/** The records of one stored WHOOP collection page (`{records: [...], next_token}`). */
export function recordsOf(payload: unknown, format: string): Array<{ record: WhoopRecord | null; locator: string }> {
  const records = isObject(payload) ? payload.records : undefined;
  if (!Array.isArray(records)) throw new MalformedUpload("payload", `a ${format} payload is a WHOOP collection page with a records array`);
  return records.map((item, index) => ({ record: isObject(item) ? item : null, locator: `records[${index}]` }));
}

export function textOf(value: unknown): string | null {
  return typeof value === "string" && value !== "" ? value : null;
}

/** WHOOP ids: UUIDs (sleep, workout) or int64 (cycle, user). */
export function idOf(value: unknown): string | null {
  if (typeof value === "number" && Number.isSafeInteger(value)) return String(value);
  return textOf(value);
}

/** WHOOP's timezone_offset (Time Zone Designator `+hh:mm`, `-hh:mm` or `Z`) as `±hh:mm`, or null. */
export function offsetOf(value: unknown): string | null {
  if (value === "Z") return "+00:00";
  return typeof value === "string" && /^[+-]\d{2}:\d{2}$/.test(value) ? value : null;
}

/** Scores are present only when WHOOP has scored the record. */
export function scoreOf(record: WhoopRecord): Record<string, unknown> | null {
  return record.score_state === "SCORED" && isObject(record.score) ? record.score : null;
}

/** WHOOP's energy is in kilojoules; workouts keep kilocalories (1 kcal = 4.184 kJ). */
export function kilocaloriesOf(kilojoules: number | null): number | null {
  return kilojoules === null ? null : kilojoules / 4.184;
}

/** Milliseconds to seconds. */
export function secondsOf(milliseconds: unknown): number | null {
  const value = numberOf(milliseconds);
  return value === null ? null : value / 1000;
}

export function reject(out: ParsedRecords, recordKind: string, locator: string, reason: string): void {
  out.rejected.push({ recordKind, locator, reason });
}
