// Daily data types (one figure per date in the user's zone): resting heart rate, HRV,
// SpO2, respiratory rate and the sleep temperature derivations.
import type { QuantitySampleRecord } from "@svc/core";
import type { Provenance } from "./data-source.ts";
import { numberOf, type JsonObject } from "./json.ts";
import { localDay } from "../local-time.ts";
import type { PayloadZone } from "./payload.ts";
import { calendarDateOf } from "./times.ts";

interface Figure {
  type: string;
  value: number | null;
  unit: string;
  metadata?: Record<string, unknown>;
}

/**
 * The figures of one daily data point, each a sample over its local day (midnight to
 * midnight in the user's zone), with the type and date as external id so a later pull
 * of the day updates it. A reason when the date or every figure is unreadable.
 */
function dailySamples(body: JsonObject, provenance: Provenance, zone: PayloadZone, figures: Figure[]): QuantitySampleRecord[] | string {
  const date = calendarDateOf(body.date);
  if (!date) return "date is not a calendar date";
  const day = localDay(date, zone.zone);
  const samples: QuantitySampleRecord[] = [];
  for (const figure of figures) {
    if (figure.value === null) continue;
    samples.push({
      ...provenance,
      type: figure.type,
      value: figure.value,
      unit: figure.unit,
      start_date: day.start,
      end_date: day.end,
      timezone: zone.timezone,
      external_id: `${figure.type}:${date}`,
      metadata: { ...provenance.metadata, date, ...figure.metadata },
    });
  }
  return samples.length > 0 ? samples : "the value is missing or not a number";
}

export function restingHeartRate(body: JsonObject, provenance: Provenance, zone: PayloadZone) {
  const method = body.dailyRestingHeartRateMetadata as JsonObject | undefined;
  return dailySamples(body, provenance, zone, [
    { type: "resting_heart_rate", value: numberOf(body.beatsPerMinute), unit: "count/min", metadata: { calculation_method: method?.calculationMethod } },
  ]);
}

export function heartRateVariability(body: JsonObject, provenance: Provenance, zone: PayloadZone) {
  return dailySamples(body, provenance, zone, [
    {
      type: "hrv_rmssd",
      value: numberOf(body.averageHeartRateVariabilityMilliseconds),
      unit: "ms",
      metadata: { deep_sleep_rmssd: numberOf(body.deepSleepRootMeanSquareOfSuccessiveDifferencesMilliseconds), entropy: numberOf(body.entropy) },
    },
  ]);
}

export function oxygenSaturation(body: JsonObject, provenance: Provenance, zone: PayloadZone) {
  return dailySamples(body, provenance, zone, [
    {
      type: "oxygen_saturation",
      value: numberOf(body.averagePercentage),
      unit: "%",
      metadata: { statistic: "nightly_average", lower_bound: numberOf(body.lowerBoundPercentage), upper_bound: numberOf(body.upperBoundPercentage) },
    },
  ]);
}

export function respiratoryRate(body: JsonObject, provenance: Provenance, zone: PayloadZone) {
  return dailySamples(body, provenance, zone, [{ type: "respiratory_rate", value: numberOf(body.breathsPerMinute), unit: "count/min" }]);
}

/** The nightly skin temperature, and its difference from the 30-day baseline when the baseline is given. */
export function sleepTemperature(body: JsonObject, provenance: Provenance, zone: PayloadZone) {
  const nightly = numberOf(body.nightlyTemperatureCelsius);
  const baseline = numberOf(body.baselineTemperatureCelsius);
  return dailySamples(body, provenance, zone, [
    { type: "sleeping_wrist_temperature", value: nightly, unit: "degC", metadata: { baseline_celsius: baseline } },
    { type: "skin_temperature_deviation", value: nightly !== null && baseline !== null ? Math.round((nightly - baseline) * 1000) / 1000 : null, unit: "degC" },
  ]);
}
