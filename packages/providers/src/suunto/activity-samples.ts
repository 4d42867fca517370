// Suunto's 24/7 activity rows (GET /247samples/activity) as readings: `HR` (bpm) as
// `heart_rate`, `HRV` (RMSSD, ms) as `hrv_rmssd` and `SpO2` (0 to 1) as `oxygen_saturation`
// in percent, each at the row's `timestamp`. The rows' `StepCount` and `EnergyConsumption`
// are left out: the daily statistics give the day's totals. Fields and units are those
// open-source integrations read (docs/providers.md, "Suunto").

import type { QuantitySampleRecord } from "@svc/core";
import { emptyParsedRecords, type ParsedRecords } from "../parsed-records.ts";
import type { JsonObject, ZonedTime } from "./json.ts";
import { forEachSampleRow } from "./sample-rows.ts";

export const SUUNTO_ACTIVITY_SAMPLES_FORMAT = "suunto-activity-samples";

interface Reading {
  field: string;
  type: string;
  unit: string;
  prefix: string;
  /** The value to store, or null when the field's figure is not one this reading can be. */
  read: (value: number) => number | null;
}

const READINGS: readonly Reading[] = [
  // Below 20 is not a heart rate in bpm (some Suunto exports give beats per second).
  { field: "HR", type: "heart_rate", unit: "count/min", prefix: "hr", read: (v) => (v >= 20 && v <= 250 ? v : null) },
  { field: "HRV", type: "hrv_rmssd", unit: "ms", prefix: "hrv", read: (v) => (v > 0 && v <= 500 ? v : null) },
  { field: "SpO2", type: "oxygen_saturation", unit: "%", prefix: "spo2", read: (v) => (v > 0 && v <= 1 ? Math.round(v * 1000) / 10 : null) },
];

export function parseSuuntoActivitySamples(payload: unknown): ParsedRecords {
  // Ids are the rows' times: a reading never moves.
  const out = { ...emptyParsedRecords(), fixedTimeIds: true };
  forEachSampleRow(payload, "activity", out, (entry, at, locator) => {
    for (const reading of READINGS) addReading(reading, entry, at, locator, out);
  });
  return out;
}

function addReading(reading: Reading, entry: JsonObject, at: ZonedTime, locator: string, out: ParsedRecords): void {
  const raw = entry[reading.field];
  if (raw === undefined || raw === null) return;
  const value = typeof raw === "number" && Number.isFinite(raw) ? reading.read(raw) : null;
  if (value === null) {
    // A zero is a figure not measured (integrations skip a zero HRV), not a bad row.
    if (raw !== 0) out.rejected.push({ recordKind: "quantity_sample", locator, reason: `suunto activity: ${reading.field} is not a figure it can be` });
    return;
  }
  out.quantitySamples.push({
    type: reading.type,
    value,
    unit: reading.unit,
    start_date: at.instant,
    source: "suunto",
    source_name: "Suunto",
    on_body: true,
    timezone: at.offset,
    external_id: `${reading.prefix}:${at.instant.getTime()}`,
    locator,
  } satisfies QuantitySampleRecord);
}
