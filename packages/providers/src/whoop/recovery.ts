import { emptyParsedRecords, type ParsedRecords, type QuantitySampleRecord } from "@svc/core";
import { idOf, instantOf, numberOf, recordsOf, reject, scoreOf, textOf, WHOOP_PROVENANCE } from "./documents.ts";

/** The external id of a recovery's records: its sleep's id (what recovery webhooks name), kept apart from the sleep's own records. */
export const recoveryExternalId = (sleepId: string): string => `recovery-${sleepId}`;

/**
 * recovery: the morning's recovery score (0-100 %), resting heart rate, HRV (RMSSD, ms) and,
 * from WHOOP 4.0 on, SpO2 (%) and skin temperature (degrees Celsius, measured at the wrist
 * during sleep). A recovery has no time of its own: its figures are at the moment WHOOP
 * recorded it (created_at, after waking), in UTC.
 */
export function parseRecovery(payload: unknown): ParsedRecords {
  const out = emptyParsedRecords();
  for (const { record, locator } of recordsOf(payload, "whoop-recovery")) {
    if (!record) {
      reject(out, "quantity_sample", locator, "the record is not an object");
      continue;
    }
    const sleepId = textOf(record.sleep_id);
    const at = instantOf(record.created_at);
    if (!sleepId) reject(out, "quantity_sample", locator, "sleep_id is missing");
    else if (!at) reject(out, "quantity_sample", locator, "created_at is not a date-time");
    else {
      const score = scoreOf(record);
      if (!score) continue;
      const figures: Array<[string, unknown, string]> = [
        ["recovery_score", score.recovery_score, "score"],
        ["resting_heart_rate", score.resting_heart_rate, "count/min"],
        ["hrv_rmssd", score.hrv_rmssd_milli, "ms"],
        ["oxygen_saturation", score.spo2_percentage, "%"],
        ["sleeping_wrist_temperature", score.skin_temp_celsius, "degC"],
      ];
      for (const [type, raw, unit] of figures) {
        const value = numberOf(raw);
        if (value === null) continue;
        const sample: QuantitySampleRecord = {
          type,
          value,
          unit,
          start_date: at,
          end_date: at,
          ...WHOOP_PROVENANCE,
          external_id: recoveryExternalId(sleepId),
          metadata: { cycle_id: idOf(record.cycle_id), user_calibrating: score.user_calibrating === true },
          locator,
        };
        out.quantitySamples.push(sample);
      }
    }
  }
  return out;
}
