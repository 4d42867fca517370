import { recordListTool } from "./record-list-tool.ts";

/*
 * Paged reads of one user's records, each the REST route of the same resource. Times take
 * RFC 3339 or YYYY-MM-DD; start is inclusive, end exclusive.
 */

export const getSamples = recordListTool({
  name: "get_samples",
  title: "Quantity samples",
  summary:
    "Measurements of one quantity type (heart_rate, step_count, body_mass, ...; see list_quantity_types) for a user, in the type's storage unit, with provider, source and device.",
  procedure: "samples.listSamples",
});

export const getCategorySamples = recordListTool({
  name: "get_category_samples",
  title: "Category samples",
  summary: "Events with a category value (mindful sessions, menstrual flow, symptoms, stand hours, ...) for a user, optionally of one type.",
  procedure: "categorySamples.listCategorySamples",
});

export const getWorkouts = recordListTool({
  name: "get_workouts",
  title: "Workouts",
  summary: "Workouts of a user (activity type, duration, distance, energy, heart rate), optionally of one activity type. Use get_workout_route for a workout's GPS track.",
  procedure: "workouts.listWorkouts",
});

export const getWorkoutRoute = recordListTool({
  name: "get_workout_route",
  title: "Workout route",
  summary: "The GPS points of one workout (workout_id from get_workouts), in time order.",
  procedure: "workouts.listWorkoutRoute",
});

export const getNutrition = recordListTool({
  name: "get_nutrition",
  title: "Nutrition logs",
  summary: "Meals and foods a user logged, with energy and nutrients.",
  procedure: "nutrition.listNutrition",
});

export const getDaily = recordListTool({
  name: "get_daily",
  title: "Daily summaries",
  summary:
    "One summary per provider and local day (steps, energy, distance, resting heart rate, scores, ...). start and end are compared as dates. Best first look at a period.",
  procedure: "daily.listDailySummaries",
});

export const getRrIntervals = recordListTool({
  name: "get_rr_intervals",
  title: "RR intervals",
  summary: "Beat-to-beat (RR) intervals in milliseconds of a user's heartbeat series, optionally of one series_id.",
  procedure: "heartbeats.listRrIntervals",
});

export const getHrv = recordListTool({
  name: "get_hrv",
  title: "Heart rate variability",
  summary: "HRV figures (RMSSD, SDNN, ...) derived per heartbeat series; the window applies to the series' first beat.",
  procedure: "heartbeats.listHrv",
});

export const getMenstrualCycles = recordListTool({
  name: "get_menstrual_cycles",
  title: "Menstrual cycles",
  summary: "Menstrual cycles derived from recorded flow, selected by the cycle's start day.",
  procedure: "menstrualCycles.listMenstrualCycles",
});
