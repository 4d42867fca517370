// Payload `garmin-epochs`: 15-minute wellness epochs, one per activity type within an epoch.

import { emptyParsedRecords, type ParsedRecords, type QuantitySampleRecord } from "@svc/core";
import { amountOf, GARMIN_WORN, instantOf, isObject, numberOf, offsetOf, summariesOf, textOf } from "./fields.ts";

/**
 * Samples over each epoch [start, start + duration): `step_count`, `distance_walking_running`
 * (m) and `active_energy_burned` (kcal); in wheelchair mode `push_count` and
 * `distance_wheelchair`. Garmin sends one epoch per activity type (SEDENTARY, WALKING,
 * RUNNING...) for the same 15 minutes, so the samples of one epoch add up. A later epoch with
 * the same start and activity type replaces the earlier one (Garmin's rule), hence the
 * external id `epochs:<start>:<activity type>`. Zero amounts are left out.
 */
export function parseGarminEpochs(payload: unknown): ParsedRecords {
  const out = emptyParsedRecords();
  summariesOf(payload, "garmin-epochs").forEach((raw, index) => {
    const locator = `epochs[${index}]`;
    const start = isObject(raw) ? instantOf(raw.startTimeInSeconds) : undefined;
    const duration = isObject(raw) ? amountOf(raw.durationInSeconds) : null;
    if (!isObject(raw) || !start || duration === null) {
      out.rejected.push({ recordKind: "quantity_sample", locator, reason: "epoch without a startTimeInSeconds or a durationInSeconds" });
      return;
    }
    const activityType = textOf(raw.activityType, 40) ?? "UNKNOWN";
    const metadata: Record<string, unknown> = { garmin_activity_type: activityType };
    const intensity = textOf(raw.intensity, 40);
    if (intensity) metadata.intensity = intensity;
    const met = numberOf(raw.met);
    if (met !== undefined) metadata.met = met;
    const base = {
      ...GARMIN_WORN,
      start_date: start,
      end_date: new Date(start.getTime() + duration * 1000),
      timezone: offsetOf(raw.startTimeOffsetInSeconds),
      external_id: `epochs:${start.getTime() / 1000}:${activityType}`,
      metadata,
      locator,
    };
    const add = (type: string, value: number | null, unit: string) => {
      if (value !== null && value > 0) out.quantitySamples.push({ ...base, type, value, unit } satisfies QuantitySampleRecord);
    };
    add("step_count", amountOf(raw.steps), "count");
    add("distance_walking_running", amountOf(raw.distanceInMeters), "m");
    add("active_energy_burned", amountOf(raw.activeKilocalories), "kcal");
    add("push_count", amountOf(raw.pushes), "count");
    add("distance_wheelchair", amountOf(raw.pushDistanceInMeters), "m");
  });
  return out;
}
