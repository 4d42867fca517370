import { fixturesDir } from "@svc/testing";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import ucum from "@lhncbc/ucum-lhc";
import { describe, expect, it, vi } from "vitest";
import { CATEGORY_TYPES, findCategoryType } from "../src/records/catalog/category-types.ts";
import { findQuantityType, QUANTITY_TYPES, type QuantityType } from "../src/records/catalog/quantity-types.ts";
import { toStorageUnit } from "../src/records/catalog/units.ts";

// Public FHIR R4 examples, read where they lie; never copied into the repository.
const FIXTURES = fixturesDir();
const LOINC = "http://loinc.org";
const SNAKE_CASE = /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/;

const ucumUtils = ucum.UcumLhcUtils.getInstance();

function type(name: string): QuantityType {
  const found = findQuantityType(name);
  if (!found) throw new Error(`no quantity type ${name}`);
  return found;
}

function converted(name: string, value: number, unit: string | undefined): number {
  const result = toStorageUnit(type(name), value, unit);
  if ("error" in result) throw new Error(result.error);
  return result.value;
}

function errorOf(name: string, value: number, unit: string | undefined): string {
  const result = toStorageUnit(type(name), value, unit);
  if (!("error" in result)) throw new Error(`${name}: ${unit} was accepted`);
  return result.error;
}

interface Coding {
  system?: string;
  code?: string;
}

interface Observation {
  code: { coding: Coding[] };
  component?: { code: { coding: Coding[] } }[];
}

function loincCodes(codings: Coding[]): string[] {
  return codings.filter((coding) => coding.system === LOINC).map((coding) => coding.code ?? "");
}

function readJson(file: string): unknown {
  return JSON.parse(readFileSync(join(FIXTURES, file), "utf8"));
}

describe("quantity type catalog", () => {
  it("holds at least 60 types with unique snake_case names", () => {
    expect(QUANTITY_TYPES.length).toBeGreaterThanOrEqual(60);
    const names = QUANTITY_TYPES.map((t) => t.name);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(name).toMatch(SNAKE_CASE);
  });

  it("finds types by name", () => {
    expect(findQuantityType("heart_rate")?.unit).toBe("count/min");
    expect(findQuantityType("HeartRate")).toBeUndefined();
    expect(findQuantityType("constructor")).toBeUndefined();
  });

  it.each(QUANTITY_TYPES.map((t) => [t.name, t]))("%s: ucum_unit is valid UCUM", (_name, t) => {
    const result = ucumUtils.validateUnitString(t.ucum_unit);
    expect(result.status, result.msg.join("; ")).toBe("valid");
  });

  it.each(QUANTITY_TYPES.map((t) => [t.name, t]))("%s: the storage unit converts to itself", (_name, t) => {
    for (const unit of [t.unit, t.ucum_unit, undefined]) {
      expect(toStorageUnit(t, 12.5, unit)).toEqual({
        value: 12.5,
        unit: t.unit,
        original_value: 12.5,
        original_unit: unit ?? t.unit,
      });
    }
  });

  it("has a description and a well-formed LOINC code or null on every type", () => {
    for (const t of QUANTITY_TYPES) {
      expect(t.description.length).toBeGreaterThan(0);
      if (t.loinc_code !== null) expect(t.loinc_code).toMatch(/^\d{1,7}-\d$/);
    }
  });

  it("has the eight self-report types", () => {
    const kinds = ["feeling", "mood", "stress", "energy", "sleep_quality", "muscle_soreness", "session_effort", "pain"];
    for (const kind of kinds) {
      expect(findQuantityType(`reported_${kind}`)).toMatchObject({
        group: "reported",
        merge_kind: "other",
        unit: "score",
        ucum_unit: "{score}",
      });
    }
  });

  it("sums only cumulative types and merges counts as counts", () => {
    for (const t of QUANTITY_TYPES) {
      if (t.merge_kind === "counts") expect(t.aggregation, t.name).toBe("cumulative");
    }
    expect(type("step_count").aggregation).toBe("cumulative");
    expect(type("heart_rate").aggregation).toBe("discrete");
  });
});

describe("LOINC codes of vital signs agree with the FHIR R4 examples", () => {
  const examples: [string, string][] = [
    ["fhir_r4_observation-example-heart-rate.json", "heart_rate"],
    ["fhir_r4_observation-example-respiratory-rate.json", "respiratory_rate"],
    ["fhir_r4_observation-example-satO2.json", "oxygen_saturation"],
    ["fhir_r4_observation-example-body-temperature.json", "body_temperature"],
    ["fhir_r4_observation-example-body-height.json", "height"],
    ["fhir_r4_observation-example.json", "body_mass"],
    ["fhir_r4_observation-example-bmi.json", "body_mass_index"],
  ];

  it.each(examples)("%s carries the code of %s", (file, name) => {
    const observation = readJson(file) as Observation;
    expect(loincCodes(observation.code.coding)).toContain(type(name).loinc_code);
  });

  it.each(["fhir_r4_observation-example-bloodpressure.json", "fhir_r4_observation-example-bloodpressure-dar.json"])(
    "%s carries the systolic and diastolic codes",
    (file) => {
      const observation = readJson(file) as Observation;
      const components = (observation.component ?? []).flatMap((c) => loincCodes(c.code.coding));
      expect(components).toEqual([type("blood_pressure_systolic").loinc_code, type("blood_pressure_diastolic").loinc_code]);
    },
  );

  it("matches the codes and units fixed by the vital signs profiles", () => {
    const summary = readJson("fhir_r4_vitalsigns_profiles.json") as {
      profiles: { name: string; fixed_codes: { element: string; fixedCode?: string }[]; fixed_units: { fixedCode?: string }[] }[];
    };
    const byProfile: Record<string, string[]> = {
      "observation-heartrate": ["heart_rate"],
      "observation-resprate": ["respiratory_rate"],
      "observation-oxygensat": ["oxygen_saturation"],
      "observation-bodytemp": ["body_temperature"],
      "observation-bodyheight": ["height"],
      "observation-bodyweight": ["body_mass"],
      "observation-bmi": ["body_mass_index"],
      "observation-bp": ["blood_pressure_systolic", "blood_pressure_diastolic"],
    };
    for (const [profileName, names] of Object.entries(byProfile)) {
      const profile = summary.profiles.find((p) => p.name === profileName);
      expect(profile, profileName).toBeDefined();
      const codes = (profile?.fixed_codes ?? [])
        .filter((c) => c.element.startsWith("Observation.code.coding") || c.element.startsWith("Observation.component"))
        .map((c) => c.fixedCode)
        .filter((code) => code !== undefined);
      const units = (profile?.fixed_units ?? []).map((u) => u.fixedCode).filter((code) => code !== undefined);
      for (const name of names) {
        expect(codes, profileName).toContain(type(name).loinc_code);
        if (units.length > 0) expect(units, profileName).toContain(type(name).ucum_unit);
      }
    }
  });

  it("reads every FHIR example fixture it was meant to", () => {
    const present = readdirSync(FIXTURES).filter((f) => f.startsWith("fhir_r4_observation-example"));
    for (const [file] of examples) expect(present).toContain(file);
  });
});

describe("toStorageUnit", () => {
  it("converts pounds to kilograms", () => {
    expect(converted("body_mass", 185, "lb")).toBeCloseTo(83.9146, 4);
    expect(converted("body_mass", 185, "[lb_av]")).toBeCloseTo(83.9146, 4);
    expect(converted("body_mass", 185, "pounds")).toBeCloseTo(83.9146, 4);
  });

  it("converts Fahrenheit to Celsius", () => {
    expect(converted("body_temperature", 98.6, "degF")).toBeCloseTo(37, 10);
    expect(converted("body_temperature", 212, "fahrenheit")).toBeCloseTo(100, 10);
    expect(converted("body_temperature", 37, "celsius")).toBe(37);
  });

  it("converts a temperature difference without the offset", () => {
    expect(converted("skin_temperature_deviation", 0.9, "degF")).toBeCloseTo(0.5, 10);
    expect(converted("skin_temperature_deviation", -0.4, "degC")).toBe(-0.4);
    expect(converted("skin_temperature_deviation", -0.4, "celsius")).toBe(-0.4);
  });

  it("converts miles, feet and inches", () => {
    expect(converted("distance_walking_running", 1, "mi")).toBeCloseTo(1609.344, 6);
    expect(converted("distance_walking_running", 2.5, "km")).toBeCloseTo(2500, 6);
    expect(converted("height", 6, "ft")).toBeCloseTo(182.88, 6);
    expect(converted("height", 1.8, "m")).toBeCloseTo(180, 6);
    expect(converted("waist_circumference", 32, "in")).toBeCloseTo(81.28, 6);
  });

  it("converts kilojoules and food calories to kilocalories", () => {
    expect(converted("active_energy_burned", 418.4, "kJ")).toBeCloseTo(100, 6);
    expect(converted("active_energy_burned", 250, "Cal")).toBeCloseTo(250, 6);
    expect(converted("active_energy_burned", 250, "kilocalories")).toBe(250);
    expect(converted("dietary_energy_consumed", 1000, "cal")).toBeCloseTo(1, 6);
  });

  it("converts glucose from mmol/L to mg/dL with the molar mass of glucose", () => {
    expect(converted("blood_glucose", 5.5, "mmol/L")).toBeCloseTo(5.5 * 18.0156, 6);
    expect(converted("blood_glucose", 5.5, "millimoles_per_liter")).toBeCloseTo(99.0858, 4);
    expect(converted("blood_glucose", 5.5, "mmol<180.15588000005408>/L")).toBeCloseTo(99.0858, 4);
  });

  it("converts a fraction to a percentage", () => {
    expect(converted("oxygen_saturation", 0.97, "fraction")).toBeCloseTo(97, 10);
    expect(converted("oxygen_saturation", 0.97, "1")).toBeCloseTo(97, 10);
    expect(converted("oxygen_saturation", 97, "percent")).toBe(97);
    expect(converted("body_fat_percentage", 21.5, "%")).toBe(21.5);
  });

  it("reads HealthKit and Health Connect spellings", () => {
    expect(converted("heart_rate", 62, "beats_per_minute")).toBe(62);
    expect(converted("heart_rate", 62, "count/min")).toBe(62);
    expect(converted("heart_rate", 1, "count/s")).toBeCloseTo(60, 10);
    expect(converted("respiratory_rate", 14, "breaths/min")).toBe(14);
    expect(converted("blood_pressure_systolic", 120, "millimeters_of_mercury")).toBe(120);
    expect(converted("body_mass", 72, "kilograms")).toBe(72);
    expect(converted("body_mass", 72, "Kilograms")).toBe(72);
    expect(converted("distance_cycling", 1200, "meters")).toBe(1200);
    expect(converted("step_count", 1200, "count")).toBe(1200);
    expect(converted("step_count", 1200, "steps")).toBe(1200);
    expect(converted("flights_climbed", 3, "floors")).toBe(3);
    expect(converted("vo2_max", 42.1, "mL/(kg*min)")).toBeCloseTo(42.1, 10);
    expect(converted("vo2_max", 42.1, "ml/kg*min")).toBeCloseTo(42.1, 10);
    expect(converted("vo2_max", 42.1, "mL/kg/min")).toBeCloseTo(42.1, 10);
    expect(converted("hrv_sdnn", 0.045, "s")).toBeCloseTo(45, 10);
    expect(converted("exercise_time", 1, "hr")).toBeCloseTo(60, 10);
    expect(converted("stand_time", 120, "s")).toBeCloseTo(2, 10);
    expect(converted("running_speed", 36, "km/hr")).toBeCloseTo(10, 10);
    expect(converted("dietary_water", 1, "L")).toBeCloseTo(1000, 10);
    expect(converted("dietary_water", 8, "fl_oz_us")).toBeCloseTo(236.5882, 4);
    expect(converted("dietary_sodium", 1, "g")).toBeCloseTo(1000, 10);
    expect(converted("electrodermal_activity", 2, "mcS")).toBe(2);
    expect(converted("environmental_audio_exposure", 70, "dBASPL")).toBe(70);
    expect(converted("insulin_delivery", 4, "IU")).toBe(4);
    expect(converted("body_mass_index", 22.4, "count")).toBe(22.4);
    expect(converted("sleep_score", 82, "score")).toBe(82);
  });

  it("keeps the value and unit as given", () => {
    expect(toStorageUnit(type("body_mass"), 150, "lb")).toEqual({
      value: 68.0388555,
      unit: "kg",
      original_value: 150,
      original_unit: "lb",
    });
  });

  it.each([undefined, "", "  "])("takes a missing or blank unit (%j) as the storage unit", (unit) => {
    expect(toStorageUnit(type("heart_rate"), 61, unit)).toEqual({
      value: 61,
      unit: "count/min",
      original_value: 61,
      original_unit: "count/min",
    });
  });

  const refused: [string, string][] = [
    ["heart_rate", "furlongs"],
    ["heart_rate", "constructor"],
    ["body_mass", "calories"],
    ["body_mass", "m"],
    ["body_mass", "degF"],
    ["heart_rate", "count"],
    ["heart_rate", "kg"],
    ["step_count", "%"],
    ["step_count", "{score}"],
    ["flights_climbed", "steps"],
    ["oxygen_saturation", "{score}"],
    ["sleep_score", "%"],
    ["body_temperature", "C"],
    ["distance_walking_running", "kcal"],
    ["dietary_sodium", "mmol/L"],
    ["blood_glucose", "kg"],
    ["insulin_delivery", "mg"],
  ];

  it.each(refused)("refuses %s in %j, naming unit and type but not the value", (name, unit) => {
    const value = 7_654.321;
    const error = errorOf(name, value, unit);
    expect(error).toContain(name);
    expect(error).toContain(JSON.stringify(unit));
    expect(error).not.toContain("7654");
    expect(error).not.toContain("7,654");
    expect(error).not.toContain("654.321");
  });

  it("refuses malformed unit strings without throwing or logging", () => {
    const log = vi.spyOn(console, "log").mockImplementation(() => undefined);
    try {
      for (const unit of ["toString", "__proto__", "kg.constructor", "count per min", "()", "(3)", "{x}2", "kg\n"]) {
        expect(errorOf("heart_rate", 61, unit)).toContain("heart_rate");
      }
      expect(log).not.toHaveBeenCalled();
    } finally {
      log.mockRestore();
    }
  });

  it.each([Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY])("refuses the value %s", (value) => {
    const error = errorOf("heart_rate", value, "count/min");
    expect(error).toContain("heart_rate");
    expect(error).not.toContain(String(value));
  });
});

describe("category type catalog", () => {
  it("has unique snake_case names and snake_case values", () => {
    const names = CATEGORY_TYPES.map((t) => t.name);
    expect(new Set(names).size).toBe(names.length);
    for (const t of CATEGORY_TYPES) {
      expect(t.name).toMatch(SNAKE_CASE);
      expect(t.description.length).toBeGreaterThan(0);
      for (const value of t.values ?? []) expect(value).toMatch(SNAKE_CASE);
      if (t.values) expect(new Set(t.values).size).toBe(t.values.length);
    }
  });

  it("shares no name with a quantity type", () => {
    for (const t of CATEGORY_TYPES) expect(findQuantityType(t.name), t.name).toBeUndefined();
  });

  it("covers the HealthKit and Health Connect category types", () => {
    const required = [
      "menstrual_flow",
      "intermenstrual_bleeding",
      "ovulation_test_result",
      "cervical_mucus_quality",
      "sexual_activity",
      "mindful_session",
      "high_heart_rate_event",
      "low_heart_rate_event",
      "irregular_heart_rhythm_event",
      "apple_stand_hour",
      "toothbrushing_event",
      "handwashing_event",
      "headache",
    ];
    for (const name of required) expect(findCategoryType(name), name).toBeDefined();
    expect(findCategoryType("menstrual_flow")?.values).toEqual(["unspecified", "light", "medium", "heavy", "none"]);
  });
});
