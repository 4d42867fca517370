import type { ParsedRecords } from "@svc/core";
import { MalformedUpload } from "../parsed-records.ts";
import { instantOf, isObject, numberOf } from "../json-fields.ts";

export { instantOf, isObject, numberOf };

/** Provenance of every Oura record: worn on a finger, measured by the ring. */
export const OURA_PROVENANCE = { source: "oura", device: "Oura Ring", on_body: true, source_name: "Oura" } as const;

export type OuraDocument = Readonly<Record<string, unknown>>;

/**
 * The documents of one stored Oura answer (`{data: [...], next_token}`, the shape of every
 * usercollection list). Anything else is not a payload of this format.
 */
export function documentsOf(payload: unknown, format: string): Array<{ document: OuraDocument | null; locator: string }> {
  const data = isObject(payload) ? payload.data : undefined;
  if (!Array.isArray(data)) throw new MalformedUpload("payload", `a ${format} payload is an Oura list answer with a data array`);
  return data.map((item, index) => ({ document: isObject(item) ? item : null, locator: `data[${index}]` }));
}

export function textOf(value: unknown): string | null {
  return typeof value === "string" && value !== "" ? value : null;
}

const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The `±hh:mm` offset a LocalizedDateTime was written in (`Z` is `+00:00`), or null. */
export function offsetOf(value: unknown): string | null {
  if (typeof value !== "string" || !INSTANT.test(value)) return null;
  return value.endsWith("Z") ? "+00:00" : value.slice(-6);
}

/** An Oura `day` (ISODate), or null. */
export function dayOf(value: unknown): string | null {
  if (typeof value !== "string" || !DAY.test(value)) return null;
  return Number.isNaN(Date.parse(`${value}T00:00:00Z`)) ? null : value;
}

/** Midnight of a local day at an offset: the instant of Oura's daily figures. */
export function localMidnight(day: string, offset: string): Date {
  return new Date(`${day}T00:00:00${offset}`);
}

export function reject(out: ParsedRecords, recordKind: string, locator: string, reason: string): void {
  out.rejected.push({ recordKind, locator, reason });
}
