// Data categories: what a user consents to per source and what a share link carries.
// They are the catalog's metric groups; every kind of stored record belongs to one.

import { CATEGORY_TYPES, findCategoryType } from "./category-types.ts";
import { findQuantityType, QUANTITY_TYPES, type MetricGroup } from "./quantity-types.ts";

/** Every data category, in the catalog's order. */
export const DATA_CATEGORIES = [
  "activity",
  "heart",
  "recovery",
  "body",
  "sleep",
  "workouts",
  "vitals",
  "nutrition",
  "cycle",
  "mindfulness",
  "reported",
] as const satisfies readonly MetricGroup[];

export type DataCategory = (typeof DATA_CATEGORIES)[number];

// Fails to compile when a metric group is added without its category.
type MissingCategory = Exclude<MetricGroup, DataCategory>;
const _everyGroupIsACategory: [MissingCategory] extends [never] ? true : false = true;
void _everyGroupIsACategory;

/** What each category holds, for API descriptions. */
export const DATA_CATEGORY_DESCRIPTIONS: Readonly<Record<DataCategory, string>> = {
  activity: "steps, distance, energy, floors, activity minutes and daily summaries (their activity figures and score)",
  heart: "heart rate, heart rate variability, ECG recordings, heartbeat series and the heart figures of daily summaries",
  recovery: "recovery and readiness scores",
  body: "weight, body composition and other body measurements",
  sleep: "sleep sessions with their phases, sleep samples and the sleep time of daily summaries",
  workouts: "workouts with their routes",
  vitals: "blood pressure, oxygen saturation, respiration, temperature and other vitals",
  nutrition: "nutrition logs, food and water",
  cycle: "menstrual flow, cycles and related samples",
  mindfulness: "mindful minutes and related samples",
  reported: "self reports (how a person says they feel)",
};

/** The kinds of stored records that are not samples, and the one category each belongs to. */
export const RECORD_KIND_CATEGORIES = {
  sleep_session: "sleep",
  workout: "workouts",
  nutrition_log: "nutrition",
  ecg_recording: "heart",
  heartbeat_series: "heart",
  menstrual_cycle: "cycle",
  self_report: "reported",
  daily_summary: "activity",
} as const satisfies Record<string, DataCategory>;

export type CategorizedRecordKind = keyof typeof RECORD_KIND_CATEGORIES;

/**
 * A daily summary's figures (by REST field name) and the category each belongs to: a daily
 * summary (whose record kind is activity) also carries heart and sleep figures, which
 * consent and shares treat as those categories' data. `score` is the provider's score of the
 * day (an activity or readiness score), kept with activity.
 */
export const DAILY_SUMMARY_FIGURE_CATEGORIES = {
  steps: "activity",
  distance_meters: "activity",
  active_energy_kcal: "activity",
  total_energy_kcal: "activity",
  floors_climbed: "activity",
  active_seconds: "activity",
  score: "activity",
  resting_heart_rate: "heart",
  average_heart_rate: "heart",
  hrv_rmssd: "heart",
  sleep_seconds: "sleep",
} as const satisfies Record<string, DataCategory>;

export type DailySummaryFigure = keyof typeof DAILY_SUMMARY_FIGURE_CATEGORIES;

/** Every figure of a daily summary (its columns, named as the REST fields). */
export const DAILY_SUMMARY_FIGURES = Object.keys(DAILY_SUMMARY_FIGURE_CATEGORIES) as DailySummaryFigure[];

/** The category of a daily summary's figure; null for a field that is not one. */
export function categoryOfDailyFigure(field: string): DataCategory | null {
  return Object.hasOwn(DAILY_SUMMARY_FIGURE_CATEGORIES, field) ? DAILY_SUMMARY_FIGURE_CATEGORIES[field as DailySummaryFigure] : null;
}

/** The daily summary figures of these categories. */
export function dailyFiguresOf(categories: Iterable<string>): DailySummaryFigure[] {
  const wanted = new Set(categories);
  return DAILY_SUMMARY_FIGURES.filter((field) => wanted.has(DAILY_SUMMARY_FIGURE_CATEGORIES[field]));
}

export function isDataCategory(value: string): value is DataCategory {
  return (DATA_CATEGORIES as readonly string[]).includes(value);
}

/** The category of a kind of record that is not a sample. */
export function categoryOfRecordKind(kind: CategorizedRecordKind): DataCategory {
  return RECORD_KIND_CATEGORIES[kind];
}

/** The category of a quantity sample type; null for a type outside the catalog (it belongs to none). */
export function categoryOfQuantityType(type: string): DataCategory | null {
  return findQuantityType(type)?.group ?? null;
}

/** The category of a category sample type; null for a type outside the catalog (it belongs to none). */
export function categoryOfCategoryType(type: string): DataCategory | null {
  return findCategoryType(type)?.group ?? null;
}

/** The catalog's quantity sample types of these categories. */
export function quantityTypesOf(categories: Iterable<string>): string[] {
  const wanted = new Set(categories);
  return QUANTITY_TYPES.filter((type) => wanted.has(type.group)).map((type) => type.name);
}

/** The catalog's category sample types of these categories. */
export function categoryTypesOf(categories: Iterable<string>): string[] {
  const wanted = new Set(categories);
  return CATEGORY_TYPES.filter((type) => wanted.has(type.group)).map((type) => type.name);
}

/** The categories in the catalog's order, each once (unknown values dropped). */
export function sortCategories(categories: Iterable<string>): DataCategory[] {
  const given = new Set(categories);
  return DATA_CATEGORIES.filter((category) => given.has(category));
}
