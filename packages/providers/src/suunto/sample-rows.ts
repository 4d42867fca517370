// The rows of a Suunto 24/7 answer (GET /247samples/{recovery,activity}): `{timestamp, entryData}`.

import { MalformedUpload, type ParsedRecords } from "../parsed-records.ts";
import { isObject, type JsonObject, zonedTimeOf, type ZonedTime } from "./json.ts";

/** Calls `visit` with each row's entryData, time and locator; a row without either is rejected. */
export function forEachSampleRow(
  payload: unknown,
  kind: "activity" | "recovery",
  out: ParsedRecords,
  visit: (entry: JsonObject, at: ZonedTime, locator: string) => void,
): void {
  if (!Array.isArray(payload)) throw new MalformedUpload(kind, `a Suunto ${kind} payload is the list of ${kind} rows`);
  payload.forEach((row, index) => {
    const locator = `[${index}]`;
    const at = isObject(row) ? zonedTimeOf(row.timestamp) : null;
    if (!at || !isObject(row) || !isObject(row.entryData)) {
      out.rejected.push({ recordKind: "quantity_sample", locator, reason: `suunto ${kind}: the row's timestamp or entryData is missing or invalid` });
      return;
    }
    visit(row.entryData, at, locator);
  });
}
