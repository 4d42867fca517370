import { emptyParsedRecords, type ParsedRecords } from "@svc/core";
import { idOf, instantOf, numberOf, offsetOf, recordsOf, reject, scoreOf, WHOOP_PROVENANCE } from "./documents.ts";

/**
 * cycle: WHOOP's physiological day (from one sleep's start to the next). A scored cycle
 * gives its day strain (0-21) and the energy expended (kJ, converted to kcal when stored),
 * both over the cycle. The cycle the user is in has no end yet: it runs to its last update,
 * and a later pull moves its end (same id).
 */
export function parseCycle(payload: unknown): ParsedRecords {
  const out = emptyParsedRecords();
  for (const { record, locator } of recordsOf(payload, "whoop-cycle")) {
    if (!record) {
      reject(out, "quantity_sample", locator, "the record is not an object");
      continue;
    }
    const id = idOf(record.id);
    const start = instantOf(record.start);
    const end = instantOf(record.end) ?? instantOf(record.updated_at);
    if (!id) reject(out, "quantity_sample", locator, "id is missing");
    else if (!start || !end) reject(out, "quantity_sample", locator, "start (or end, or updated_at for a cycle in progress) is not a date-time");
    else if (end < start) reject(out, "quantity_sample", locator, "the cycle ends before it starts");
    else {
      const score = scoreOf(record);
      if (!score) continue;
      const common = {
        start_date: start,
        end_date: end,
        ...WHOOP_PROVENANCE,
        external_id: id,
        timezone: offsetOf(record.timezone_offset),
        metadata: { in_progress: instantOf(record.end) === null, average_heart_rate: numberOf(score.average_heart_rate), max_heart_rate: numberOf(score.max_heart_rate) },
        locator,
      };
      const strain = numberOf(score.strain);
      if (strain !== null) out.quantitySamples.push({ type: "strain", value: strain, unit: "score", ...common });
      const kilojoules = numberOf(score.kilojoule);
      if (kilojoules !== null) out.quantitySamples.push({ type: "total_energy_burned", value: kilojoules, unit: "kJ", ...common });
    }
  }
  return out;
}
