import { emptyParsedRecords, type ParsedRecords } from "@svc/core";
import { dayOf, documentsOf, instantOf, numberOf, offsetOf, OURA_PROVENANCE, reject, textOf } from "./documents.ts";

/**
 * workout: one workout per document. `calories` is the energy of the activity (kcal) and
 * counts as active energy; `distance` is in meters. The activity name becomes a snake_case
 * activity type (`strengthTraining` -> `strength_training`).
 */
export function parseWorkout(payload: unknown): ParsedRecords {
  const out = emptyParsedRecords();
  for (const { document, locator } of documentsOf(payload, "oura-workout")) {
    if (!document) {
      reject(out, "workout", locator, "the document is not an object");
      continue;
    }
    const id = textOf(document.id);
    const start = instantOf(document.start_datetime);
    const end = instantOf(document.end_datetime);
    if (!id) reject(out, "workout", locator, "id is missing");
    else if (!start || !end) reject(out, "workout", locator, "start_datetime or end_datetime is not a date-time with an offset");
    else if (end < start) reject(out, "workout", locator, "end_datetime is before start_datetime");
    else {
      out.workouts.push({
        activity_type: activityTypeOf(document.activity),
        name: textOf(document.label),
        start_date: start,
        end_date: end,
        timezone: offsetOf(document.start_datetime),
        distance_meters: numberOf(document.distance),
        active_energy_kcal: numberOf(document.calories),
        ...OURA_PROVENANCE,
        external_id: id,
        metadata: { day: dayOf(document.day), activity: textOf(document.activity), intensity: textOf(document.intensity), workout_source: textOf(document.source) },
        locator,
      });
    }
  }
  return out;
}

/** `cycling` -> `cycling`, `strengthTraining` -> `strength_training`, `Cross-country skiing` -> `cross_country_skiing`. */
export function activityTypeOf(activity: unknown): string {
  if (typeof activity !== "string") return "other";
  const snake = activity
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .slice(0, 64);
  return /^[a-z][a-z0-9_]*$/.test(snake) ? snake : "other";
}
