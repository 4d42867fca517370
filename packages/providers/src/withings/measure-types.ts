// Withings measure types (`meastype` of Measure - Getmeas) and where they go in the catalog.

export interface MeasureMapping {
  /** Catalog quantity type, or a snake_case type of our own outside the catalog. */
  type: string;
  /** The unit of the value (the catalog's storage unit for catalog types). */
  unit: string;
  /** A power of ten from Withings' SI unit to `unit`: 2 for height, sent in meters and stored in cm. */
  exponent?: number;
}

/**
 * Withings sends every value as `value * 10^unit` in SI units (kg, m, %, mmHg, °C, m/s...).
 * Types outside the catalog keep Withings' meaning under a name of ours.
 */
export const MEASURE_TYPES: Readonly<Record<number, MeasureMapping>> = {
  1: { type: "body_mass", unit: "kg" },
  4: { type: "height", unit: "cm", exponent: 2 },
  5: { type: "lean_body_mass", unit: "kg" },
  6: { type: "body_fat_percentage", unit: "%" },
  8: { type: "fat_mass", unit: "kg" },
  9: { type: "blood_pressure_diastolic", unit: "mmHg" },
  10: { type: "blood_pressure_systolic", unit: "mmHg" },
  11: { type: "heart_rate", unit: "count/min" },
  12: { type: "temperature", unit: "degC" },
  54: { type: "oxygen_saturation", unit: "%" },
  71: { type: "body_temperature", unit: "degC" },
  73: { type: "skin_temperature", unit: "degC" },
  76: { type: "muscle_mass", unit: "kg" },
  77: { type: "body_water_mass", unit: "kg" },
  88: { type: "bone_mass", unit: "kg" },
  91: { type: "pulse_wave_velocity", unit: "m/s" },
  123: { type: "vo2_max", unit: "mL/(kg.min)" },
  155: { type: "vascular_age", unit: "a" },
  168: { type: "extracellular_water_mass", unit: "kg" },
  169: { type: "intracellular_water_mass", unit: "kg" },
  170: { type: "visceral_fat_index", unit: "{index}" },
  226: { type: "basal_metabolic_rate", unit: "kcal/d" },
  227: { type: "metabolic_age", unit: "a" },
};

/**
 * Types Withings documents that svc does not map (ECG intervals and results, nerve health
 * and electrodermal scores, segmental body composition): left out without a rejection.
 */
export const UNMAPPED_MEASURE_TYPES: ReadonlySet<number> = new Set([130, 135, 136, 137, 138, 139, 158, 159, 167, 173, 174, 175, 196, 197, 198, 229]);

/**
 * The notification categories (`appli`) svc subscribes to, by the data type name a pull
 * carries, with the measure types each one announces (Withings' notification table).
 */
export const WITHINGS_NOTIFICATION_APPLIS = {
  body: 1,
  temperature: 2,
  blood_pressure: 4,
  activity: 16,
  sleep: 44,
} as const;

export type WithingsDataType = keyof typeof WITHINGS_NOTIFICATION_APPLIS;

/** Notify's user events category (`action` unlink, delete...): subscribed to see an unlink. */
export const WITHINGS_USER_EVENTS_APPLI = 46;

export const MEASURE_GROUPS: Readonly<Record<"body" | "temperature" | "blood_pressure", readonly number[]>> = {
  body: [1, 4, 5, 6, 8, 11, 71, 73, 76, 77, 88, 91, 155, 168, 169, 170, 226, 227],
  temperature: [12, 71, 73],
  blood_pressure: [9, 10, 11, 54],
};

export const ALL_MAPPED_MEASURE_TYPES: readonly number[] = Object.keys(MEASURE_TYPES).map(Number);
