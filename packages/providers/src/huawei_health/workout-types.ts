// Health Kit's activityType of an activity record as the catalog's snake_case activity types.
// Only the values Huawei's published pages name are mapped (the basketball record page:
// 5 is basketball); every other value is `other`, with Health Kit's number kept in the
// workout's metadata (`huawei_activity_type`) so it can be remapped once Huawei's table of
// activity type constants can be read.

const WORKOUT_TYPES: Readonly<Record<number, string>> = {
  5: "basketball",
};

export function activityTypeOf(huaweiType: unknown): string {
  return typeof huaweiType === "number" ? (WORKOUT_TYPES[huaweiType] ?? "other") : "other";
}
