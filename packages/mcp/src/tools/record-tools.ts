import { DAILY_SUMMARY, HRV_RESULT, MENSTRUAL_CYCLE, NUTRITION_LOG, QUANTITY_SAMPLE, ROUTE_POINT, RR_INTERVAL, WORKOUT, CATEGORY_SAMPLE } from "../results/record-shapes.ts";
import { DAY_MS, HOUR_MS } from "../results/record-window.ts";
import { recordListTool } from "./record-list-tool.ts";

/*
 * Paged reads of one user's records, each the REST route of the same resource. Times take
 * RFC 3339 or YYYY-MM-DD; start is inclusive, end exclusive. The default windows are the MCP
 * tools' own (REST reads from the first record): high-frequency records a day, others a week
 * or a month.
 */

const STATS_OVERVIEW = "For long windows get_sample_stats gives count, sum, avg, min and max per hour or day.";

export const getSamples = recordListTool({
  name: "get_samples",
  title: "Quantity samples",
  summary:
    "Measurements of one quantity type (heart_rate, step_count, body_mass, ...; see list_quantity_types) for a user, with provider, source and device.",
  units:
    "Every value is in its stream's `unit`, the type's storage unit (heart_rate count/min, step_count count, body_mass kg, oxygen_saturation % 0 to 100, active_energy_burned kcal, distance_walking_running m); `original_unit` tells a stream sent in another unit. Times are UTC. For trends over days use get_sample_stats.",
  procedure: "samples.listSamples",
  shape: QUANTITY_SAMPLE,
  window: { key: "start_date", unit: "time", defaultSpanMs: DAY_MS, defaultSpanText: "the 24 hours", firstStepMs: HOUR_MS },
  newestFirst: true,
  overview: STATS_OVERVIEW,
});

export const getCategorySamples = recordListTool({
  name: "get_category_samples",
  title: "Category samples",
  summary: "Events with a category value (mindful sessions, menstrual flow, symptoms, stand hours, ...) for a user, optionally of one type.",
  units: "value is a snake_case category (e.g. `heavy`, `not_applicable` for events), not a number; an event's length is end_date - start_date. Times are UTC.",
  procedure: "categorySamples.listCategorySamples",
  shape: CATEGORY_SAMPLE,
  window: { key: "start_date", unit: "time", defaultSpanMs: 7 * DAY_MS, defaultSpanText: "the 7 days", firstStepMs: DAY_MS },
  newestFirst: true,
});

export const getWorkouts = recordListTool({
  name: "get_workouts",
  title: "Workouts",
  summary: "Workouts of a user (activity type, duration, distance, energy, heart rate), optionally of one activity type. Use get_workout_route for a workout's GPS track.",
  units:
    "duration_seconds in seconds; distance_meters and elevation_gain_meters in meters; active_energy_kcal and total_energy_kcal in kcal; average_heart_rate and max_heart_rate in count/min; steps a count; route_summary distances in meters, its box in degrees.",
  procedure: "workouts.listWorkouts",
  shape: WORKOUT,
  window: { key: "start_date", unit: "time", defaultSpanMs: 30 * DAY_MS, defaultSpanText: "the 30 days", firstStepMs: 7 * DAY_MS },
  newestFirst: true,
});

export const getWorkoutRoute = recordListTool({
  name: "get_workout_route",
  title: "Workout route",
  summary: "The GPS points of one workout (workout_id from get_workouts), in time order.",
  units:
    "latitude and longitude in degrees (WGS 84), altitude_meters in meters, speed_meters_per_second in m/s, heart_rate in count/min, accuracy_meters in meters.",
  procedure: "workouts.listWorkoutRoute",
  shape: ROUTE_POINT,
});

export const getNutrition = recordListTool({
  name: "get_nutrition",
  title: "Nutrition logs",
  summary: "Meals and foods a user logged, with energy and nutrients.",
  units:
    "energy_kcal in kcal; protein, carbohydrates, fat, fiber and sugar in grams (`*_grams`); sodium_milligrams in mg; water_milliliters in mL; other nutrients carry their own unit.",
  procedure: "nutrition.listNutrition",
  shape: NUTRITION_LOG,
  window: { key: "start_date", unit: "time", defaultSpanMs: 7 * DAY_MS, defaultSpanText: "the 7 days", firstStepMs: DAY_MS },
  newestFirst: true,
});

export const getDaily = recordListTool({
  name: "get_daily",
  title: "Daily summaries",
  summary:
    "One summary per provider and local day (steps, energy, distance, resting heart rate, scores, ...). start and end are compared as dates. Best first look at a period.",
  units:
    "steps and floors_climbed are counts; distance_meters in meters; active_energy_kcal and total_energy_kcal in kcal; active_seconds and sleep_seconds in seconds; resting_heart_rate and average_heart_rate in count/min; hrv_rmssd RMSSD in ms; score is the provider's own day score (readiness or activity) as it gives it.",
  procedure: "daily.listDailySummaries",
  shape: DAILY_SUMMARY,
  window: { key: "date", unit: "date", defaultSpanMs: 30 * DAY_MS, defaultSpanText: "the 30 days", firstStepMs: 7 * DAY_MS },
  newestFirst: true,
});

export const getRrIntervals = recordListTool({
  name: "get_rr_intervals",
  title: "RR intervals",
  summary: "Beat-to-beat (RR) intervals of a user's heartbeat series, optionally of one series_id (then every interval of the series, whatever its time).",
  units: "interval_ms in milliseconds; preceded_by_gap (left out when false) marks an interval after missing beats. get_hrv gives the figures per series.",
  procedure: "heartbeats.listRrIntervals",
  shape: RR_INTERVAL,
  window: { key: "timestamp", unit: "time", defaultSpanMs: DAY_MS, defaultSpanText: "the 24 hours", firstStepMs: HOUR_MS },
  windowIgnoredWith: "series_id",
  overview: "get_hrv gives RMSSD, SDNN and mean heart rate per series.",
});

export const getHrv = recordListTool({
  name: "get_hrv",
  title: "Heart rate variability",
  summary: "HRV figures derived per heartbeat series; the window applies to the series' first beat.",
  units: "rmssd_ms, sdnn_ms and mean_rr_ms in milliseconds; pnn50 a percentage 0 to 100; mean_heart_rate in count/min.",
  procedure: "heartbeats.listHrv",
  shape: HRV_RESULT,
  window: { key: "first_beat_at", unit: "time", defaultSpanMs: 30 * DAY_MS, defaultSpanText: "the 30 days", firstStepMs: DAY_MS },
  windowIgnoredWith: "series_id",
  newestFirst: true,
});

export const getMenstrualCycles = recordListTool({
  name: "get_menstrual_cycles",
  title: "Menstrual cycles",
  summary: "Menstrual cycles derived from recorded flow, selected by the cycle's start day.",
  units: "Dates are YYYY-MM-DD local dates; period_length_days and cycle_length_days in days.",
  procedure: "menstrualCycles.listMenstrualCycles",
  shape: MENSTRUAL_CYCLE,
});
