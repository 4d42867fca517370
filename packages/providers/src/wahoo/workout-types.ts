// Wahoo's workout_type_id (the Cloud API's "Workout Types" table) as the catalog's snake_case
// activity types, the names activity files use (activity-files/activity-types.ts). Indoor and
// virtual variants keep the outdoor name; Wahoo's id stays in the workout's metadata. A
// workout with its FIT file takes its type from the file's sport instead.

const OTHER = "other";

const WORKOUT_TYPES: Readonly<Record<number, string>> = {
  0: "cycling", // BIKING
  1: "running", // RUNNING
  2: OTHER, // FE (fitness equipment)
  3: "running", // RUNNING_TRACK
  4: "running", // RUNNING_TRAIL
  5: "running", // RUNNING_TREADMILL
  6: "walking", // WALKING
  7: "walking", // WALKING_SPEED
  8: "walking", // WALKING_NORDIC
  9: "hiking", // HIKING
  10: "climbing", // MOUNTAINEERING
  11: "cycling", // BIKING_CYCLECROSS
  12: "cycling", // BIKING_INDOOR
  13: "cycling", // BIKING_MOUNTAIN
  14: "cycling", // BIKING_RECUMBENT
  15: "cycling", // BIKING_ROAD
  16: "cycling", // BIKING_TRACK
  17: OTHER, // BIKING_MOTOCYCLING
  18: OTHER, // FE_GENERAL
  19: "running", // FE_TREADMILL
  20: "elliptical", // FE_ELLIPTICAL
  21: "cycling", // FE_BIKE
  22: "rowing", // FE_ROWER
  23: "stair_climbing", // FE_CLIMBER
  25: "swimming", // SWIMMING_LAP
  26: "swimming", // SWIMMING_OPEN_WATER
  27: "snowboarding", // SNOWBOARDING
  28: "downhill_skiing", // SKIING
  29: "downhill_skiing", // SKIING_DOWNHILL
  30: "cross_country_skiing", // SKIING_CROSS_COUNTRY
  31: "skating", // SKATING
  32: "skating", // SKATING_ICE
  33: "skating", // SKATING_INLINE
  34: "skating", // LONG_BOARDING
  35: "sailing", // SAILING
  36: "water_sports", // WINDSURFING
  37: "paddle_sports", // CANOEING
  38: "paddle_sports", // KAYAKING
  39: "rowing", // ROWING
  40: "water_sports", // KITEBOARDING
  41: "paddle_sports", // STAND_UP_PADDLE_BOARD
  42: OTHER, // WORKOUT
  43: "mixed_cardio", // CARDIO_CLASS
  44: "stair_climbing", // STAIR_CLIMBER
  45: "wheelchair_run_pace", // WHEELCHAIR
  46: "golf", // GOLFING
  47: OTHER, // OTHER
  49: "cycling", // BIKING_INDOOR_CYCLING_CLASS
  56: "walking", // WALKING_TREADMILL
  61: "cycling", // BIKING_INDOOR_TRAINER
  62: "multisport", // MULTISPORT
  63: "transition", // TRANSITION
  64: "cycling", // EBIKING
  65: OTHER, // TICKR_OFFLINE
  66: "yoga", // YOGA
  67: "running", // RUNNING_RACE
  68: "cycling", // BIKING_INDOOR_VIRTUAL
  69: "mind_and_body", // MENTAL_STRENGTH
  70: "hand_cycling", // HANDCYCLING
  71: "running", // RUNNING_INDOOR_VIRTUAL
};

/** The activity type of a Wahoo workout_type_id; `other` when unknown (255 is UNKNOWN). */
export function activityTypeOfWahoo(workoutTypeId: unknown): string {
  if (typeof workoutTypeId !== "number" || !Object.hasOwn(WORKOUT_TYPES, workoutTypeId)) return OTHER;
  return WORKOUT_TYPES[workoutTypeId] ?? OTHER;
}
