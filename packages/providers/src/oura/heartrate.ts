import { emptyParsedRecords, type ParsedRecords } from "@svc/core";
import { documentsOf, instantOf, numberOf, OURA_PROVENANCE, reject, textOf } from "./documents.ts";

/**
 * heartrate: one heart rate reading per row (beats per minute at a UTC instant, about every
 * 5 minutes). Rows have no id: a reading is the same when its time is. Oura's `source`
 * (awake, rest, sleep, workout, live, session) is kept as the reading's context.
 */
export function parseHeartrate(payload: unknown): ParsedRecords {
  const out = emptyParsedRecords();
  for (const { document, locator } of documentsOf(payload, "oura-heartrate")) {
    const at = document ? instantOf(document.timestamp) : null;
    const bpm = document ? numberOf(document.bpm) : null;
    if (!document || !at || bpm === null) {
      reject(out, "quantity_sample", locator, "a heart rate row needs a timestamp with an offset and a numeric bpm");
      continue;
    }
    out.quantitySamples.push({
      type: "heart_rate",
      value: bpm,
      unit: "count/min",
      start_date: at,
      end_date: at,
      ...OURA_PROVENANCE,
      metadata: { context: textOf(document.source) },
      locator,
    });
  }
  return out;
}
