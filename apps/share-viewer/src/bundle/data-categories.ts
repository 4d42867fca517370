// The catalog file alone (plain data, no imports): the viewer bundles nothing else of core.
import { findQuantityType } from "@svc/core/quantity-types";
import type { Observation } from "fhir/r4.js";
import { componentValue, type ObservationKind, type RecordKind } from "./observation-codes.ts";

/**
 * The data categories a share is made of (svc's catalog groups), in the catalog's order, with
 * the headings the page shows. The catalog's quantity types (pure data) are bundled with the
 * page so a sample's type finds its category as on the server.
 */
export const CATEGORY_TITLES = {
  activity: "Activity",
  heart: "Heart",
  recovery: "Recovery",
  body: "Body",
  sleep: "Sleep",
  workouts: "Workouts",
  vitals: "Vitals",
  nutrition: "Nutrition",
  cycle: "Cycle",
  mindfulness: "Mindfulness",
  reported: "Self reports",
  other: "Other",
} as const;

export type ViewerCategory = keyof typeof CATEGORY_TITLES;
export const CATEGORY_ORDER = Object.keys(CATEGORY_TITLES) as ViewerCategory[];

const RECORD_CATEGORIES: Record<RecordKind, ViewerCategory> = {
  blood_pressure: "vitals",
  sleep_session: "sleep",
  workout: "workouts",
  daily_summary: "activity",
  ecg_recording: "heart",
  nutrition_log: "nutrition",
};

const ACTIVITY_FIGURES = ["steps", "distance_meters", "active_energy_kcal", "total_energy_kcal", "floors_climbed", "active_seconds"];
const HEART_FIGURES = ["resting_heart_rate", "average_heart_rate", "hrv_rmssd"];

/**
 * A daily summary's category: a share holds only the figures of the categories it shares
 * (a heart share keeps a day's heart figures), so the figures left tell which one it is.
 */
function dailyCategory(observation: Observation): ViewerCategory {
  const has = (figures: string[]) => figures.some((figure) => componentValue(observation, figure) !== null);
  if (has(ACTIVITY_FIGURES) || !has([...HEART_FIGURES, "sleep_seconds"])) return "activity";
  return has(HEART_FIGURES) ? "heart" : "sleep";
}

export function categoryOf(kind: ObservationKind, observation: Observation): ViewerCategory {
  if (kind.kind === "record") return kind.record === "daily_summary" ? dailyCategory(observation) : RECORD_CATEGORIES[kind.record];
  if (kind.kind === "quantity") return findQuantityType(kind.type)?.group ?? "other";
  return "other";
}

/** A readable name of a quantity type: `heart_rate` → "Heart rate". */
export function quantityTypeName(type: string): string {
  const words = type.replace(/_/g, " ").replace(/\bhrv\b/gi, "HRV").replace(/\brmssd\b/gi, "RMSSD").replace(/\bsdnn\b/gi, "SDNN").replace(/\bvo2\b/gi, "VO2");
  return words.charAt(0).toUpperCase() + words.slice(1);
}
