// The demo provider's API, as the instance serves it under /demo/api and the connector reads
// it: collections, their payload shapes and limits. Times are RFC 3339 with the person's
// offset; every item carries the local day it belongs to.

export const DEMO_SLUG = "demo";

/**
 * The one client the demo authorization server knows: a public client (PKCE, no secret). The
 * engine sends a built-in provider's slug as its client_id (core's clientIdOf).
 */
export const DEMO_CLIENT_ID = DEMO_SLUG;

/** One scope per collection; a token reads the collections its scopes name. */
export const DEMO_COLLECTIONS = ["activity", "heart", "sleep", "body", "workouts"] as const;
export type DemoCollection = (typeof DEMO_COLLECTIONS)[number];

/** A request covers at most this many days (longer windows are split by the connector). */
export const DEMO_MAX_WINDOW_DAYS = 7;

/** The raw object format of each collection's payloads. */
export const DEMO_FORMATS: Readonly<Record<DemoCollection, string>> = {
  activity: "demo-activity",
  heart: "demo-heart",
  sleep: "demo-sleep",
  body: "demo-body",
  workouts: "demo-workouts",
};

export function isDemoCollection(value: string): value is DemoCollection {
  return (DEMO_COLLECTIONS as readonly string[]).includes(value);
}

/** GET /v1/profile */
export interface DemoProfile {
  user_id: string;
  timezone: string;
}

/** GET /v1/<collection>?start=&end=: the items of the person's local days that overlap [start, end) and are over by now. */
export interface DemoPage<Item> {
  timezone: string;
  data: Item[];
}

export interface DemoActivityInterval {
  id: string;
  start: string;
  end: string;
  steps: number;
  distance_m: number;
  active_kcal: number;
}

/** One local day's activity: the totals of its hours that are over. */
export interface DemoActivityDay {
  id: string;
  day: string;
  steps: number;
  distance_m: number;
  active_kcal: number;
  /** Basal (for the part of the day that is over) plus active energy. */
  total_kcal: number;
  active_minutes: number;
  resting_bpm: number;
  intervals: DemoActivityInterval[];
}

export interface DemoHeartSample {
  time: string;
  bpm: number;
}

/** One local day's heart rate: a sample every 5 minutes in the daytime, and the day's resting rate. */
export interface DemoHeartDay {
  id: string;
  day: string;
  resting: { time: string; bpm: number } | null;
  samples: DemoHeartSample[];
}

export type DemoSleepStage = "awake" | "light" | "deep" | "rem";

/** One night, under the local day it ends on. */
export interface DemoSleepSession {
  id: string;
  day: string;
  bedtime_start: string;
  bedtime_end: string;
  /** 0 to 100 */
  score: number;
  /** Time asleep / time in bed, 0 to 1. */
  efficiency: number;
  average_bpm: number;
  lowest_bpm: number;
  /** RMSSD, ms */
  average_hrv_ms: number;
  /** breaths per minute */
  respiratory_rate: number;
  /** 0 to 100 */
  spo2_percent: number;
  phases: Array<{ stage: DemoSleepStage; start: string; end: string }>;
}

export interface DemoBodyMeasurement {
  id: string;
  day: string;
  time: string;
  weight_kg: number;
  body_fat_percent: number;
}

export type DemoActivityType = "running" | "cycling" | "walking" | "strength_training" | "yoga" | "swimming";

export interface DemoWorkout {
  id: string;
  day: string;
  activity: DemoActivityType;
  name: string;
  start: string;
  end: string;
  distance_m: number | null;
  active_kcal: number;
  average_bpm: number;
  max_bpm: number;
  steps: number | null;
  elevation_gain_m: number | null;
}
