// Sample data types (one reading at an instant with its UTC offset): heart rate, weight, body fat.
import type { QuantitySampleRecord } from "@svc/core";
import type { Provenance } from "./data-source.ts";
import { isObject, numberOf, textOf, type JsonObject } from "./json.ts";
import { instantOf, offsetOf } from "./times.ts";

/** A reading at `sampleTime` ({physicalTime, utcOffset}); a reason when the time is unreadable. */
function reading(
  body: JsonObject,
  provenance: Provenance,
  figure: { type: string; value: number | null; unit: string; metadata?: Record<string, unknown> },
  externalId: string | null,
): QuantitySampleRecord | string {
  const sampleTime = isObject(body.sampleTime) ? body.sampleTime : {};
  const at = instantOf(sampleTime.physicalTime);
  if (!at) return "sampleTime.physicalTime is not an RFC 3339 time";
  if (figure.value === null) return "the value is missing or not a number";
  return {
    ...provenance,
    type: figure.type,
    value: figure.value,
    unit: figure.unit,
    start_date: at,
    timezone: offsetOf(sampleTime.utcOffset),
    external_id: externalId,
    metadata: { ...provenance.metadata, ...figure.metadata },
  };
}

/** `heartRate.beatsPerMinute` (an int64 string), with the motion context and sensor location when given. */
export function heartRateSample(body: JsonObject, provenance: Provenance, externalId: string | null): QuantitySampleRecord | string {
  const meta = isObject(body.metadata) ? body.metadata : {};
  const metadata: Record<string, unknown> = {};
  const motion = textOf(meta.motionContext, 40);
  const location = textOf(meta.sensorLocation, 40);
  if (motion) metadata.motion_context = motion;
  if (location) metadata.sensor_location = location;
  return reading(body, provenance, { type: "heart_rate", value: numberOf(body.beatsPerMinute), unit: "count/min", metadata }, externalId);
}

/** `weight.weightGrams` in kg (grams / 1000). */
export function weightSample(body: JsonObject, provenance: Provenance, externalId: string | null): QuantitySampleRecord | string {
  const grams = numberOf(body.weightGrams);
  return reading(body, provenance, { type: "body_mass", value: grams === null ? null : grams / 1000, unit: "kg" }, externalId);
}

/** `bodyFat.percentage`, 0 to 100. */
export function bodyFatSample(body: JsonObject, provenance: Provenance, externalId: string | null): QuantitySampleRecord | string {
  return reading(body, provenance, { type: "body_fat_percentage", value: numberOf(body.percentage), unit: "%" }, externalId);
}
