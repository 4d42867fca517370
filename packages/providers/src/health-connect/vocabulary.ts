// Health Connect's integer constants (androidx.health.connect.client.records) and what svc
// stores for them.

/** metadata.device.type (Device.TYPE_*): worn on the body for watch, ring, fitness band, chest strap. */
export const DEVICE_TYPES: Readonly<Record<number, string>> = {
  0: "unknown",
  1: "watch",
  2: "phone",
  3: "scale",
  4: "ring",
  5: "head_mounted",
  6: "fitness_band",
  7: "chest_strap",
  8: "smart_display",
};
export const ON_BODY_DEVICE_TYPES: ReadonlySet<number> = new Set([1, 4, 6, 7]);

/** Metadata.RECORDING_METHOD_*. */
export const RECORDING_METHODS: Readonly<Record<number, string>> = {
  0: "unknown",
  1: "actively_recorded",
  2: "automatically_recorded",
  3: "manual_entry",
};
export const RECORDING_METHOD_MANUAL_ENTRY = 3;

/** SleepSessionRecord.STAGE_TYPE_* to svc's sleep stages (unknown counts towards nothing, as in_bed). */
export const SLEEP_STAGES: Readonly<Record<number, string>> = {
  0: "in_bed",
  1: "awake",
  2: "asleep",
  3: "out_of_bed",
  4: "light",
  5: "deep",
  6: "rem",
  7: "awake",
};

/**
 * ExerciseSessionRecord.EXERCISE_TYPE_*: Health Connect's own name (its
 * EXERCISE_TYPE_INT_TO_STRING_MAP, kept as metadata.exercise_type_name) and svc's activity
 * type, the HealthKit-like names the activity files use (activity-files/activity-types.ts):
 * indoor variants keep the outdoor name (treadmill → running, stationary biking → cycling,
 * pool and open water → swimming). Unknown numbers are `other`.
 */
export const EXERCISE_TYPES: Readonly<Record<number, readonly [hcName: string, activity: string]>> = {
  0: ["other", "other"],
  2: ["badminton", "badminton"],
  4: ["baseball", "baseball"],
  5: ["basketball", "basketball"],
  8: ["biking", "cycling"],
  9: ["biking_stationary", "cycling"],
  10: ["boot_camp", "cross_training"],
  11: ["boxing", "boxing"],
  13: ["calisthenics", "functional_strength_training"],
  14: ["cricket", "cricket"],
  16: ["dancing", "dance"],
  25: ["elliptical", "elliptical"],
  26: ["exercise_class", "mixed_cardio"],
  27: ["fencing", "fencing"],
  28: ["football_american", "american_football"],
  29: ["football_australian", "australian_football"],
  31: ["frisbee_disc", "disc_sports"],
  32: ["golf", "golf"],
  33: ["guided_breathing", "mind_and_body"],
  34: ["gymnastics", "gymnastics"],
  35: ["handball", "handball"],
  36: ["high_intensity_interval_training", "high_intensity_interval_training"],
  37: ["hiking", "hiking"],
  38: ["ice_hockey", "hockey"],
  39: ["ice_skating", "skating"],
  44: ["martial_arts", "martial_arts"],
  46: ["paddling", "paddle_sports"],
  47: ["paragliding", "paragliding"],
  48: ["pilates", "pilates"],
  50: ["racquetball", "racquetball"],
  51: ["rock_climbing", "climbing"],
  52: ["roller_hockey", "hockey"],
  53: ["rowing", "rowing"],
  54: ["rowing_machine", "rowing"],
  55: ["rugby", "rugby"],
  56: ["running", "running"],
  57: ["running_treadmill", "running"],
  58: ["sailing", "sailing"],
  59: ["scuba_diving", "underwater_diving"],
  60: ["skating", "skating"],
  61: ["skiing", "snow_sports"],
  62: ["snowboarding", "snowboarding"],
  63: ["snowshoeing", "snowshoeing"],
  64: ["soccer", "soccer"],
  65: ["softball", "softball"],
  66: ["squash", "squash"],
  68: ["stair_climbing", "stair_climbing"],
  69: ["stair_climbing_machine", "stair_climbing"],
  70: ["strength_training", "strength_training"],
  71: ["stretching", "flexibility"],
  72: ["surfing", "surfing"],
  73: ["swimming_open_water", "swimming"],
  74: ["swimming_pool", "swimming"],
  75: ["table_tennis", "table_tennis"],
  76: ["tennis", "tennis"],
  78: ["volleyball", "volleyball"],
  79: ["walking", "walking"],
  80: ["water_polo", "water_polo"],
  81: ["weightlifting", "strength_training"],
  82: ["wheelchair", "wheelchair_walk_pace"],
  83: ["yoga", "yoga"],
};

/** MealType.MEAL_TYPE_* (0, unknown, is stored as no meal type). */
export const MEAL_TYPES: Readonly<Record<number, string>> = { 1: "breakfast", 2: "lunch", 3: "dinner", 4: "snack" };

/** MenstruationFlowRecord.FLOW_* to the catalog's menstrual_flow values. */
export const FLOWS: Readonly<Record<number, string>> = { 0: "unspecified", 1: "light", 2: "medium", 3: "heavy" };

/** CervicalMucusRecord.APPEARANCE_* to cervical_mucus_quality (0, unknown, has no catalog value). */
export const MUCUS_APPEARANCES: Readonly<Record<number, string>> = {
  1: "dry",
  2: "sticky",
  3: "creamy",
  4: "watery",
  5: "egg_white",
  6: "unusual",
};
export const MUCUS_SENSATIONS: Readonly<Record<number, string>> = { 0: "unknown", 1: "light", 2: "medium", 3: "heavy" };

/** OvulationTestRecord.RESULT_*. */
export const OVULATION_RESULTS: Readonly<Record<number, string>> = { 0: "inconclusive", 1: "positive", 2: "high", 3: "negative" };

/** SexualActivityRecord.PROTECTION_USED_*. */
export const PROTECTIONS: Readonly<Record<number, string>> = { 0: "unspecified", 1: "protected", 2: "unprotected" };

/** MindfulnessSessionRecord.MINDFULNESS_SESSION_TYPE_* to mindful_session values. */
export const MINDFULNESS_TYPES: Readonly<Record<number, string>> = {
  0: "unspecified",
  1: "meditation",
  2: "breathing",
  3: "music",
  4: "movement",
  5: "unguided",
};

/** BloodPressureRecord.BODY_POSITION_* and MEASUREMENT_LOCATION_*, kept in metadata. */
export const BODY_POSITIONS: Readonly<Record<number, string>> = {
  0: "unknown",
  1: "standing_up",
  2: "sitting_down",
  3: "lying_down",
  4: "reclining",
};
export const BLOOD_PRESSURE_LOCATIONS: Readonly<Record<number, string>> = {
  0: "unknown",
  1: "left_wrist",
  2: "right_wrist",
  3: "left_upper_arm",
  4: "right_upper_arm",
};

/** BodyTemperatureMeasurementLocation.MEASUREMENT_LOCATION_*, kept in metadata. */
export const TEMPERATURE_LOCATIONS: Readonly<Record<number, string>> = {
  0: "unknown",
  1: "armpit",
  2: "finger",
  3: "forehead",
  4: "mouth",
  5: "rectum",
  6: "temporal_artery",
  7: "toe",
  8: "ear",
  9: "wrist",
  10: "vagina",
};

/** SkinTemperatureRecord.MEASUREMENT_LOCATION_*, kept in metadata. */
export const SKIN_TEMPERATURE_LOCATIONS: Readonly<Record<number, string>> = { 0: "unknown", 1: "finger", 2: "toe", 3: "wrist" };

/** BloodGlucoseRecord.SPECIMEN_SOURCE_* and RelationToMeal, kept in metadata. */
export const SPECIMEN_SOURCES: Readonly<Record<number, string>> = {
  0: "unknown",
  1: "interstitial_fluid",
  2: "capillary_blood",
  3: "plasma",
  4: "serum",
  5: "tears",
  6: "whole_blood",
};
export const RELATIONS_TO_MEAL: Readonly<Record<number, string>> = {
  0: "unknown",
  1: "general",
  2: "fasting",
  3: "before_meal",
  4: "after_meal",
};

/** Vo2MaxRecord.MEASUREMENT_METHOD_*, kept in metadata. */
export const VO2_MAX_METHODS: Readonly<Record<number, string>> = {
  0: "other",
  1: "metabolic_cart",
  2: "heart_rate_ratio",
  3: "cooper_test",
  4: "multistage_fitness_test",
  5: "rockport_fitness_test",
};

/** Vendor slugs by device manufacturer (lower case, matched as a word at the start). */
export const MANUFACTURER_SOURCES: ReadonlyArray<readonly [RegExp, string]> = [
  [/^samsung\b/, "samsung"],
  [/^google\b/, "google"],
  [/^fitbit\b/, "fitbit"],
  [/^garmin\b/, "garmin"],
  [/^oura\b/, "oura"],
  [/^(xiaomi|redmi)\b/, "xiaomi"],
  [/^(amazfit|zepp|huami)\b/, "zepp"],
  [/^withings\b/, "withings"],
  [/^polar\b/, "polar"],
  [/^(huawei|honor)\b/, "huawei"],
  [/^whoop\b/, "whoop"],
  [/^coros\b/, "coros"],
  [/^suunto\b/, "suunto"],
];

/** Vendor slugs by the package name of the app that wrote the record (metadata.dataOrigin). */
export const PACKAGE_SOURCES: Readonly<Record<string, string>> = {
  "com.sec.android.app.shealth": "samsung",
  "com.google.android.apps.fitness": "google",
  "com.fitbit.FitbitMobile": "fitbit",
  "com.garmin.android.apps.connectmobile": "garmin",
  "com.ouraring.oura": "oura",
  "com.xiaomi.wearable": "xiaomi",
  "com.mi.health": "xiaomi",
  "com.xiaomi.hm.health": "xiaomi",
  "com.huami.watch.hmwatchmanager": "zepp",
  "com.withings.wiscale2": "withings",
  "fi.polar.polarflow": "polar",
  "com.huawei.health": "huawei",
  "com.whoop.android": "whoop",
};
