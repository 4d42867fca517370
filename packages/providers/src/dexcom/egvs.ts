// GET /v3/users/self/egvs answers to blood glucose samples.
import { emptyParsedRecords, type ParsedRecords } from "@svc/core";
import { provenanceOf } from "./device.ts";
import { isObject, numberOf, textOf } from "./json.ts";
import { recordTime } from "./times.ts";

/** Dexcom's EGV units, spelled as the catalog's unit conversion reads them. */
const GLUCOSE_UNITS: Readonly<Record<string, string>> = { "mg/dL": "mg/dL", "mmol/L": "mmol/L" };

/**
 * Each estimated glucose value becomes a `blood_glucose` sample at its systemTime, in the
 * unit Dexcom sent (the writer converts mmol/L to the catalog's mg/dL). Trend, trend rate
 * and status have no catalog type: they stay in the sample's metadata.
 */
export function parseEgvs(payload: unknown): ParsedRecords {
  if (!isObject(payload) || !Array.isArray(payload.records)) throw new Error("dexcom-egvs: the answer has no records array");
  const out = emptyParsedRecords();
  payload.records.forEach((record: unknown, index) => {
    const locator = `records[${index}]`;
    const reject = (reason: string) => out.rejected.push({ recordKind: "egv", locator, reason });
    if (!isObject(record)) return reject("egv: not an object");
    const time = recordTime(record.systemTime, record.displayTime);
    if (!time) return reject("egv: systemTime is missing or not a time");
    const value = numberOf(record.value);
    // A reading outside the sensor's range comes with status high or low and no value.
    if (value === null) return reject("egv: value is missing (out of the sensor's range or not computed)");
    const unit = typeof record.unit === "string" && Object.hasOwn(GLUCOSE_UNITS, record.unit) ? GLUCOSE_UNITS[record.unit] : undefined;
    if (!unit) return reject("egv: unit is not mg/dL or mmol/L");
    const metadata: Record<string, unknown> = { record_type: "egv" };
    const status = textOf(record.status, 20);
    const trend = textOf(record.trend, 30);
    const trendRate = numberOf(record.trendRate);
    const rateUnit = textOf(record.rateUnit, 20);
    const displayDevice = textOf(record.displayDevice, 20);
    const displayTime = textOf(record.displayTime, 40);
    if (status) metadata.status = status;
    if (trend) metadata.trend = trend;
    if (trendRate !== null) metadata.trend_rate = trendRate;
    if (rateUnit) metadata.rate_unit = rateUnit;
    if (displayDevice) metadata.display_device = displayDevice;
    if (displayTime) metadata.display_time = displayTime;
    out.quantitySamples.push({
      ...provenanceOf(record),
      type: "blood_glucose",
      value,
      unit,
      start_date: time.instant,
      timezone: time.timezone,
      external_id: textOf(record.recordId, 100),
      metadata,
      locator,
    });
  });
  return out;
}
