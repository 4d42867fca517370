import { findQuantityType } from "../records/index.ts";
import { OBSERVATION_CATEGORY, VITAL_SIGNS_PROFILE } from "./fhir-systems.ts";

/** The HL7 observation-category codes Observations of svc carry. */
export type ObservationCategory = "vital-signs" | "laboratory" | "activity" | "survey";

/** Every code of http://terminology.hl7.org/CodeSystem/observation-category (R4). */
export const HL7_OBSERVATION_CATEGORIES = [
  "social-history",
  "vital-signs",
  "imaging",
  "laboratory",
  "procedure",
  "survey",
  "exam",
  "therapy",
  "activity",
] as const;

const CATEGORY_DISPLAY: Record<ObservationCategory, string> = {
  "vital-signs": "Vital Signs",
  laboratory: "Laboratory",
  activity: "Activity",
  survey: "Survey",
};

/**
 * The R4 vital signs profile of each quantity type that has one (besides the base
 * vitalsigns profile every vital sign claims). Blood pressure is a panel: `bp`.
 */
const VITAL_SIGN_PROFILES: Record<string, string> = {
  heart_rate: "http://hl7.org/fhir/StructureDefinition/heartrate",
  respiratory_rate: "http://hl7.org/fhir/StructureDefinition/resprate",
  oxygen_saturation: "http://hl7.org/fhir/StructureDefinition/oxygensat",
  body_temperature: "http://hl7.org/fhir/StructureDefinition/bodytemp",
  height: "http://hl7.org/fhir/StructureDefinition/bodyheight",
  body_mass: "http://hl7.org/fhir/StructureDefinition/bodyweight",
  body_mass_index: "http://hl7.org/fhir/StructureDefinition/bmi",
};
export const BLOOD_PRESSURE_PROFILE = "http://hl7.org/fhir/StructureDefinition/bp";

/** Readings a clinical laboratory would measure, taken at home. */
const LABORATORY_TYPES = new Set(["blood_glucose", "blood_alcohol_content"]);

/** The profiles a quantity sample of a type claims: none unless it is a vital sign of R4. */
export function profilesOfQuantityType(type: string): string[] {
  const profile = VITAL_SIGN_PROFILES[type];
  return profile ? [VITAL_SIGNS_PROFILE, profile] : [];
}

/**
 * The category of a quantity type: vital-signs for the R4 vital signs, laboratory for lab
 * readings, activity for activity and workout figures, survey for self reports; other
 * types (sleep, recovery scores, nutrition...) carry none.
 */
export function categoryOfQuantityType(type: string): ObservationCategory | null {
  if (VITAL_SIGN_PROFILES[type]) return "vital-signs";
  if (LABORATORY_TYPES.has(type)) return "laboratory";
  const group = findQuantityType(type)?.group;
  if (group === "activity" || group === "workouts") return "activity";
  if (group === "reported") return "survey";
  return null;
}

/** Observation.category of a category code. */
export function categoryConcept(category: ObservationCategory) {
  return [{ coding: [{ system: OBSERVATION_CATEGORY, code: category, display: CATEGORY_DISPLAY[category] }] }];
}
