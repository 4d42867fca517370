// Payloads of summaries that are maps of timed readings (seconds from the summary's start to a
// value): `garmin-stress-details`, `garmin-pulse-ox`, `garmin-respiration` and `garmin-hrv`.
// Each reading is an instant sample; a reading synced again has the same time and updates.

import { emptyParsedRecords, type ParsedRecords } from "@svc/core";
import { GARMIN_WORN, instantOf, isObject, offsetOf, offsetReadings, summariesOf, textOf } from "./fields.ts";

interface ReadingMap {
  /** The summary's map of readings. */
  field: string;
  type: string;
  unit: string;
  /** Values outside are codes or errors, not readings. */
  accept: (value: number) => boolean;
}

function parseReadings(format: string, listName: string, maps: readonly ReadingMap[], extraMetadata: (raw: Record<string, unknown>) => Record<string, unknown> = () => ({})) {
  return (payload: unknown): ParsedRecords => {
    const out = emptyParsedRecords();
    summariesOf(payload, format).forEach((raw, index) => {
      const locator = `${listName}[${index}]`;
      const start = isObject(raw) ? instantOf(raw.startTimeInSeconds) : undefined;
      if (!isObject(raw) || !start) {
        out.rejected.push({ recordKind: "quantity_sample", locator, reason: "summary without a startTimeInSeconds" });
        return;
      }
      const summaryId = textOf(raw.summaryId, 100);
      const metadata = { ...(summaryId ? { summary_id: summaryId } : {}), ...extraMetadata(raw) };
      const base = { ...GARMIN_WORN, timezone: offsetOf(raw.startTimeOffsetInSeconds), metadata, locator };
      for (const map of maps) {
        const { readings, unreadable } = offsetReadings(raw[map.field], start);
        for (const { at, value } of readings) {
          if (map.accept(value)) out.quantitySamples.push({ ...base, type: map.type, value, unit: map.unit, start_date: at });
        }
        if (unreadable > 0) {
          out.rejected.push({ recordKind: "quantity_sample", locator: `${locator}.${map.field}`, reason: `${unreadable} entries without a whole-second offset and a number` });
        }
      }
    });
    return out;
  };
}

const score = (value: number) => value >= 0 && value <= 100;

/**
 * `stress_level` (1-100; Garmin's negative values are states, not levels: -1 off wrist, -2
 * large motion, -3 not enough data, -4 recovering from exercise, -5 unidentified, left out)
 * and `body_battery` (0-100) from stress details.
 */
export const parseGarminStressDetails = parseReadings("garmin-stress-details", "stressDetails", [
  { field: "timeOffsetStressLevelValues", type: "stress_level", unit: "score", accept: score },
  { field: "timeOffsetBodyBatteryValues", type: "body_battery", unit: "score", accept: score },
]);

/** `oxygen_saturation` (%) from pulse ox summaries; `on_demand` (a spot check) in metadata. */
export const parseGarminPulseOx = parseReadings(
  "garmin-pulse-ox",
  "pulseox",
  [{ field: "timeOffsetSpo2Values", type: "oxygen_saturation", unit: "%", accept: (v) => v > 0 && v <= 100 }],
  (raw) => (typeof raw.onDemand === "boolean" ? { on_demand: raw.onDemand } : {}),
);

/** `respiratory_rate` (breaths/min) from all-day respiration summaries. */
export const parseGarminRespiration = parseReadings("garmin-respiration", "respiration", [
  { field: "timeOffsetEpochToBreaths", type: "respiratory_rate", unit: "count/min", accept: (v) => v > 0 },
]);

/**
 * `hrv_rmssd` (ms) from the overnight HRV summary's 5-minute values (Garmin's HRV is RMSSD).
 * `lastNightAvg` and `lastNight5MinHigh` are kept in the samples' metadata.
 */
export const parseGarminHrv = parseReadings("garmin-hrv", "hrv", [{ field: "hrvValues", type: "hrv_rmssd", unit: "ms", accept: (v) => v > 0 }], (raw) => {
  const metadata: Record<string, unknown> = {};
  if (typeof raw.lastNightAvg === "number") metadata.last_night_average = raw.lastNightAvg;
  if (typeof raw.lastNight5MinHigh === "number") metadata.last_night_5_min_high = raw.lastNight5MinHigh;
  return metadata;
});
