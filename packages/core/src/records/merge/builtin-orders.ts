/**
 * The built-in order of sources per group: the last level of the merged view's ranking,
 * used when the user has set no order for a metric, its group or `*`. Sources are vendor
 * slugs (the provider's slug when the vendor is unknown). The reasoning: devices worn for
 * the measurement first (chest straps and watches for heart data, rings and bands for
 * sleep and recovery), phones and scales where they are the instrument, apps that only
 * relay other devices' data last.
 */
export const BUILTIN_SOURCE_ORDERS: Readonly<Record<string, readonly string[]>> = {
  activity: ["garmin", "apple", "polar", "coros", "suunto", "fitbit", "google", "samsung", "whoop", "oura", "ultrahuman", "withings", "xiaomi", "huawei", "health_connect", "apple_health", "self_report"],
  heart: ["polar", "garmin", "apple", "whoop", "oura", "ultrahuman", "coros", "suunto", "fitbit", "withings", "samsung", "google", "xiaomi", "huawei", "bluetooth", "health_connect", "apple_health", "self_report"],
  recovery: ["whoop", "oura", "ultrahuman", "garmin", "polar", "apple", "fitbit", "coros", "suunto", "withings", "samsung", "google", "health_connect", "apple_health", "self_report"],
  body: ["withings", "bluetooth", "garmin", "fitbit", "apple", "oura", "polar", "samsung", "google", "xiaomi", "huawei", "health_connect", "apple_health", "self_report"],
  vitals: ["withings", "bluetooth", "apple", "garmin", "oura", "whoop", "polar", "fitbit", "samsung", "google", "huawei", "health_connect", "apple_health", "self_report"],
  sleep: ["oura", "ultrahuman", "whoop", "garmin", "apple", "polar", "fitbit", "withings", "coros", "suunto", "samsung", "google", "xiaomi", "huawei", "health_connect", "apple_health", "self_report"],
  workouts: ["garmin", "polar", "coros", "suunto", "wahoo", "strava", "apple", "whoop", "fitbit", "oura", "samsung", "google", "huawei", "health_connect", "apple_health", "activity_files", "self_report"],
  nutrition: ["cronometer", "myfitnesspal", "apple", "google", "samsung", "health_connect", "apple_health", "self_report"],
  cycle: ["apple", "oura", "garmin", "fitbit", "whoop", "samsung", "google", "health_connect", "apple_health", "self_report"],
  mindfulness: ["apple", "oura", "garmin", "whoop", "fitbit", "samsung", "google", "health_connect", "apple_health", "self_report"],
  reported: ["self_report"],
  other: [],
};

export const builtinOrderOf = (group: string): readonly string[] => BUILTIN_SOURCE_ORDERS[group] ?? [];
