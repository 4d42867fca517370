// HealthKit identifiers and enumerations -> svc catalog names and values, as data.
// Quantity types: packages/core/src/records/catalog/quantity-types.ts; category types:
// packages/core/src/records/catalog/category-types.ts. Units are passed through as HealthKit spells
// them (the writer converts with toStorageUnit), except HealthKit's percent, see FRACTION_TYPES.

/** HKQuantityTypeIdentifier… (without the prefix) -> catalog quantity type. */
export const HEALTHKIT_QUANTITY_TYPES: Readonly<Record<string, string>> = {
  // Activity.
  StepCount: "step_count",
  DistanceWalkingRunning: "distance_walking_running",
  DistanceCycling: "distance_cycling",
  DistanceSwimming: "distance_swimming",
  DistanceWheelchair: "distance_wheelchair",
  DistanceDownhillSnowSports: "distance_downhill_snow_sports",
  DistanceCrossCountrySkiing: "distance_cross_country_skiing",
  DistanceRowing: "distance_rowing",
  DistancePaddleSports: "distance_paddle_sports",
  ActiveEnergyBurned: "active_energy_burned",
  BasalEnergyBurned: "basal_energy_burned",
  FlightsClimbed: "flights_climbed",
  AppleExerciseTime: "exercise_time",
  AppleStandTime: "stand_time",
  AppleMoveTime: "move_time",
  PushCount: "push_count",
  SwimmingStrokeCount: "swimming_stroke_count",
  TimeInDaylight: "time_in_daylight",
  UVExposure: "uv_exposure",
  NumberOfTimesFallen: "number_of_times_fallen",
  PhysicalEffort: "physical_effort",
  // Mobility.
  WalkingSpeed: "walking_speed",
  WalkingStepLength: "walking_step_length",
  WalkingAsymmetryPercentage: "walking_asymmetry_percentage",
  WalkingDoubleSupportPercentage: "walking_double_support_percentage",
  AppleWalkingSteadiness: "walking_steadiness",
  StairAscentSpeed: "stair_ascent_speed",
  StairDescentSpeed: "stair_descent_speed",
  SixMinuteWalkTestDistance: "six_minute_walk_test_distance",
  // Workouts.
  RunningPower: "running_power",
  RunningSpeed: "running_speed",
  RunningStrideLength: "running_stride_length",
  RunningVerticalOscillation: "running_vertical_oscillation",
  RunningGroundContactTime: "running_ground_contact_time",
  CyclingPower: "cycling_power",
  CyclingCadence: "cycling_cadence",
  CyclingSpeed: "cycling_speed",
  CyclingFunctionalThresholdPower: "cycling_functional_threshold_power",
  // Heart.
  HeartRate: "heart_rate",
  RestingHeartRate: "resting_heart_rate",
  WalkingHeartRateAverage: "walking_heart_rate_average",
  HeartRateVariabilitySDNN: "hrv_sdnn",
  HeartRateRecoveryOneMinute: "heart_rate_recovery_one_minute",
  AtrialFibrillationBurden: "atrial_fibrillation_burden",
  VO2Max: "vo2_max",
  // Vitals.
  OxygenSaturation: "oxygen_saturation",
  RespiratoryRate: "respiratory_rate",
  BloodPressureSystolic: "blood_pressure_systolic",
  BloodPressureDiastolic: "blood_pressure_diastolic",
  BloodGlucose: "blood_glucose",
  BodyTemperature: "body_temperature",
  PeripheralPerfusionIndex: "peripheral_perfusion_index",
  ElectrodermalActivity: "electrodermal_activity",
  BloodAlcoholContent: "blood_alcohol_content",
  InsulinDelivery: "insulin_delivery",
  InhalerUsage: "inhaler_usage",
  PeakExpiratoryFlowRate: "peak_expiratory_flow_rate",
  ForcedVitalCapacity: "forced_vital_capacity",
  ForcedExpiratoryVolume1: "forced_expiratory_volume_1",
  EnvironmentalAudioExposure: "environmental_audio_exposure",
  HeadphoneAudioExposure: "headphone_audio_exposure",
  // Body.
  BodyMass: "body_mass",
  BodyFatPercentage: "body_fat_percentage",
  BodyMassIndex: "body_mass_index",
  Height: "height",
  LeanBodyMass: "lean_body_mass",
  WaistCircumference: "waist_circumference",
  BasalBodyTemperature: "basal_body_temperature",
  AppleSleepingWristTemperature: "sleeping_wrist_temperature",
  // Sleep.
  AppleSleepingBreathingDisturbances: "sleeping_breathing_disturbances",
  // Nutrition.
  DietaryEnergyConsumed: "dietary_energy_consumed",
  DietaryWater: "dietary_water",
  DietaryProtein: "dietary_protein",
  DietaryCarbohydrates: "dietary_carbohydrates",
  DietaryFatTotal: "dietary_fat_total",
  DietaryFatSaturated: "dietary_fat_saturated",
  DietaryFiber: "dietary_fiber",
  DietarySugar: "dietary_sugar",
  DietarySodium: "dietary_sodium",
  DietaryCaffeine: "dietary_caffeine",
  DietaryCholesterol: "dietary_cholesterol",
  DietaryPotassium: "dietary_potassium",
  NumberOfAlcoholicBeverages: "number_of_alcoholic_beverages",
};

/**
 * Catalog types stored in `%` (0-100) for which HealthKit's unit `%` (HKUnit.percent()) is a
 * fraction 0-1: their values are sent to the writer with unit `fraction`.
 */
export const FRACTION_TYPES: ReadonlySet<string> = new Set([
  "oxygen_saturation",
  "body_fat_percentage",
  "walking_asymmetry_percentage",
  "walking_double_support_percentage",
  "walking_steadiness",
  "atrial_fibrillation_burden",
  "peripheral_perfusion_index",
  "blood_alcohol_content",
]);

export const SLEEP_ANALYSIS = "HKCategoryTypeIdentifierSleepAnalysis";
export const HRV_SDNN = "HKQuantityTypeIdentifierHeartRateVariabilitySDNN";
export const BLOOD_PRESSURE = "HKCorrelationTypeIdentifierBloodPressure";
export const FOOD = "HKCorrelationTypeIdentifierFood";

/** Catalog quantity type of a HealthKit quantity identifier, or undefined when not mapped. */
export function quantityTypeOf(identifier: string): string | undefined {
  if (!identifier.startsWith("HKQuantityTypeIdentifier")) return undefined;
  const name = identifier.slice("HKQuantityTypeIdentifier".length);
  return Object.hasOwn(HEALTHKIT_QUANTITY_TYPES, name) ? HEALTHKIT_QUANTITY_TYPES[name] : undefined;
}

/** Quantity types that a HealthKit correlation holds (blood pressure, food). */
export function isCorrelatedType(identifier: string): boolean {
  return (
    identifier === "HKQuantityTypeIdentifierBloodPressureSystolic" ||
    identifier === "HKQuantityTypeIdentifierBloodPressureDiastolic" ||
    identifier.startsWith("HKQuantityTypeIdentifierDietary")
  );
}

// ---------------------------------------------------------------------------------------
// Category types. Each enumeration lists [raw value, Swift case name, catalog value]; the
// export's spelling is `HKCategoryValue<Enum><CaseName>` (HKCategoryValueSeverityMild).

export type Enumeration = { name: string; cases: ReadonlyArray<readonly [number, string, string]> };

const SEVERITY: Enumeration = {
  name: "Severity",
  cases: [
    [0, "unspecified", "unspecified"],
    [1, "notPresent", "not_present"],
    [2, "mild", "mild"],
    [3, "moderate", "moderate"],
    [4, "severe", "severe"],
  ],
};
const PRESENCE: Enumeration = {
  name: "Presence",
  cases: [
    [0, "present", "present"],
    [1, "notPresent", "not_present"],
  ],
};
const TEST_RESULT = (name: string): Enumeration => ({
  name,
  cases: [
    [1, "negative", "negative"],
    [2, "positive", "positive"],
    [3, "indeterminate", "inconclusive"],
  ],
});

export interface CategoryMapping {
  /** Catalog category type. */
  type: string;
  /** How the value is read: an enumeration, or `event` (value ignored, stored as `not_applicable`). */
  values: Enumeration | "event" | "sexual_activity" | "mindful_session";
}

/** HKCategoryTypeIdentifier… (without the prefix) -> catalog category type and how its values read. */
export const HEALTHKIT_CATEGORY_TYPES: Readonly<Record<string, CategoryMapping>> = {
  MenstrualFlow: {
    type: "menstrual_flow",
    values: {
      name: "MenstrualFlow",
      cases: [
        [1, "unspecified", "unspecified"],
        [2, "light", "light"],
        [3, "medium", "medium"],
        [4, "heavy", "heavy"],
        [5, "none", "none"],
      ],
    },
  },
  IntermenstrualBleeding: { type: "intermenstrual_bleeding", values: "event" },
  OvulationTestResult: {
    type: "ovulation_test_result",
    values: {
      name: "OvulationTestResult",
      cases: [
        [1, "negative", "negative"],
        [2, "luteinizingHormoneSurge", "positive"],
        [2, "positive", "positive"], // the deprecated name of 2
        [3, "indeterminate", "inconclusive"],
        [4, "estrogenSurge", "high"],
      ],
    },
  },
  CervicalMucusQuality: {
    type: "cervical_mucus_quality",
    values: {
      name: "CervicalMucusQuality",
      cases: [
        [1, "dry", "dry"],
        [2, "sticky", "sticky"],
        [3, "creamy", "creamy"],
        [4, "watery", "watery"],
        [5, "eggWhite", "egg_white"],
      ],
    },
  },
  SexualActivity: { type: "sexual_activity", values: "sexual_activity" },
  Contraceptive: {
    type: "contraceptive",
    values: {
      name: "Contraceptive",
      cases: [
        [1, "unspecified", "unspecified"],
        [2, "implant", "implant"],
        [3, "injection", "injection"],
        [4, "intrauterineDevice", "intrauterine_device"],
        [5, "intravaginalRing", "intravaginal_ring"],
        [6, "oral", "oral"],
        [7, "patch", "patch"],
      ],
    },
  },
  PregnancyTestResult: { type: "pregnancy_test_result", values: TEST_RESULT("PregnancyTestResult") },
  ProgesteroneTestResult: { type: "progesterone_test_result", values: TEST_RESULT("ProgesteroneTestResult") },
  Pregnancy: { type: "pregnancy", values: "event" },
  Lactation: { type: "lactation", values: "event" },
  MindfulSession: { type: "mindful_session", values: "mindful_session" },
  HighHeartRateEvent: { type: "high_heart_rate_event", values: "event" },
  LowHeartRateEvent: { type: "low_heart_rate_event", values: "event" },
  IrregularHeartRhythmEvent: { type: "irregular_heart_rhythm_event", values: "event" },
  LowCardioFitnessEvent: { type: "low_cardio_fitness_event", values: "event" },
  AppleStandHour: {
    type: "apple_stand_hour",
    values: {
      name: "AppleStandHour",
      cases: [
        [0, "stood", "stood"],
        [1, "idle", "idle"],
      ],
    },
  },
  AppleWalkingSteadinessEvent: {
    type: "walking_steadiness_event",
    values: {
      name: "AppleWalkingSteadinessEvent",
      cases: [
        [1, "initialLow", "initial_low"],
        [2, "initialVeryLow", "initial_very_low"],
        [3, "repeatLow", "repeat_low"],
        [4, "repeatVeryLow", "repeat_very_low"],
      ],
    },
  },
  ToothbrushingEvent: { type: "toothbrushing_event", values: "event" },
  HandwashingEvent: { type: "handwashing_event", values: "event" },
  EnvironmentalAudioExposureEvent: { type: "environmental_audio_exposure_event", values: "event" },
  HeadphoneAudioExposureEvent: { type: "headphone_audio_exposure_event", values: "event" },
  // Before iOS 14 HealthKit called the environmental one AudioExposureEvent.
  AudioExposureEvent: { type: "environmental_audio_exposure_event", values: "event" },
  SleepApneaEvent: { type: "sleep_apnea_event", values: "event" },
  Headache: { type: "headache", values: SEVERITY },
  AbdominalCramps: { type: "abdominal_cramps", values: SEVERITY },
  Bloating: { type: "bloating", values: SEVERITY },
  ChestTightnessOrPain: { type: "chest_tightness_or_pain", values: SEVERITY },
  Coughing: { type: "coughing", values: SEVERITY },
  Diarrhea: { type: "diarrhea", values: SEVERITY },
  Dizziness: { type: "dizziness", values: SEVERITY },
  Fatigue: { type: "fatigue", values: SEVERITY },
  Fever: { type: "fever", values: SEVERITY },
  HotFlashes: { type: "hot_flashes", values: SEVERITY },
  LowerBackPain: { type: "lower_back_pain", values: SEVERITY },
  Nausea: { type: "nausea", values: SEVERITY },
  ShortnessOfBreath: { type: "shortness_of_breath", values: SEVERITY },
  SoreThroat: { type: "sore_throat", values: SEVERITY },
  Vomiting: { type: "vomiting", values: SEVERITY },
  AppetiteChanges: {
    type: "appetite_changes",
    values: {
      name: "AppetiteChanges",
      cases: [
        [0, "unspecified", "unspecified"],
        [1, "noChange", "no_change"],
        [2, "decreased", "decreased"],
        [3, "increased", "increased"],
      ],
    },
  },
  MoodChanges: { type: "mood_changes", values: PRESENCE },
  SleepChanges: { type: "sleep_changes", values: PRESENCE },
};

/** The mapping of a HealthKit category identifier, or undefined when not mapped (sleep analysis has its own path). */
export function categoryMappingOf(identifier: string): CategoryMapping | undefined {
  if (!identifier.startsWith("HKCategoryTypeIdentifier")) return undefined;
  const name = identifier.slice("HKCategoryTypeIdentifier".length);
  return Object.hasOwn(HEALTHKIT_CATEGORY_TYPES, name) ? HEALTHKIT_CATEGORY_TYPES[name] : undefined;
}

const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** Looks a value up in an enumeration: raw value, case name, or the export's `HKCategoryValue…` spelling. */
export function enumerationValue(enumeration: Enumeration, value: unknown): string | undefined {
  const number = typeof value === "number" ? value : typeof value === "string" && /^\d{1,4}$/.test(value) ? Number(value) : undefined;
  for (const [raw, name, catalog] of enumeration.cases) {
    if (number === raw) return catalog;
    if (typeof value === "string" && (value === name || value === `HKCategoryValue${enumeration.name}${capitalize(name)}`)) return catalog;
  }
  return undefined;
}

/**
 * The catalog value of a category sample, or undefined when the value is not one HealthKit
 * defines for the type. `metadata` is read for sexual activity (protection used).
 */
export function categoryValueOf(mapping: CategoryMapping, value: unknown, metadata: Record<string, unknown>): string | undefined {
  switch (mapping.values) {
    case "event":
      return "not_applicable";
    case "mindful_session":
      return "unspecified";
    case "sexual_activity": {
      const used = metadata.HKSexualActivityProtectionUsed ?? metadata.HKMetadataKeySexualActivityProtectionUsed;
      const flag = metadataBoolean(used);
      return flag === undefined ? "unspecified" : flag ? "protected" : "unprotected";
    }
    default:
      return enumerationValue(mapping.values, value);
  }
}

/** A HealthKit boolean metadata value: JSON true/false, or the export's "1"/"0". */
export function metadataBoolean(value: unknown): boolean | undefined {
  if (value === true || value === 1 || value === "1" || value === "true") return true;
  if (value === false || value === 0 || value === "0" || value === "false") return false;
  return undefined;
}

// Sleep analysis: HKCategoryValueSleepAnalysis -> sleep phase stage.
const SLEEP_STAGES: Enumeration = {
  name: "SleepAnalysis",
  cases: [
    [0, "inBed", "in_bed"],
    [1, "asleepUnspecified", "asleep"],
    [1, "asleep", "asleep"], // the name of 1 before iOS 16
    [2, "awake", "awake"],
    [3, "asleepCore", "light"],
    [4, "asleepDeep", "deep"],
    [5, "asleepREM", "rem"],
  ],
};

/** The sleep phase stage of a sleep analysis value, or undefined. */
export function sleepStageOf(value: unknown): string | undefined {
  return enumerationValue(SLEEP_STAGES, value);
}

// ---------------------------------------------------------------------------------------
// Workouts: HKWorkoutActivityType raw values and case names -> snake_case activity types.

const ACTIVITY_TYPES: ReadonlyArray<readonly [number, string]> = [
  [1, "americanFootball"], [2, "archery"], [3, "australianFootball"], [4, "badminton"], [5, "baseball"],
  [6, "basketball"], [7, "bowling"], [8, "boxing"], [9, "climbing"], [10, "cricket"], [11, "crossTraining"],
  [12, "curling"], [13, "cycling"], [14, "dance"], [15, "danceInspiredTraining"], [16, "elliptical"],
  [17, "equestrianSports"], [18, "fencing"], [19, "fishing"], [20, "functionalStrengthTraining"], [21, "golf"],
  [22, "gymnastics"], [23, "handball"], [24, "hiking"], [25, "hockey"], [26, "hunting"], [27, "lacrosse"],
  [28, "martialArts"], [29, "mindAndBody"], [30, "mixedMetabolicCardioTraining"], [31, "paddleSports"],
  [32, "play"], [33, "preparationAndRecovery"], [34, "racquetball"], [35, "rowing"], [36, "rugby"],
  [37, "running"], [38, "sailing"], [39, "skatingSports"], [40, "snowSports"], [41, "soccer"], [42, "softball"],
  [43, "squash"], [44, "stairClimbing"], [45, "surfingSports"], [46, "swimming"], [47, "tableTennis"],
  [48, "tennis"], [49, "trackAndField"], [50, "traditionalStrengthTraining"], [51, "volleyball"], [52, "walking"],
  [53, "waterFitness"], [54, "waterPolo"], [55, "waterSports"], [56, "wrestling"], [57, "yoga"], [58, "barre"],
  [59, "coreTraining"], [60, "crossCountrySkiing"], [61, "downhillSkiing"], [62, "flexibility"],
  [63, "highIntensityIntervalTraining"], [64, "jumpRope"], [65, "kickboxing"], [66, "pilates"],
  [67, "snowboarding"], [68, "stairs"], [69, "stepTraining"], [70, "wheelchairWalkPace"],
  [71, "wheelchairRunPace"], [72, "taiChi"], [73, "mixedCardio"], [74, "handCycling"], [75, "discSports"],
  [76, "fitnessGaming"], [77, "cardioDance"], [78, "socialDance"], [79, "pickleball"], [80, "cooldown"],
  [82, "swimBikeRun"], [83, "transition"], [84, "underwaterDiving"], [3000, "other"],
];

// Where the generic snake_case spelling would differ from what other providers send.
const ACTIVITY_ALIASES: Readonly<Record<string, string>> = {
  traditionalStrengthTraining: "strength_training",
};

const ACTIVITY_BY_RAW = new Map(ACTIVITY_TYPES.map(([raw, name]) => [raw, name]));
const ACTIVITY_BY_NAME = new Map(ACTIVITY_TYPES.map(([, name]) => [name.toLowerCase(), name]));

const snake = (name: string) => name.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase();

/**
 * The snake_case activity type of an HKWorkoutActivityType given as its raw value (37), its
 * case name (`running`) or the export's spelling (`HKWorkoutActivityTypeRunning`); undefined
 * when HealthKit defines no such type.
 */
export function workoutActivityTypeOf(value: unknown): string | undefined {
  let name: string | undefined;
  if (typeof value === "number") name = ACTIVITY_BY_RAW.get(value);
  else if (typeof value === "string") {
    const bare = value.startsWith("HKWorkoutActivityType") ? value.slice("HKWorkoutActivityType".length) : value;
    name = ACTIVITY_BY_NAME.get(bare.toLowerCase());
  }
  if (name === undefined) return undefined;
  return ACTIVITY_ALIASES[name] ?? snake(name);
}

// ---------------------------------------------------------------------------------------
// ECG: HKElectrocardiogram.Classification and lead.

const ECG_CLASSIFICATIONS: ReadonlyArray<readonly [number, string]> = [
  [0, "notSet"], [1, "sinusRhythm"], [2, "atrialFibrillation"], [3, "inconclusiveLowHeartRate"],
  [4, "inconclusiveHighHeartRate"], [5, "inconclusivePoorReading"], [6, "inconclusiveOther"], [100, "unrecognized"],
];

/** An ECG classification as its case name (the writer stores it snake_case), from a raw value or a name. */
export function ecgClassificationOf(value: unknown): string | null | undefined {
  if (value === undefined || value === null) return null;
  for (const [raw, name] of ECG_CLASSIFICATIONS) {
    if (value === raw) return name;
    if (typeof value === "string" && (value === name || value === `HKElectrocardiogramClassification${capitalize(name)}`)) return name;
  }
  return undefined;
}

/** The lead of an Apple Watch ECG (HKElectrocardiogram.Lead.appleWatchSimilarToLeadI, raw 1). */
export function ecgLeadOf(value: unknown): string | null {
  if (value === 1 || value === "appleWatchSimilarToLeadI" || value === undefined || value === null) return "Apple Watch Simulating Lead I";
  return typeof value === "string" && value.length <= 64 ? value : null;
}
