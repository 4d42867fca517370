// Strava's SportType (and the older ActivityType) as the catalog's snake_case activity types,
// the names activity files use (activity-files/activity-types.ts). Virtual and indoor variants
// keep the outdoor name; Strava's own name stays in the workout's metadata.

const OTHER = "other";

const SPORT_TYPES: Readonly<Record<string, string>> = {
  Run: "running",
  TrailRun: "running",
  VirtualRun: "running",
  Walk: "walking",
  Hike: "hiking",
  Ride: "cycling",
  MountainBikeRide: "cycling",
  GravelRide: "cycling",
  EBikeRide: "cycling",
  EMountainBikeRide: "cycling",
  VirtualRide: "cycling",
  Velomobile: "cycling",
  Handcycle: "hand_cycling",
  Wheelchair: "wheelchair_run_pace",
  Swim: "swimming",
  AlpineSki: "downhill_skiing",
  BackcountrySki: "cross_country_skiing",
  NordicSki: "cross_country_skiing",
  RollerSki: "cross_country_skiing",
  Snowboard: "snowboarding",
  Snowshoe: "snowshoeing",
  IceSkate: "skating",
  InlineSkate: "skating",
  Skateboard: "skating",
  Canoeing: "paddle_sports",
  Kayaking: "paddle_sports",
  StandUpPaddling: "paddle_sports",
  Rowing: "rowing",
  VirtualRow: "rowing",
  Sail: "sailing",
  Surfing: "surfing",
  Kitesurf: "water_sports",
  Windsurf: "water_sports",
  RockClimbing: "climbing",
  Golf: "golf",
  Soccer: "soccer",
  Tennis: "tennis",
  Badminton: "badminton",
  Pickleball: "pickleball",
  Padel: "padel",
  Racquetball: "racquetball",
  Squash: "squash",
  TableTennis: "table_tennis",
  Yoga: "yoga",
  Pilates: "pilates",
  WeightTraining: "strength_training",
  Crossfit: "cross_training",
  HighIntensityIntervalTraining: "high_intensity_interval_training",
  Elliptical: "elliptical",
  StairStepper: "stair_climbing",
  Workout: OTHER,
};

/** The activity type of a Strava activity from its `sport_type`, else its older `type`; `other` when unknown. */
export function activityTypeOfStrava(sportType: unknown, type: unknown): string {
  for (const name of [sportType, type]) {
    if (typeof name === "string" && Object.hasOwn(SPORT_TYPES, name)) return SPORT_TYPES[name] ?? OTHER;
  }
  return OTHER;
}
