// Payload `garmin-body-comps`: body composition summaries (an Index scale, or weight entered in Garmin Connect).

import { emptyParsedRecords, type ParsedRecords } from "@svc/core";
import { amountOf, instantOf, isObject, numberOf, offsetOf, positiveOf, summariesOf, textOf } from "./fields.ts";

/** Grams (as Garmin sends masses) to the catalog's kilograms. */
const kilograms = (grams: number | null) => (grams === null ? null : grams / 1000);

/**
 * Instant samples at the measurement: `body_mass`, `muscle_mass` and `bone_mass` (Garmin's
 * grams / 1000 = kg), `body_fat_percentage` (%) and `body_mass_index` (kg/m2). Body water
 * comes as a percentage, which the catalog (body_water_mass in kg) does not hold: it stays in
 * metadata. A scale is not worn (on_body false). External ids `bodyComps:<time>` per type.
 */
export function parseGarminBodyComps(payload: unknown): ParsedRecords {
  const out = emptyParsedRecords();
  summariesOf(payload, "garmin-body-comps").forEach((raw, index) => {
    const locator = `bodyComps[${index}]`;
    const at = isObject(raw) ? instantOf(raw.measurementTimeInSeconds) : undefined;
    if (!isObject(raw) || !at) {
      out.rejected.push({ recordKind: "quantity_sample", locator, reason: "body composition without a measurementTimeInSeconds" });
      return;
    }
    const metadata: Record<string, unknown> = {};
    const summaryId = textOf(raw.summaryId, 100);
    if (summaryId) metadata.summary_id = summaryId;
    const water = numberOf(raw.bodyWaterInPercent);
    if (water !== undefined) metadata.body_water_percentage = water;
    const base = {
      source: "garmin",
      on_body: false,
      start_date: at,
      timezone: offsetOf(raw.measurementTimeOffsetInSeconds),
      external_id: `bodyComps:${at.getTime() / 1000}`,
      metadata,
      locator,
    };
    const add = (type: string, value: number | null, unit: string) => {
      if (value !== null) out.quantitySamples.push({ ...base, type, value, unit });
    };
    add("body_mass", kilograms(positiveOf(raw.weightInGrams)), "kg");
    add("muscle_mass", kilograms(positiveOf(raw.muscleMassInGrams)), "kg");
    add("bone_mass", kilograms(positiveOf(raw.boneMassInGrams)), "kg");
    add("body_fat_percentage", amountOf(raw.bodyFatInPercent), "%");
    add("body_mass_index", positiveOf(raw.bodyMassIndex), "kg/m2");
  });
  return out;
}
