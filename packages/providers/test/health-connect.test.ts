import { findCategoryType, findQuantityType, toStorageUnit, type QuantitySampleRecord } from "@svc/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  checkHealthConnectLine,
  HEALTH_CONNECT_BATCH_SIZE,
  HEALTH_CONNECT_RECORD_TYPES,
  parseHealthConnectNdjson,
  type HealthConnectBatch,
} from "../src/health-connect/index.ts";

async function* iterate(lines: readonly string[]): AsyncGenerator<string> {
  for (const line of lines) yield line;
}

async function parse(lines: readonly string[]): Promise<HealthConnectBatch> {
  const all: HealthConnectBatch = {
    quantitySamples: [],
    categorySamples: [],
    sleepSessions: [],
    workouts: [],
    nutritionLogs: [],
    dailySummaries: [],
    heartbeatSeries: [],
    ecgRecordings: [],
    rejected: [],
    deletedExternalIds: [],
  };
  for await (const batch of parseHealthConnectNdjson(iterate(lines))) {
    for (const key of Object.keys(all) as Array<keyof HealthConnectBatch>) (all[key] as unknown[]).push(...(batch[key] as unknown[]));
  }
  return all;
}

const META = {
  id: "rec-1",
  dataOrigin: "com.sec.android.app.shealth",
  lastModifiedTime: "2024-05-01T08:00:00Z",
  device: { manufacturer: "Samsung", model: "SM-R930", type: 1 },
  recordingMethod: 2,
  clientRecordId: "client-1",
};
const INTERVAL = { startTime: "2024-05-01T06:00:00Z", startZoneOffset: "+02:00", endTime: "2024-05-01T07:00:00Z", endZoneOffset: "+02:00" };
const INSTANT = { time: "2024-05-01T06:30:00Z", zoneOffset: "+02:00" };

const line = (recordType: string, fields: Record<string, unknown>, metadata: Record<string, unknown> = META) =>
  JSON.stringify({ recordType, metadata, ...fields });

/** Every quantity sample of a catalog type must carry a unit the writer converts. */
function expectStorable(samples: readonly QuantitySampleRecord[]): void {
  for (const s of samples) {
    const type = findQuantityType(s.type);
    if (!type) {
      expect(s.unit, `${s.type} is outside the catalog and needs a unit`).toBeTruthy();
      continue;
    }
    const converted = toStorageUnit(type, s.value, s.unit);
    expect("error" in converted ? converted.error : "ok", `${s.type} in ${s.unit}`).toBe("ok");
  }
}

function only<T>(items: readonly T[]): T {
  expect(items).toHaveLength(1);
  return items[0] as T;
}

describe("quantity records", () => {
  const cases: Array<[string, Record<string, unknown>, { type: string; value: number; unit: string; instant?: boolean }]> = [
    ["Steps", { ...INTERVAL, count: 1234 }, { type: "step_count", value: 1234, unit: "count" }],
    ["Distance", { ...INTERVAL, distance: { inMeters: 850.5 } }, { type: "distance_walking_running", value: 850.5, unit: "m" }],
    ["ActiveCaloriesBurned", { ...INTERVAL, energy: { inKilocalories: 120 } }, { type: "active_energy_burned", value: 120, unit: "kcal" }],
    ["TotalCaloriesBurned", { ...INTERVAL, energy: { inCalories: 2_000_000 } }, { type: "total_energy_burned", value: 2_000_000, unit: "cal" }],
    ["FloorsClimbed", { ...INTERVAL, floors: 3 }, { type: "flights_climbed", value: 3, unit: "count" }],
    ["ElevationGained", { ...INTERVAL, elevation: { inFeet: 100 } }, { type: "elevation_gained", value: 30.48, unit: "m" }],
    ["Hydration", { ...INTERVAL, volume: { inLiters: 0.5 } }, { type: "dietary_water", value: 0.5, unit: "L" }],
    ["WheelchairPushes", { ...INTERVAL, count: 40 }, { type: "push_count", value: 40, unit: "count" }],
    ["Weight", { ...INSTANT, weight: { inKilograms: 72.5 } }, { type: "body_mass", value: 72.5, unit: "kg", instant: true }],
    ["Height", { ...INSTANT, height: { inMeters: 1.8 } }, { type: "height", value: 1.8, unit: "m", instant: true }],
    ["BodyFat", { ...INSTANT, percentage: { value: 21.5 } }, { type: "body_fat_percentage", value: 21.5, unit: "%", instant: true }],
    ["OxygenSaturation", { ...INSTANT, percentage: 97 }, { type: "oxygen_saturation", value: 97, unit: "%", instant: true }],
    ["RestingHeartRate", { ...INSTANT, beatsPerMinute: 52 }, { type: "resting_heart_rate", value: 52, unit: "count/min", instant: true }],
    ["HeartRateVariabilityRmssd", { ...INSTANT, heartRateVariabilityMillis: 45.2 }, { type: "hrv_rmssd", value: 45.2, unit: "ms", instant: true }],
    ["RespiratoryRate", { ...INSTANT, rate: 14.5 }, { type: "respiratory_rate", value: 14.5, unit: "count/min", instant: true }],
    ["BodyTemperature", { ...INSTANT, temperature: { inCelsius: 36.8 }, measurementLocation: 1 }, { type: "body_temperature", value: 36.8, unit: "degC", instant: true }],
    ["BasalBodyTemperature", { ...INSTANT, temperature: { inFahrenheit: 97.9 } }, { type: "basal_body_temperature", value: 97.9, unit: "degF", instant: true }],
    ["BloodGlucose", { ...INSTANT, level: { inMillimolesPerLiter: 5.4 }, specimenSource: 2, mealType: 1, relationToMeal: 3 }, { type: "blood_glucose", value: 5.4, unit: "mmol/L", instant: true }],
    ["Vo2Max", { ...INSTANT, vo2MillilitersPerMinuteKilogram: 48.3, measurementMethod: 2 }, { type: "vo2_max", value: 48.3, unit: "mL/min/kg", instant: true }],
    ["BasalMetabolicRate", { ...INSTANT, basalMetabolicRate: { inKilocaloriesPerDay: 1650 } }, { type: "basal_metabolic_rate", value: 1650, unit: "kcal/d", instant: true }],
    ["LeanBodyMass", { ...INSTANT, mass: { inKilograms: 58 } }, { type: "lean_body_mass", value: 58, unit: "kg", instant: true }],
    ["BoneMass", { ...INSTANT, mass: { inPounds: 6.6 } }, { type: "bone_mass", value: 6.6, unit: "lb", instant: true }],
    ["BodyWaterMass", { ...INSTANT, mass: { value: 40, unit: "kilograms" } }, { type: "body_water_mass", value: 40, unit: "kg", instant: true }],
  ];

  it.each(cases)("%s", async (recordType, fields, expected) => {
    const parsed = await parse([line(recordType, fields)]);
    expect(parsed.rejected).toEqual([]);
    const s = only(parsed.quantitySamples);
    expect(s).toMatchObject({ type: expected.type, unit: expected.unit, external_id: "rec-1", locator: "line 1", timezone: "+02:00" });
    expect(s.value).toBeCloseTo(expected.value, 6);
    if (expected.instant) {
      expect(s.start_date.toISOString()).toBe("2024-05-01T06:30:00.000Z");
      expect(s.end_date?.toISOString()).toBe("2024-05-01T06:30:00.000Z");
    } else {
      expect(s.start_date.toISOString()).toBe("2024-05-01T06:00:00.000Z");
      expect(s.end_date?.toISOString()).toBe("2024-05-01T07:00:00.000Z");
    }
    expectStorable(parsed.quantitySamples);
  });

  it("blood pressure is two samples, with position and location in metadata", async () => {
    const parsed = await parse([
      line("BloodPressure", { ...INSTANT, systolic: { inMillimetersOfMercury: 121 }, diastolic: { value: 79, unit: "millimeters_of_mercury" }, bodyPosition: 2, measurementLocation: 3 }),
    ]);
    expect(parsed.quantitySamples.map((s) => [s.type, s.value, s.unit])).toEqual([
      ["blood_pressure_systolic", 121, "mmHg"],
      ["blood_pressure_diastolic", 79, "mmHg"],
    ]);
    expect(parsed.quantitySamples[0]?.metadata).toMatchObject({ body_position: "sitting_down", measurement_location: "left_upper_arm" });
    expectStorable(parsed.quantitySamples);
  });

  it("keeps glucose, temperature and VO2max details in metadata", async () => {
    const parsed = await parse([
      line("BloodGlucose", { ...INSTANT, level: { inMilligramsPerDeciliter: 97 }, specimenSource: 2, mealType: 1, relationToMeal: 3 }),
      line("BodyTemperature", { ...INSTANT, temperature: { inCelsius: 36.8 }, measurementLocation: 9 }),
      line("Vo2Max", { ...INSTANT, vo2MillilitersPerMinuteKilogram: 48, measurementMethod: 1 }),
    ]);
    expect(parsed.quantitySamples.map((s) => s.metadata)).toMatchObject([
      { specimen_source: "capillary_blood", meal_type: "breakfast", relation_to_meal: "before_meal" },
      { measurement_location: "wrist" },
      { measurement_method: "metabolic_cart" },
    ]);
  });

  it("series records give one sample per entry, each with an id of its own", async () => {
    const parsed = await parse([
      line("HeartRate", { ...INTERVAL, samples: [{ time: "2024-05-01T06:00:05Z", beatsPerMinute: 61 }, { time: "2024-05-01T06:00:10Z", beatsPerMinute: 63 }] }),
      line("Speed", { ...INTERVAL, samples: [{ time: "2024-05-01T06:01:00Z", speed: { inKilometersPerHour: 36 } }] }),
      line("Power", { ...INTERVAL, samples: [{ time: "2024-05-01T06:01:00Z", power: { inWatts: 210 } }] }),
      line("StepsCadence", { ...INTERVAL, samples: [{ time: "2024-05-01T06:01:00Z", rate: 172 }] }),
      line("CyclingPedalingCadence", { ...INTERVAL, samples: [{ time: "2024-05-01T06:01:00Z", revolutionsPerMinute: 88 }] }),
      line("SkinTemperature", { ...INTERVAL, baseline: { inCelsius: 33.1 }, measurementLocation: 3, deltas: [{ time: "2024-05-01T06:02:00Z", delta: { inCelsius: -0.4 } }] }),
    ]);
    expect(parsed.rejected).toEqual([]);
    expect(parsed.quantitySamples.map((s) => [s.type, s.value, s.unit, s.start_date.toISOString(), s.external_id])).toEqual([
      ["heart_rate", 61, "count/min", "2024-05-01T06:00:05.000Z", "rec-1#2024-05-01T06:00:05.000Z"],
      ["heart_rate", 63, "count/min", "2024-05-01T06:00:10.000Z", "rec-1#2024-05-01T06:00:10.000Z"],
      ["speed", 10, "m/s", "2024-05-01T06:01:00.000Z", "rec-1#2024-05-01T06:01:00.000Z"],
      ["power", 210, "W", "2024-05-01T06:01:00.000Z", "rec-1#2024-05-01T06:01:00.000Z"],
      ["step_cadence", 172, "count/min", "2024-05-01T06:01:00.000Z", "rec-1#2024-05-01T06:01:00.000Z"],
      ["cycling_cadence", 88, "count/min", "2024-05-01T06:01:00.000Z", "rec-1#2024-05-01T06:01:00.000Z"],
      ["skin_temperature_deviation", -0.4, "degC", "2024-05-01T06:02:00.000Z", "rec-1#2024-05-01T06:02:00.000Z"],
    ]);
    expect(parsed.quantitySamples.at(-1)?.metadata).toMatchObject({ baseline_celsius: 33.1, measurement_location: "wrist" });
    expectStorable(parsed.quantitySamples);
  });

  it("rejects one bad sample of a series and keeps the others", async () => {
    const parsed = await parse([
      line("HeartRate", { ...INTERVAL, samples: [{ time: "2024-05-01T06:00:05Z", beatsPerMinute: "fast" }, { time: "2024-05-01T06:00:10Z", beatsPerMinute: 63 }] }),
    ]);
    expect(parsed.quantitySamples.map((s) => s.value)).toEqual([63]);
    expect(parsed.rejected).toEqual([{ recordKind: "quantity_sample", locator: "line 1, samples[0]", reason: "samples[0].beatsPerMinute is not a finite number" }]);
  });
});

describe("units", () => {
  it("takes the first getter in the storage unit's order when a client sends all of them", async () => {
    const parsed = await parse([line("Weight", { ...INSTANT, weight: { inGrams: 72500, inKilograms: 72.5, inPounds: 159.8 } })]);
    expect(only(parsed.quantitySamples)).toMatchObject({ value: 72.5, unit: "kg" });
  });

  it("reads {value, unit} with Health Connect's unit names and symbols", async () => {
    const parsed = await parse([
      line("Height", { ...INSTANT, height: { value: 180, unit: "CENTIMETERS" } }),
      line("Hydration", { ...INTERVAL, volume: { value: 8, unit: "fluid_ounces_us" } }),
      line("BodyTemperature", { ...INSTANT, temperature: { value: 98.6, unit: "fahrenheit" } }),
    ]);
    expect(parsed.quantitySamples.map((s) => [s.value, s.unit])).toEqual([
      [180, "cm"],
      [8, "fl_oz_us"],
      [98.6, "degF"],
    ]);
    expectStorable(parsed.quantitySamples);
  });

  it("refuses `calories` in the {value, unit} spelling as ambiguous, and unknown units", async () => {
    const parsed = await parse([
      line("ActiveCaloriesBurned", { ...INTERVAL, energy: { value: 120, unit: "calories" } }),
      line("Weight", { ...INSTANT, weight: { value: 72, unit: "stone-ish" } }),
      line("Weight", { ...INSTANT, weight: 72 }),
    ]);
    expect(parsed.quantitySamples).toEqual([]);
    expect(parsed.rejected.map((r) => [r.locator, r.reason])).toEqual([
      ["line 1", "energy.unit calories is ambiguous (small or food calorie); send kilocalories or inCalories"],
      ["line 2", "weight.unit is not a mass unit svc knows"],
      ["line 3", "weight is not a mass object"],
    ]);
  });
});

describe("provenance", () => {
  it("reads vendor, device, origin and recording method", async () => {
    const parsed = await parse([line("Steps", { ...INTERVAL, count: 10 }, { ...META, recordingMethod: 3 })]);
    expect(only(parsed.quantitySamples)).toMatchObject({
      source: "samsung",
      device: "SM-R930",
      device_model: "SM-R930",
      on_body: true,
      source_name: "com.sec.android.app.shealth",
      source_bundle_id: "com.sec.android.app.shealth",
      was_user_entered: true,
      metadata: {
        record_type: "Steps",
        data_origin: "com.sec.android.app.shealth",
        device_manufacturer: "Samsung",
        device_type: "watch",
        recording_method: "manual_entry",
        client_record_id: "client-1",
        last_modified_time: "2024-05-01T08:00:00.000Z",
      },
    });
  });

  it.each([
    [0, false],
    [1, true],
    [2, false],
    [3, false],
    [4, true],
    [5, false],
    [6, true],
    [7, true],
    [8, false],
  ])("device type %i is on the body: %s", async (type, onBody) => {
    const parsed = await parse([line("Steps", { ...INTERVAL, count: 10 }, { ...META, device: { type } })]);
    expect(only(parsed.quantitySamples).on_body).toBe(onBody);
  });

  it.each([
    ["com.sec.android.app.shealth", "samsung"],
    ["com.google.android.apps.fitness", "google"],
    ["com.garmin.android.apps.connectmobile", "garmin"],
    ["com.fitbit.FitbitMobile", "fitbit"],
    ["com.ouraring.oura", "oura"],
    ["com.xiaomi.wearable", "xiaomi"],
    ["com.mi.health", "xiaomi"],
    ["org.example.unknown", null],
  ])("dataOrigin %s gives source %s without a known manufacturer", async (origin, source) => {
    const parsed = await parse([line("Steps", { ...INTERVAL, count: 10 }, { id: "x", dataOrigin: { packageName: origin } })]);
    expect(only(parsed.quantitySamples).source).toBe(source);
  });

  it("prefers the device's manufacturer to the app that relayed the record", async () => {
    const parsed = await parse([line("Steps", { ...INTERVAL, count: 10 }, { id: "x", dataOrigin: "com.sec.android.app.shealth", device: { manufacturer: "Google", type: 2 } })]);
    expect(only(parsed.quantitySamples)).toMatchObject({ source: "google", on_body: false });
  });

  it("reads zone offsets in their java.time spellings and times as epoch milliseconds", async () => {
    const parsed = await parse([
      line("Weight", { time: "2024-05-01T08:30:00.123456789+02:00", zoneOffset: "Z", weight: { inKilograms: 70 } }),
      line("Weight", { time: 1714552200000, zoneOffset: -18000, weight: { inKilograms: 70 } }),
      line("Weight", { time: "2024-05-01T06:30:00Z", weight: { inKilograms: 70 } }),
    ]);
    expect(parsed.quantitySamples.map((s) => [s.start_date.toISOString(), s.timezone])).toEqual([
      ["2024-05-01T06:30:00.123Z", "+00:00"],
      ["2024-05-01T08:30:00.000Z", "-05:00"],
      ["2024-05-01T06:30:00.000Z", null],
    ]);
  });

  it("refuses a time without a zone", async () => {
    const parsed = await parse([line("Weight", { time: "2024-05-01T06:30:00", weight: { inKilograms: 70 } })]);
    expect(parsed.rejected).toEqual([{ recordKind: "quantity_sample", locator: "line 1", reason: "time is missing or not an ISO-8601 instant with a zone" }]);
  });
});

describe("sleep sessions", () => {
  it("maps every stage", async () => {
    const stages = [0, 1, 2, 3, 4, 5, 6, 7].map((stage, i) => ({
      startTime: `2024-05-01T0${i}:00:00Z`,
      endTime: `2024-05-01T0${i}:30:00Z`,
      stage,
    }));
    const parsed = await parse([
      line("SleepSession", { startTime: "2024-04-30T23:30:00Z", startZoneOffset: "+02:00", endTime: "2024-05-01T08:00:00Z", title: "Night", stages }),
    ]);
    const session = only(parsed.sleepSessions);
    expect(session).toMatchObject({ kind: "sleep", external_id: "rec-1", timezone: "+02:00", source: "samsung", on_body: true, metadata: { title: "Night" } });
    expect(session.phases?.map((p) => p.stage)).toEqual(["in_bed", "awake", "asleep", "out_of_bed", "light", "deep", "rem", "awake"]);
  });

  it("rejects a session whose stage is not a Health Connect stage", async () => {
    const parsed = await parse([line("SleepSession", { ...INTERVAL, stages: [{ startTime: INTERVAL.startTime, endTime: INTERVAL.endTime, stage: 9 }] })]);
    expect(parsed.sleepSessions).toEqual([]);
    expect(parsed.rejected).toEqual([{ recordKind: "sleep_session", locator: "line 1", reason: "stages[0].stage is not a sleep stage svc knows" }]);
  });
});

describe("exercise sessions", () => {
  it.each([
    [56, "running", "running"],
    [57, "running", "running_treadmill"],
    [8, "cycling", "biking"],
    [9, "cycling", "biking_stationary"],
    [79, "walking", "walking"],
    [74, "swimming", "swimming_pool"],
    [73, "swimming", "swimming_open_water"],
    [70, "strength_training", "strength_training"],
    [36, "high_intensity_interval_training", "high_intensity_interval_training"],
    [61, "snow_sports", "skiing"],
    [83, "yoga", "yoga"],
    [0, "other", "other"],
  ])("exercise type %i is %s", async (exerciseType, activity, name) => {
    const parsed = await parse([line("ExerciseSession", { ...INTERVAL, exerciseType })]);
    expect(only(parsed.workouts)).toMatchObject({ activity_type: activity, metadata: { exercise_type: exerciseType, exercise_type_name: name } });
  });

  it("stores an exercise type newer than svc's table as other, with its number", async () => {
    const parsed = await parse([line("ExerciseSession", { ...INTERVAL, exerciseType: 999 })]);
    const w = only(parsed.workouts);
    expect(w).toMatchObject({ activity_type: "other", metadata: { exercise_type: 999 } });
    expect(w.metadata).not.toHaveProperty("exercise_type_name");
  });

  it("names every Health Connect exercise type in snake_case", async () => {
    const { EXERCISE_TYPES } = await import("../src/health-connect/vocabulary.ts");
    for (const [hcName, activity] of Object.values(EXERCISE_TYPES)) {
      expect(hcName).toMatch(/^[a-z][a-z0-9_]*$/);
      expect(activity).toMatch(/^[a-z][a-z0-9_]{0,63}$/);
    }
  });

  it("keeps segments and laps in metadata and reads the route", async () => {
    const parsed = await parse([
      line("ExerciseSession", {
        ...INTERVAL,
        exerciseType: 56,
        title: "Morning run",
        notes: "easy",
        segments: [{ startTime: "2024-05-01T06:00:00Z", endTime: "2024-05-01T06:30:00Z", segmentType: 46, repetitions: 0 }],
        laps: [{ startTime: "2024-05-01T06:00:00Z", endTime: "2024-05-01T06:10:00Z", length: { inMeters: 1000 } }],
        exerciseRoute: {
          route: [
            { time: "2024-05-01T06:00:00Z", latitude: 52.5145, longitude: 13.3501, altitude: { inMeters: 34 }, horizontalAccuracy: { inMeters: 4 } },
            { time: "2024-05-01T06:00:05Z", latitude: 52.5146, longitude: 13.3503 },
          ],
        },
      }),
    ]);
    const w = only(parsed.workouts);
    expect(w).toMatchObject({
      activity_type: "running",
      name: "Morning run",
      timezone: "+02:00",
      external_id: "rec-1",
      metadata: {
        notes: "easy",
        segments: [{ start: "2024-05-01T06:00:00.000Z", end: "2024-05-01T06:30:00.000Z", segment_type: 46, repetitions: 0 }],
        laps: [{ start: "2024-05-01T06:00:00.000Z", end: "2024-05-01T06:10:00.000Z", length_meters: 1000 }],
      },
    });
    expect(w.route).toEqual([
      { timestamp: new Date("2024-05-01T06:00:00Z"), latitude: 52.5145, longitude: 13.3501, altitude: 34, accuracy: 4 },
      { timestamp: new Date("2024-05-01T06:00:05Z"), latitude: 52.5146, longitude: 13.3503, altitude: null, accuracy: null },
    ]);
  });

  it("reads the route as exerciseRouteResult holds it, and leaves it out when there is none", async () => {
    const parsed = await parse([
      line("ExerciseSession", { ...INTERVAL, exerciseType: 8, exerciseRouteResult: { exerciseRoute: { route: [{ time: "2024-05-01T06:00:00Z", latitude: 1, longitude: 2 }] } } }),
      line("ExerciseSession", { ...INTERVAL, exerciseType: 8 }),
    ]);
    expect(parsed.workouts[0]?.route).toHaveLength(1);
    expect(parsed.workouts[1]?.route).toBeUndefined();
  });
});

describe("nutrition", () => {
  it("maps the named amounts, the other nutrients and the meal type", async () => {
    const parsed = await parse([
      line("Nutrition", {
        ...INTERVAL,
        name: "Porridge",
        mealType: 1,
        energy: { inKilocalories: 350 },
        energyFromFat: { inKilocalories: 60 },
        protein: { inGrams: 12 },
        totalCarbohydrate: { inGrams: 55 },
        totalFat: { inGrams: 7 },
        dietaryFiber: { inGrams: 8 },
        sugar: { inGrams: 9 },
        sodium: { inMilligrams: 120 },
        caffeine: { inMilligrams: 95 },
        saturatedFat: { inGrams: 1.5 },
        vitaminC: { inMicrograms: 2000 },
      }),
      line("Nutrition", { ...INTERVAL, mealType: 0 }),
      line("Nutrition", { ...INTERVAL, mealType: "dinner" }),
    ]);
    const [log, empty, named] = parsed.nutritionLogs;
    expect(named?.meal_type).toBe("dinner");
    expect(log).toMatchObject({
      name: "Porridge",
      meal_type: "breakfast",
      energy_kcal: 350,
      protein_grams: 12,
      carbohydrates_grams: 55,
      fat_grams: 7,
      fiber_grams: 8,
      sugar_grams: 9,
      external_id: "rec-1",
      timezone: "+02:00",
    });
    expect(log?.sodium_milligrams).toBeCloseTo(120, 9);
    expect(log?.nutrients?.caffeine?.value).toBeCloseTo(95, 9);
    expect(log?.nutrients?.vitamin_c?.value).toBeCloseTo(2, 9);
    expect(log?.nutrients).toMatchObject({ caffeine: { unit: "mg" }, saturated_fat: { value: 1.5, unit: "g" }, energy_from_fat: { value: 60, unit: "kcal" } });
    expect(empty).toMatchObject({ meal_type: null });
  });
});

describe("category records", () => {
  const cases: Array<[string, Record<string, unknown>, string, string]> = [
    ["MenstruationFlow", { ...INSTANT, flow: 0 }, "menstrual_flow", "unspecified"],
    ["MenstruationFlow", { ...INSTANT, flow: 1 }, "menstrual_flow", "light"],
    ["MenstruationFlow", { ...INSTANT, flow: 2 }, "menstrual_flow", "medium"],
    ["MenstruationFlow", { ...INSTANT, flow: 3 }, "menstrual_flow", "heavy"],
    ["MenstruationPeriod", { ...INTERVAL }, "menstruation_period", "not_applicable"],
    ["IntermenstrualBleeding", { ...INSTANT }, "intermenstrual_bleeding", "not_applicable"],
    ["CervicalMucus", { ...INSTANT, appearance: 5, sensation: 2 }, "cervical_mucus_quality", "egg_white"],
    ["OvulationTest", { ...INSTANT, result: 0 }, "ovulation_test_result", "inconclusive"],
    ["OvulationTest", { ...INSTANT, result: 1 }, "ovulation_test_result", "positive"],
    ["OvulationTest", { ...INSTANT, result: 2 }, "ovulation_test_result", "high"],
    ["OvulationTest", { ...INSTANT, result: 3 }, "ovulation_test_result", "negative"],
    ["SexualActivity", { ...INSTANT }, "sexual_activity", "unspecified"],
    ["SexualActivity", { ...INSTANT, protectionUsed: 1 }, "sexual_activity", "protected"],
    ["SexualActivity", { ...INSTANT, protectionUsed: 2 }, "sexual_activity", "unprotected"],
    ["MindfulnessSession", { ...INTERVAL, mindfulnessSessionType: 1, title: "Calm" }, "mindful_session", "meditation"],
    ["MindfulnessSession", { ...INTERVAL, mindfulnessSessionType: 5 }, "mindful_session", "unguided"],
    ["MindfulnessSession", { ...INTERVAL, mindfulnessSessionType: 0 }, "mindful_session", "unspecified"],
  ];

  it.each(cases)("%s %j is %s %s", async (recordType, fields, type, value) => {
    const parsed = await parse([line(recordType, fields)]);
    expect(parsed.rejected).toEqual([]);
    const s = only(parsed.categorySamples);
    expect(s).toMatchObject({ type, value, external_id: "rec-1", source: "samsung", timezone: "+02:00" });
    expect(findCategoryType(type)?.values).toContain(value);
  });

  it("keeps the cervical mucus sensation and refuses one without an appearance", async () => {
    const parsed = await parse([line("CervicalMucus", { ...INSTANT, appearance: 1, sensation: 3 }), line("CervicalMucus", { ...INSTANT, sensation: 1 })]);
    expect(only(parsed.categorySamples).metadata).toMatchObject({ sensation: "heavy" });
    expect(parsed.rejected.map((r) => r.locator)).toEqual(["line 2"]);
  });

  it("refuses an ovulation test without a result and an unknown flow", async () => {
    const parsed = await parse([line("OvulationTest", { ...INSTANT }), line("MenstruationFlow", { ...INSTANT, flow: 7 })]);
    expect(parsed.rejected).toEqual([
      { recordKind: "category_sample", locator: "line 1", reason: "result is missing" },
      { recordKind: "category_sample", locator: "line 2", reason: "flow is not one of the values svc knows for MenstruationFlow" },
    ]);
  });
});

describe("every record type", () => {
  it("is read by the parser (the brief's list)", () => {
    expect([...HEALTH_CONNECT_RECORD_TYPES].sort()).toEqual(
      [
        "Steps", "HeartRate", "SleepSession", "ExerciseSession", "Weight", "Height", "BodyFat", "BloodPressure",
        "OxygenSaturation", "RestingHeartRate", "HeartRateVariabilityRmssd", "RespiratoryRate", "BodyTemperature",
        "BasalBodyTemperature", "BloodGlucose", "Vo2Max", "Distance", "ActiveCaloriesBurned", "TotalCaloriesBurned",
        "FloorsClimbed", "ElevationGained", "Hydration", "Nutrition", "MenstruationFlow", "MenstruationPeriod",
        "CervicalMucus", "OvulationTest", "SexualActivity", "IntermenstrualBleeding", "Speed", "Power", "StepsCadence",
        "CyclingPedalingCadence", "WheelchairPushes", "BasalMetabolicRate", "LeanBodyMass", "BoneMass", "BodyWaterMass",
        "SkinTemperature", "MindfulnessSession",
      ].sort(),
    );
  });

  it("accepts the class name with its Record suffix", async () => {
    const parsed = await parse([line("StepsRecord", { ...INTERVAL, count: 5 })]);
    expect(only(parsed.quantitySamples).type).toBe("step_count");
  });
});

describe("deleted records and bad lines", () => {
  it("collects the ids of Deleted lines", async () => {
    const parsed = await parse([
      JSON.stringify({ recordType: "Deleted", recordId: "abc" }),
      line("Steps", { ...INTERVAL, count: 1 }),
      JSON.stringify({ recordType: "Deleted", recordId: "def" }),
    ]);
    expect(parsed.deletedExternalIds).toEqual(["abc", "def"]);
    expect(parsed.quantitySamples).toHaveLength(1);
  });

  it("names the line of a structural problem", () => {
    expect(checkHealthConnectLine("", 1)).toBeNull();
    expect(checkHealthConnectLine(line("Steps", { ...INTERVAL, count: 1 }), 2)).toBeNull();
    expect(checkHealthConnectLine(JSON.stringify({ recordType: "SomethingNew" }), 2)).toBeNull();
    expect(checkHealthConnectLine("{not json", 3)).toBe("line 3: not valid JSON");
    expect(checkHealthConnectLine("[1,2]", 4)).toBe("line 4: not a JSON object");
    expect(checkHealthConnectLine(JSON.stringify({ count: 5 }), 5)).toBe("line 5: recordType is missing or not a string");
    expect(checkHealthConnectLine(JSON.stringify({ recordType: "Deleted" }), 6)).toBe("line 6: a Deleted line needs recordId as a string of 1 to 256 characters");
  });

  it("rejects bad lines and records it cannot read, naming the line, and goes on", async () => {
    const parsed = await parse([
      "{not json",
      "",
      JSON.stringify({ recordType: "ActivityIntensity", startTime: INTERVAL.startTime }),
      line("Steps", { ...INTERVAL, count: "many" }),
      line("Steps", { ...INTERVAL, endTime: "2024-05-01T05:00:00Z", count: 3 }),
      line("Steps", { ...INTERVAL, count: 7 }),
      JSON.stringify({ recordType: "ActivityIntensity" }),
      JSON.stringify({ recordType: "Café 42" }),
    ]);
    expect(parsed.rejected).toEqual([
      { recordKind: "health_connect_line", locator: "line 1", reason: "not valid JSON" },
      { recordKind: "quantity_sample", locator: "line 4", reason: "count is not a finite number" },
      { recordKind: "quantity_sample", locator: "line 5", reason: "endTime is before startTime" },
      { recordKind: "health_connect_record", locator: "line 3", reason: "2 record(s) of recordType ActivityIntensity svc does not read; the first at line 3" },
      { recordKind: "health_connect_record", locator: "line 8", reason: "1 record(s) of record types svc does not read; the first at line 8" },
    ]);
    expect(only(parsed.quantitySamples)).toMatchObject({ value: 7, locator: "line 6" });
  });

  it("keeps the numbers of numbered lines", async () => {
    async function* numbered() {
      yield { line: line("Steps", { ...INTERVAL, count: 1 }), number: 2 };
      yield { line: "{oops", number: 5 };
    }
    const rejected: string[] = [];
    const locators: string[] = [];
    for await (const batch of parseHealthConnectNdjson(numbered())) {
      rejected.push(...batch.rejected.map((r) => r.locator));
      locators.push(...batch.quantitySamples.map((s) => s.locator ?? ""));
    }
    expect(locators).toEqual(["line 2"]);
    expect(rejected).toEqual(["line 5"]);
  });

  it("yields batches of about the batch size", async () => {
    const lines = Array.from({ length: 12_001 }, (_, i) => line("Steps", { ...INTERVAL, count: i }, { id: `r${i}` }));
    const sizes: number[] = [];
    for await (const batch of parseHealthConnectNdjson(iterate(lines))) sizes.push(batch.quantitySamples.length);
    expect(sizes).toEqual([HEALTH_CONNECT_BATCH_SIZE, HEALTH_CONNECT_BATCH_SIZE, 2001]);
  });
});

describe("properties", () => {
  const SECRET = 987654.321;

  const valid = fc.constantFrom(
    line("Steps", { ...INTERVAL, count: 10 }),
    line("HeartRate", { ...INTERVAL, samples: [{ time: INSTANT.time, beatsPerMinute: 60 }] }),
    line("Weight", { ...INSTANT, weight: { inKilograms: 70 } }),
    line("BloodPressure", { ...INSTANT, systolic: { inMillimetersOfMercury: 120 }, diastolic: { inMillimetersOfMercury: 80 } }),
    line("SleepSession", { ...INTERVAL, stages: [{ startTime: INTERVAL.startTime, endTime: INTERVAL.endTime, stage: 4 }] }),
    line("ExerciseSession", { ...INTERVAL, exerciseType: 56, exerciseRoute: { route: [{ time: INSTANT.time, latitude: 1, longitude: 2 }] } }),
    line("Nutrition", { ...INTERVAL, energy: { inKilocalories: 100 }, protein: { inGrams: 3 } }),
    line("MenstruationFlow", { ...INSTANT, flow: 2 }),
    line("SkinTemperature", { ...INTERVAL, deltas: [{ time: INSTANT.time, delta: { inCelsius: 0.2 } }] }),
    JSON.stringify({ recordType: "Deleted", recordId: "x" }),
  );

  /** A valid line with one value somewhere replaced by anything JSON can hold. */
  const mutated = fc
    .tuple(valid, fc.nat(), fc.jsonValue(), fc.boolean())
    .map(([text, n, replacement, drop]) => {
      const value = JSON.parse(text) as unknown;
      const paths: Array<[Record<string, unknown> | unknown[], string | number]> = [];
      const walk = (node: unknown) => {
        if (Array.isArray(node)) node.forEach((child, i) => (paths.push([node, i]), walk(child)));
        else if (node && typeof node === "object") for (const [k, child] of Object.entries(node)) (paths.push([node as Record<string, unknown>, k]), walk(child));
      };
      walk(value);
      const target = paths[n % Math.max(paths.length, 1)];
      if (target) {
        const [parent, key] = target;
        if (drop && !Array.isArray(parent)) delete (parent as Record<string, unknown>)[key as string];
        else (parent as Record<string | number, unknown>)[key] = replacement;
      }
      return JSON.stringify(value);
    });

  const anyLine = fc.oneof(fc.string(), fc.string({ unit: "binary" }), fc.json(), valid, mutated, mutated.map((l) => l.slice(0, l.length >> 1)));

  it("never throws on random and mutated lines, and rejects exactly the lines the check refuses", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(anyLine, { maxLength: 20 }), async (lines) => {
        const parsed = await parse(lines);
        const refused = lines.map((l, i) => (checkHealthConnectLine(l, i + 1) === null ? null : `line ${i + 1}`)).filter((l) => l !== null);
        const structural = parsed.rejected.filter((r) => r.recordKind === "health_connect_line").map((r) => r.locator);
        expect(structural).toEqual(refused);
        for (const s of parsed.quantitySamples) {
          expect(Number.isNaN(s.start_date.getTime())).toBe(false);
          expect(typeof s.value).toBe("number");
        }
      }),
      { numRuns: 300 },
    );
  });

  it("never quotes a value in a rejection reason", async () => {
    const planted = fc.tuple(valid, fc.nat()).map(([text, n]) => {
      const value = JSON.parse(text) as Record<string, unknown>;
      const keys = Object.keys(value).filter((k) => k !== "recordType" && k !== "metadata");
      const key = keys[n % Math.max(keys.length, 1)];
      if (key) value[key] = n % 2 === 0 ? String(SECRET) : { value: String(SECRET), unit: String(SECRET) };
      return JSON.stringify(value);
    });
    await fc.assert(
      fc.asyncProperty(fc.array(planted, { minLength: 1, maxLength: 5 }), async (lines) => {
        const parsed = await parse(lines);
        for (const r of parsed.rejected) expect(r.reason).not.toContain("987654");
      }),
      { numRuns: 200 },
    );
  });
});
