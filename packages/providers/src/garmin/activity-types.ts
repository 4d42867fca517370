// Garmin's activity types (Activity API: RUNNING, TRAIL_RUNNING, ROAD_BIKING, LAP_SWIMMING...)
// as the catalog's snake_case activity types. Names the activity files already know (the
// snake-cased Garmin name) are read by them; the rest are listed here. `_WS` (winter sport)
// suffixes are dropped. Garmin's name stays in the workout's metadata.

import { activityTypeFromName } from "../activity-files/activity-types.ts";

const GARMIN_TYPES: Readonly<Record<string, string>> = {
  ultra_run: "running",
  obstacle_run: "running",
  virtual_run: "running",
  cycling: "cycling",
  cyclocross: "cycling",
  downhill_biking: "cycling",
  recumbent_cycling: "cycling",
  track_cycling: "cycling",
  bmx: "cycling",
  e_bike_fitness: "cycling",
  e_bike_mountain: "cycling",
  hand_cycling: "hand_cycling",
  indoor_hand_cycling: "hand_cycling",
  fitness_equipment: "other",
  indoor_cardio: "mixed_cardio",
  hiit: "high_intensity_interval_training",
  breathwork: "mind_and_body",
  meditation: "mind_and_body",
  multi_sport: "multisport",
  transition: "transition",
  resort_skiing_snowboarding: "downhill_skiing",
  resort_skiing: "downhill_skiing",
  resort_snowboarding: "snowboarding",
  backcountry_skiing: "cross_country_skiing",
  backcountry_skiing_snowboarding: "cross_country_skiing",
  skate_skiing: "cross_country_skiing",
  snow_shoe: "snowshoeing",
  skating: "skating",
  inline_skating: "skating",
  whitewater_rafting_kayaking: "paddle_sports",
  whitewater_rafting: "paddle_sports",
  boating: "sailing",
  kiteboarding: "water_sports",
  windsurfing: "water_sports",
  bouldering: "climbing",
  indoor_climbing: "climbing",
  pickleball: "pickleball",
  padel: "padel",
  tennis: "tennis",
  floor_climbing: "stair_climbing",
  wheelchair_push_walk: "wheelchair_walk_pace",
  wheelchair_push_run: "wheelchair_run_pace",
};

/** The activity type of a Garmin `activityType`; `other` when unknown. */
export function activityTypeOfGarmin(value: string | undefined): string {
  const key = value
    ?.trim()
    .toLowerCase()
    .replace(/_ws$/, "");
  if (!key) return "other";
  if (Object.hasOwn(GARMIN_TYPES, key)) return GARMIN_TYPES[key] ?? "other";
  return activityTypeFromName(key);
}
