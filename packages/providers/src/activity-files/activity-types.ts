// Activity types of workouts read from FIT, GPX and TCX files: snake_case names close to
// HealthKit's HKWorkoutActivityType (`running`, `cycling`, `strength_training`, ...).
// Indoor variants (treadmill, indoor cycling) keep the outdoor name; the file's own sport
// and sub-sport stay in the workout's metadata. See docs/reference/upload-formats.md ("Activity files").

import { activityTypeOfStrava } from "../strava/sport-types.ts";

/** What a cadence reading of an activity counts: steps (reported per foot) or pedal turns. */
export type CadenceKind = "steps" | "pedal" | null;

const OTHER = "other";

/** FIT `sport` values (as the SDK names them) whose activity does not depend on the sub-sport. */
const FIT_SPORTS: Readonly<Record<string, string>> = {
  generic: OTHER,
  running: "running",
  cycling: "cycling",
  eBiking: "cycling",
  transition: "transition",
  swimming: "swimming",
  basketball: "basketball",
  soccer: "soccer",
  tennis: "tennis",
  americanFootball: "american_football",
  walking: "walking",
  crossCountrySkiing: "cross_country_skiing",
  alpineSkiing: "downhill_skiing",
  snowboarding: "snowboarding",
  rowing: "rowing",
  mountaineering: "climbing",
  hiking: "hiking",
  multisport: "multisport",
  paddling: "paddle_sports",
  kayaking: "paddle_sports",
  canoeing: "paddle_sports",
  rafting: "paddle_sports",
  standUpPaddleboarding: "paddle_sports",
  golf: "golf",
  discGolf: "disc_golf",
  horsebackRiding: "equestrian_sports",
  hunting: "hunting",
  fishing: "fishing",
  inlineSkating: "skating",
  iceSkating: "skating",
  rockClimbing: "climbing",
  floorClimbing: "stair_climbing",
  sailing: "sailing",
  snowshoeing: "snowshoeing",
  surfing: "surfing",
  wakeboarding: "water_sports",
  waterSkiing: "water_sports",
  windsurfing: "water_sports",
  kitesurfing: "water_sports",
  wakesurfing: "water_sports",
  waterTubing: "water_sports",
  waterSport: "water_sports",
  snorkeling: "water_sports",
  boxing: "boxing",
  mixedMartialArts: "martial_arts",
  baseball: "baseball",
  cricket: "cricket",
  rugby: "rugby",
  hockey: "hockey",
  lacrosse: "lacrosse",
  volleyball: "volleyball",
  teamSport: "team_sports",
  archery: "archery",
  diving: "underwater_diving",
  poolApnea: "underwater_diving",
  hiit: "high_intensity_interval_training",
  meditation: "mind_and_body",
  mobility: "flexibility",
  dance: "dance",
  jumpRope: "jump_rope",
  wheelchairPushWalk: "wheelchair_walk_pace",
  wheelchairPushRun: "wheelchair_run_pace",
  racket: "racket_sports",
};

/** FIT `sub_sport` values that name the activity better than their sport does. */
const FIT_SUB_SPORTS: Readonly<Record<string, string>> = {
  strengthTraining: "strength_training",
  cardioTraining: "mixed_cardio",
  flexibilityTraining: "flexibility",
  yoga: "yoga",
  pilates: "pilates",
  hiit: "high_intensity_interval_training",
  amrap: "high_intensity_interval_training",
  emom: "high_intensity_interval_training",
  tabata: "high_intensity_interval_training",
  breathing: "mind_and_body",
  elliptical: "elliptical",
  stairClimbing: "stair_climbing",
  indoorRowing: "rowing",
  indoorClimbing: "climbing",
  bouldering: "climbing",
  handCycling: "hand_cycling",
  indoorHandCycling: "hand_cycling",
  pickleball: "pickleball",
  padel: "padel",
  squash: "squash",
  badminton: "badminton",
  racquetball: "racquetball",
  tableTennis: "table_tennis",
};

/** Sub-sports of the fitness_equipment and training sports that are a plain run, walk or ride. */
const FIT_EQUIPMENT_SUB_SPORTS: Readonly<Record<string, string>> = {
  treadmill: "running",
  indoorRunning: "running",
  indoorWalking: "walking",
  indoorCycling: "cycling",
  spin: "cycling",
};

/** The activity type of a FIT session (or lap) from its `sport` and `sub_sport`. */
export function activityTypeFromFit(sport: unknown, subSport: unknown): string {
  if (typeof subSport === "string") {
    const bySubSport = lookup(FIT_SUB_SPORTS, subSport);
    if (bySubSport) return bySubSport;
    if (sport === "fitnessEquipment" || sport === "training") {
      const equipment = lookup(FIT_EQUIPMENT_SUB_SPORTS, subSport);
      if (equipment) return equipment;
    }
  }
  if (sport === "training") return "cross_training";
  if (sport === "fitnessEquipment") return OTHER;
  if (typeof sport !== "string") return OTHER; // a number: a sport newer than the SDK's profile
  return lookup(FIT_SPORTS, sport) ?? snakeCase(sport) ?? OTHER;
}

/** Names written by hand or by apps (GPX `<type>`, TCX `Sport`), after snake-casing. */
const NAMES: Readonly<Record<string, string>> = {
  run: "running",
  running: "running",
  trail_running: "running",
  treadmill_running: "running",
  indoor_running: "running",
  street_running: "running",
  track_running: "running",
  virtual_run: "running",
  jogging: "running",
  walk: "walking",
  walking: "walking",
  casual_walking: "walking",
  speed_walking: "walking",
  indoor_walking: "walking",
  hike: "hiking",
  hiking: "hiking",
  ride: "cycling",
  bike: "cycling",
  biking: "cycling",
  cycling: "cycling",
  road_biking: "cycling",
  road_cycling: "cycling",
  mountain_biking: "cycling",
  gravel_cycling: "cycling",
  indoor_cycling: "cycling",
  virtual_ride: "cycling",
  e_bike_ride: "cycling",
  swim: "swimming",
  swimming: "swimming",
  lap_swimming: "swimming",
  open_water_swimming: "swimming",
  strength_training: "strength_training",
  weight_training: "strength_training",
  yoga: "yoga",
  pilates: "pilates",
  elliptical: "elliptical",
  rowing: "rowing",
  indoor_rowing: "rowing",
  stair_climbing: "stair_climbing",
  hiit: "high_intensity_interval_training",
  cross_country_skiing: "cross_country_skiing",
  nordic_ski: "cross_country_skiing",
  alpine_skiing: "downhill_skiing",
  alpine_ski: "downhill_skiing",
  downhill_skiing: "downhill_skiing",
  resort_skiing_snowboarding: "downhill_skiing",
  snowboarding: "snowboarding",
  snowshoeing: "snowshoeing",
  kayaking: "paddle_sports",
  canoeing: "paddle_sports",
  paddling: "paddle_sports",
  stand_up_paddleboarding: "paddle_sports",
  sailing: "sailing",
  surfing: "surfing",
  rock_climbing: "climbing",
  climbing: "climbing",
  mountaineering: "climbing",
  golf: "golf",
  other: OTHER,
};

/**
 * The activity type of a free-form name: a GPX track's `<type>` or a TCX `Sport` attribute
 * (`Running`, `Biking`, `Other`). Unknown names give `other`; the name as written stays in
 * the workout's metadata.
 */
export function activityTypeFromName(name: string | undefined): string {
  const key = snakeCase(name);
  if (!key) return OTHER;
  return lookup(NAMES, key) ?? OTHER;
}

/**
 * The numbers Strava's GPX exports write as a track's `<type>`, as Strava's activity type
 * names. Only 1 to 18 are taken: public sources agree on them and disagree above.
 */
const STRAVA_GPX_TYPES: readonly string[] = [
  "Ride",
  "AlpineSki",
  "BackcountrySki",
  "Hike",
  "IceSkate",
  "InlineSkate",
  "NordicSki",
  "RollerSki",
  "Run",
  "Walk",
  "Workout",
  "Snowboard",
  "Snowshoe",
  "Kitesurf",
  "Windsurf",
  "Swim",
  "VirtualRide",
  "EBikeRide",
];

/**
 * The activity type of a GPX `<type>` written by Strava: a number (`9` is a run) mapped as
 * the Strava connector maps the name it stands for; a name as any other file's. An unknown
 * number is `other`; the value as written stays in the workout's metadata.
 */
export function activityTypeFromStravaGpx(type: string | undefined): string {
  if (type === undefined || !/^\d{1,3}$/.test(type)) return activityTypeFromName(type);
  const name = STRAVA_GPX_TYPES[Number(type) - 1];
  return name === undefined ? OTHER : activityTypeOfStrava(name, undefined);
}

const STEP_ACTIVITIES = new Set(["running", "walking", "hiking"]);
const PEDAL_ACTIVITIES = new Set(["cycling", "hand_cycling"]);

/**
 * What a file's cadence means for an activity: steps for running, walking and hiking (the
 * files give strides per minute, one foot, so steps are twice that), pedal turns for cycling,
 * unknown otherwise (no cadence samples are made then).
 */
export function cadenceKind(activityType: string): CadenceKind {
  if (STEP_ACTIVITIES.has(activityType)) return "steps";
  if (PEDAL_ACTIVITIES.has(activityType)) return "pedal";
  return null;
}

/** `camelCase`, `Title Case` or `kebab-case` as snake_case (at most 64 characters); undefined when nothing is left. */
export function snakeCase(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const name = value
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .slice(0, 64)
    .replace(/_+$/, "");
  return /^[a-z]/.test(name) ? name : undefined;
}

// Own keys only: a name such as "constructor" must not find Object.prototype's.
function lookup(table: Readonly<Record<string, string>>, key: string): string | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}
