// GET /1/user/-/activities/list.json pages (the exercise log) to workouts.
import { emptyParsedRecords, type ParsedRecords, type WorkoutRecord } from "@svc/core";
import { isObject, numberOf, textOf, type JsonObject } from "./json.ts";
import { envelopeOf } from "./payload.ts";

/** Fitbit activity names, lower case, to svc's activity types; the first match wins. */
const ACTIVITY_TYPES: ReadonlyArray<readonly [RegExp, string]> = [
  [/treadmill|run/, "running"],
  [/hik/, "hiking"],
  [/walk/, "walking"],
  [/spinning|bik|cycl/, "cycling"],
  [/swim/, "swimming"],
  [/elliptical/, "elliptical"],
  [/yoga/, "yoga"],
  [/pilates/, "pilates"],
  [/weight|strength/, "strength_training"],
  [/interval|hiit/, "high_intensity_interval_training"],
  [/row/, "rowing"],
  [/tennis/, "tennis"],
  [/golf/, "golf"],
  [/dance|zumba/, "dance"],
  [/aerobic|workout|sport/, "mixed_cardio"],
];

const OFFSET_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?([+-]\d{2}:\d{2}|Z)$/;

/** Metres per distance unit Fitbit names (`Kilometer` in the metric system svc asks for). */
const METRES_PER: Readonly<Record<string, number>> = { Kilometer: 1000, Mile: 1609.344, Meter: 1 };

/**
 * Each logged exercise becomes a workout: its startTime carries the offset, the end is the
 * start plus `duration`, the moving time is `activeDuration`; calories are Fitbit's total
 * calories during the exercise.
 */
export function parseActivityLog(payload: unknown): ParsedRecords {
  const { response } = envelopeOf("fitbit-activity-log", payload);
  if (!isObject(response) || !Array.isArray(response.activities)) throw new Error("fitbit-activity-log: the answer has no activities list");
  const out = emptyParsedRecords();
  response.activities.forEach((activity: unknown, index) => {
    const locator = `activities[${index}]`;
    const workout = isObject(activity) ? workoutOf(activity, locator) : "not an object";
    if (typeof workout === "string") out.rejected.push({ recordKind: "workout", locator, reason: `activity: ${workout}` });
    else out.workouts.push(workout);
  });
  return out;
}

function workoutOf(activity: JsonObject, locator: string): WorkoutRecord | string {
  const startText = typeof activity.startTime === "string" && OFFSET_TIME.test(activity.startTime) ? activity.startTime : null;
  if (!startText) return "startTime is not a time with an offset";
  const start = new Date(startText);
  const duration = numberOf(activity.duration);
  const logId = numberOf(activity.logId);
  if (duration === null || duration < 0 || logId === null) return "duration or logId missing";
  const name = textOf(activity.activityName, 100);
  const lower = (name ?? "").toLowerCase();
  const activityType = ACTIVITY_TYPES.find(([pattern]) => pattern.test(lower))?.[1] ?? "other";
  const distance = numberOf(activity.distance);
  const unitFactor = typeof activity.distanceUnit === "string" ? METRES_PER[activity.distanceUnit] : METRES_PER.Kilometer;
  const activeDuration = numberOf(activity.activeDuration);
  const sourceInfo = isObject(activity.source) ? activity.source : {};
  const device = textOf(sourceInfo.name, 100);
  return {
    source: "fitbit",
    source_name: "Fitbit",
    device,
    on_body: textOf(sourceInfo.type, 20) === "tracker",
    activity_type: activityType,
    name,
    start_date: start,
    end_date: new Date(start.getTime() + duration),
    timezone: startText.endsWith("Z") ? "+00:00" : startText.slice(-6),
    duration_seconds: activeDuration === null ? null : activeDuration / 1000,
    distance_meters: distance === null || unitFactor === undefined ? null : Math.round(distance * unitFactor * 1000) / 1000,
    total_energy_kcal: numberOf(activity.calories),
    average_heart_rate: numberOf(activity.averageHeartRate),
    elevation_gain_meters: numberOf(activity.elevationGain),
    steps: numberOf(activity.steps),
    external_id: String(logId),
    metadata: { activity_type_id: numberOf(activity.activityTypeId), log_type: textOf(activity.logType, 30), activity_name: name },
    locator,
  };
}
