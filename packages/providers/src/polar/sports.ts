// Polar sports (`detailed_sport_info`, else `sport`) to svc's activity types (the
// HealthKit-like names the other parsers use). Exact names first, then words in the name.

const SPORTS: Readonly<Record<string, string>> = {
  RUNNING: "running",
  ROAD_RUNNING: "running",
  TRAIL_RUNNING: "running",
  TREADMILL_RUNNING: "running",
  TRACK_AND_FIELD_RUNNING: "running",
  ORIENTEERING: "running",
  CYCLING: "cycling",
  ROAD_BIKING: "cycling",
  MOUNTAIN_BIKING: "cycling",
  INDOOR_CYCLING: "cycling",
  WALKING: "walking",
  NORDIC_WALKING: "walking",
  HIKING: "hiking",
  SWIMMING: "swimming",
  POOL_SWIMMING: "swimming",
  OPEN_WATER_SWIMMING: "swimming",
  STRENGTH_TRAINING: "strength_training",
  CIRCUIT_TRAINING: "cross_training",
  FUNCTIONAL_TRAINING: "functional_strength_training",
  CORE: "core_training",
  YOGA: "yoga",
  PILATES: "pilates",
  STRETCHING: "flexibility",
  ROWING: "rowing",
  INDOOR_ROWING: "rowing",
  CROSS_COUNTRY_SKIING: "cross_country_skiing",
  "CROSS-COUNTRY_SKIING": "cross_country_skiing",
  DOWNHILL_SKIING: "snow_sports",
  SNOWBOARDING: "snowboarding",
  ELLIPTICAL: "elliptical",
  DANCING: "dance",
  TENNIS: "tennis",
  SOCCER: "soccer",
  FOOTBALL: "soccer",
  BASKETBALL: "basketball",
  GOLF: "golf",
  CLIMBING: "climbing",
  KAYAKING: "paddle_sports",
  CANOEING: "paddle_sports",
  OTHER_INDOOR: "other",
  OTHER_OUTDOOR: "other",
  OTHER: "other",
};

const WORDS: ReadonlyArray<readonly [RegExp, string]> = [
  [/RUN/, "running"],
  [/BIK|CYCL/, "cycling"],
  [/SWIM/, "swimming"],
  [/WALK/, "walking"],
  [/HIK/, "hiking"],
  [/ROW/, "rowing"],
  [/SKI/, "snow_sports"],
  [/STRENGTH|WEIGHT/, "strength_training"],
  [/DANC/, "dance"],
  [/PADDL|KAYAK|CANOE/, "paddle_sports"],
];

export function activityTypeOf(detailedSport: string | null, sport: string | null): string {
  for (const name of [detailedSport, sport]) {
    if (!name) continue;
    const upper = name.toUpperCase();
    const exact = SPORTS[upper];
    if (exact) return exact;
    for (const [pattern, activity] of WORDS) if (pattern.test(upper)) return activity;
  }
  return "other";
}
