// The activity time series (steps, distance, calories, floors, active minutes) and the
// heart rate series of the same days, to daily summaries and resting heart rate samples.
import { emptyParsedRecords, type DailySummaryRecord, type ParsedRecords } from "@svc/core";
import { dailySample } from "./daily-figures.ts";
import { dateOf, isObject, numberOf } from "./json.ts";
import { zoneOf } from "./payload.ts";
import { FITBIT_TRACKER } from "./provenance.ts";

/** The time series resources pulled for the daily figures (`/1/user/-/activities/{resource}/date/{start}/{end}.json`). */
export const ACTIVITY_RESOURCES = ["steps", "distance", "calories", "activityCalories", "floors", "minutesFairlyActive", "minutesVeryActive"] as const;
/** The heart rate series of the same days (`/1/user/-/activities/heart/date/{start}/{end}.json`). */
export const HEART_RESOURCE = "heart";

type Figures = Partial<Record<(typeof ACTIVITY_RESOURCES)[number] | "restingHeartRate", number>>;

/**
 * One daily summary per date the series name, with each figure in the catalog's unit:
 * distance from kilometres (svc asks in the metric system) to metres, active time as
 * Fitbit's fairly plus very active minutes, in seconds. A day's resting heart rate also
 * becomes a `resting_heart_rate` sample over that local day.
 */
export function parseActivitySeries(payload: unknown): ParsedRecords {
  if (!isObject(payload) || !isObject(payload.responses)) throw new Error("fitbit-activity-series: the payload has no responses");
  const zone = zoneOf(payload);
  const out = emptyParsedRecords();
  const days = new Map<string, Figures>();
  const figuresOf = (date: string) => {
    let figures = days.get(date);
    if (!figures) days.set(date, (figures = {}));
    return figures;
  };

  for (const resource of ACTIVITY_RESOURCES) {
    const answer = payload.responses[resource];
    if (answer === undefined) continue;
    const series = isObject(answer) ? answer[`activities-${resource}`] : undefined;
    if (!Array.isArray(series)) {
      out.rejected.push({ recordKind: "activity_series", locator: `responses.${resource}`, reason: `activities-${resource}: not a list` });
      continue;
    }
    series.forEach((entry: unknown, index) => {
      const date = isObject(entry) ? dateOf(entry.dateTime) : null;
      const value = isObject(entry) ? numberOf(entry.value) : null;
      if (date === null || value === null) {
        out.rejected.push({ recordKind: "activity_series", locator: `responses.${resource}[${index}]`, reason: `activities-${resource}: dateTime or value unreadable` });
        return;
      }
      figuresOf(date)[resource] = value;
    });
  }

  const heart = payload.responses[HEART_RESOURCE];
  const heartSeries = isObject(heart) ? heart["activities-heart"] : undefined;
  if (Array.isArray(heartSeries)) {
    heartSeries.forEach((entry: unknown, index) => {
      const date = isObject(entry) ? dateOf(entry.dateTime) : null;
      // Days without a resting heart rate (the tracker was not worn) leave it out.
      const resting = isObject(entry) && isObject(entry.value) ? numberOf(entry.value.restingHeartRate) : null;
      if (date === null) {
        out.rejected.push({ recordKind: "heart_series", locator: `responses.heart[${index}]`, reason: "activities-heart: dateTime unreadable" });
        return;
      }
      if (resting === null) return;
      figuresOf(date).restingHeartRate = resting;
      out.quantitySamples.push(dailySample(zone, date, { type: "resting_heart_rate", value: resting, unit: "count/min" }, `responses.heart[${index}]`));
    });
  }

  for (const [date, f] of [...days].sort(([a], [b]) => a.localeCompare(b))) {
    const activeMinutes = f.minutesFairlyActive === undefined && f.minutesVeryActive === undefined ? null : (f.minutesFairlyActive ?? 0) + (f.minutesVeryActive ?? 0);
    const summary: DailySummaryRecord = {
      source: FITBIT_TRACKER.source,
      on_body: FITBIT_TRACKER.on_body,
      date,
      timezone: zone.timezone,
      steps: f.steps ?? null,
      distance_meters: f.distance === undefined ? null : Math.round(f.distance * 1_000_000) / 1000,
      total_energy_kcal: f.calories ?? null,
      active_energy_kcal: f.activityCalories ?? null,
      floors_climbed: f.floors ?? null,
      active_seconds: activeMinutes === null ? null : activeMinutes * 60,
      resting_heart_rate: f.restingHeartRate ?? null,
      locator: `days.${date}`,
    };
    out.dailySummaries.push(summary);
  }
  return out;
}
