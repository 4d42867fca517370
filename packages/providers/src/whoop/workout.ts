import { emptyParsedRecords, type ParsedRecords } from "@svc/core";
import { instantOf, isObject, kilocaloriesOf, numberOf, offsetOf, recordsOf, reject, scoreOf, textOf, WHOOP_PROVENANCE } from "./documents.ts";

/**
 * workout: one workout per activity. The energy WHOOP gives (kJ) is all the energy expended
 * during the workout, so it is the total energy (kcal); strain, heart rate zones and the
 * share of heart rate recorded stay in the metadata.
 */
export function parseWhoopWorkout(payload: unknown): ParsedRecords {
  const out = emptyParsedRecords();
  for (const { record, locator } of recordsOf(payload, "whoop-workout")) {
    if (!record) {
      reject(out, "workout", locator, "the record is not an object");
      continue;
    }
    const id = textOf(record.id);
    const start = instantOf(record.start);
    const end = instantOf(record.end);
    if (!id) reject(out, "workout", locator, "id is missing");
    else if (!start || !end) reject(out, "workout", locator, "start or end is not a date-time");
    else if (end < start) reject(out, "workout", locator, "end is before start");
    else {
      const score = scoreOf(record);
      out.workouts.push({
        activity_type: activityTypeOf(record.sport_name),
        start_date: start,
        end_date: end,
        timezone: offsetOf(record.timezone_offset),
        distance_meters: score ? numberOf(score.distance_meter) : null,
        total_energy_kcal: score ? kilocaloriesOf(numberOf(score.kilojoule)) : null,
        average_heart_rate: score ? numberOf(score.average_heart_rate) : null,
        max_heart_rate: score ? numberOf(score.max_heart_rate) : null,
        elevation_gain_meters: score ? numberOf(score.altitude_gain_meter) : null,
        ...WHOOP_PROVENANCE,
        external_id: id,
        metadata: {
          sport_name: textOf(record.sport_name),
          score_state: textOf(record.score_state),
          strain: score ? numberOf(score.strain) : null,
          percent_recorded: score ? numberOf(score.percent_recorded) : null,
          altitude_change_meters: score ? numberOf(score.altitude_change_meter) : null,
          zone_durations_milli: score && isObject(score.zone_durations) ? score.zone_durations : null,
        },
        locator,
      });
    }
  }
  return out;
}

/** `running` -> `running`, `functional-fitness` -> `functional_fitness`; WHOOP's generic `activity` is `other`. */
export function activityTypeOf(sportName: unknown): string {
  if (typeof sportName !== "string") return "other";
  const snake = sportName
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .slice(0, 64);
  if (snake === "activity") return "other";
  return /^[a-z][a-z0-9_]*$/.test(snake) ? snake : "other";
}
