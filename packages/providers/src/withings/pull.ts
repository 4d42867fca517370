import { ProviderError, type PullContext } from "@svc/core";
import { serviceUrl, WITHINGS_SERVICES, withingsPages } from "./api.ts";
import { WITHINGS_ACTIVITIES_FORMAT } from "./activities.ts";
import { ALL_MAPPED_MEASURE_TYPES, MEASURE_GROUPS, WITHINGS_NOTIFICATION_APPLIS, type WithingsDataType } from "./measure-types.ts";
import { WITHINGS_MEASURES_FORMAT } from "./measures.ts";
import { WITHINGS_SLEEP_SUMMARIES_FORMAT } from "./sleep-summaries.ts";
import { WITHINGS_WORKOUTS_FORMAT } from "./workouts.ts";

const METRICS_SCOPE = "user.metrics";
const ACTIVITY_SCOPE = "user.activity";
const DAY_MS = 86_400_000;

const ACTIVITY_FIELDS =
  "steps,distance,elevation,soft,moderate,intense,active,calories,totalcalories,hr_average,hr_min,hr_max,hr_zone_0,hr_zone_1,hr_zone_2,hr_zone_3";
const WORKOUT_FIELDS =
  "calories,intensity,manual_intensity,manual_distance,manual_calories,hr_average,hr_min,hr_max,hr_zone_0,hr_zone_1,hr_zone_2,hr_zone_3," +
  "pause_duration,algo_pause_duration,spo2_average,steps,distance,elevation,pool_laps,strokes,pool_length";
const SLEEP_FIELDS =
  "total_timeinbed,total_sleep_time,asleepduration,lightsleepduration,remsleepduration,deepsleepduration,sleep_efficiency,sleep_latency," +
  "wakeup_latency,wakeupduration,wakeupcount,waso,nb_rem_episodes,out_of_bed_count,hr_average,hr_min,hr_max,rr_average,rr_min,rr_max," +
  "breathing_disturbances_intensity,apnea_hypopnea_index,snoring,snoringepisodecount,sleep_score,durationtosleep";

/**
 * Pulls the window from Withings: measures by time (`startdate`/`enddate`, unix seconds),
 * daily activity, workouts and sleep summaries by local date (`startdateymd`/`enddateymd`),
 * each service paged with `offset`. A notification's data type pulls only its service;
 * services the user did not grant a scope for are skipped. Each page is stored as sent.
 */
export async function pullWithings(context: PullContext): Promise<void> {
  const types = dataTypesOf(context.dataType);
  const granted = (scope: string) => context.scopes.length === 0 || context.scopes.includes(scope);
  const api = context.urls.api;

  const meastypes = measureTypesOf(types);
  if (meastypes.length > 0 && granted(METRICS_SCOPE)) {
    const startdate = Math.floor(context.window.start.getTime() / 1000);
    const enddate = Math.ceil(context.window.end.getTime() / 1000) - 1;
    if (enddate >= startdate) {
      const params = { action: "getmeas", meastypes: meastypes.join(","), category: "1", startdate: String(startdate), enddate: String(enddate) };
      for await (const page of withingsPages(context, serviceUrl(api, WITHINGS_SERVICES.measure), params, "getmeas")) {
        await context.store(WITHINGS_MEASURES_FORMAT, page);
      }
    }
  }
  if (!granted(ACTIVITY_SCOPE)) return;
  if (types.includes("activity")) {
    const days = localDays(context.window, 0);
    const url = serviceUrl(api, WITHINGS_SERVICES.measureV2);
    for await (const page of withingsPages(context, url, { action: "getactivity", ...days, data_fields: ACTIVITY_FIELDS }, "getactivity")) {
      await context.store(WITHINGS_ACTIVITIES_FORMAT, page);
    }
    for await (const page of withingsPages(context, url, { action: "getworkouts", ...days, data_fields: WORKOUT_FIELDS }, "getworkouts")) {
      await context.store(WITHINGS_WORKOUTS_FORMAT, page);
    }
  }
  if (types.includes("sleep")) {
    // A night is dated by the day it ends: one more day after the window.
    const days = localDays(context.window, 1);
    const url = serviceUrl(api, WITHINGS_SERVICES.sleepV2);
    for await (const page of withingsPages(context, url, { action: "getsummary", ...days, data_fields: SLEEP_FIELDS }, "getsummary")) {
      await context.store(WITHINGS_SLEEP_SUMMARIES_FORMAT, page);
    }
  }
}

function dataTypesOf(dataType: string | null): readonly WithingsDataType[] {
  const all = Object.keys(WITHINGS_NOTIFICATION_APPLIS) as WithingsDataType[];
  if (dataType === null) return all;
  if (!(all as string[]).includes(dataType)) throw new ProviderError("failed", `${dataType} is not a Withings data type.`);
  return [dataType as WithingsDataType];
}

function measureTypesOf(types: readonly WithingsDataType[]): number[] {
  if (types.length === Object.keys(WITHINGS_NOTIFICATION_APPLIS).length) return [...ALL_MAPPED_MEASURE_TYPES];
  const wanted = new Set<number>();
  for (const type of types) {
    if (type === "body" || type === "temperature" || type === "blood_pressure") for (const meastype of MEASURE_GROUPS[type]) wanted.add(meastype);
  }
  return [...wanted].sort((a, b) => a - b);
}

/**
 * The local dates a window can touch in any time zone (UTC-12 to UTC+14): from the day
 * before its first UTC date to the day after its last, plus `extraDays`. Withings' dates
 * are inclusive.
 */
function localDays(window: { start: Date; end: Date }, extraDays: number): { startdateymd: string; enddateymd: string } {
  const lastInstant = Math.max(window.start.getTime(), window.end.getTime() - 1);
  return {
    startdateymd: utcDate(window.start.getTime() - DAY_MS),
    enddateymd: utcDate(lastInstant + DAY_MS * (1 + extraDays)),
  };
}

const utcDate = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
