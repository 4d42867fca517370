// Pulling a window from Health Kit's sampleSet:polymerize (POST, milliseconds): the daily
// statistics of steps, distance and calories of each UTC day the window touches (at most 31
// days a request, Health Kit's limit), then the details of heart rate, SpO2, blood pressure,
// weight and body temperature one day at a time. Each request names only the data types
// whose read scope the grant holds (the user picks scopes on HUAWEI ID's consent page), so
// one scope left out does not cost the others. Each answer is stored as one payload.

import { ProviderError, type PullContext } from "@svc/core";
import { HUAWEI_DAILY_ACTIVITY_FORMAT } from "./daily-activity.ts";
import { apiUrl, isObject } from "./json.ts";
import { HUAWEI_READINGS_FORMAT } from "./readings.ts";

const DAY_MS = 86_400_000;
/** Health Kit answers statistics of at most 31 days a request. */
const STATISTICS_DAYS = 31;
/** Details are asked a day at a time: a day of heart rate is already thousands of points. */
const DETAIL_DAYS = 1;
const SCOPE = "https://www.huawei.com/healthkit/";

/** Daily statistics: the detail type asked for, and the read scope it needs. */
export const DAILY_TYPES = [
  { dataTypeName: "com.huawei.continuous.steps.delta", scope: `${SCOPE}step.read` },
  { dataTypeName: "com.huawei.continuous.distance.delta", scope: `${SCOPE}distance.read` },
  { dataTypeName: "com.huawei.continuous.calories.burnt", scope: `${SCOPE}calories.read` },
] as const;

/** Details read as readings, with the read scope each needs. */
export const READING_TYPES = [
  { dataTypeName: "com.huawei.instantaneous.heart_rate", scope: `${SCOPE}heartrate.read` },
  { dataTypeName: "com.huawei.instantaneous.spo2", scope: `${SCOPE}oxygensaturation.read` },
  { dataTypeName: "com.huawei.instantaneous.blood_pressure", scope: `${SCOPE}bloodpressure.read` },
  { dataTypeName: "com.huawei.instantaneous.body_weight", scope: `${SCOPE}heightweight.read` },
  { dataTypeName: "com.huawei.instantaneous.body.temperature", scope: `${SCOPE}bodytemperature.read` },
] as const;

export async function pullHuaweiHealth(context: PullContext): Promise<void> {
  const granted = (types: ReadonlyArray<{ dataTypeName: string; scope: string }>) =>
    types.filter((type) => context.scopes.length === 0 || context.scopes.includes(type.scope)).map(({ dataTypeName }) => ({ dataTypeName }));
  const dailyTypes = granted(DAILY_TYPES);
  const readingTypes = granted(READING_TYPES);

  const days = { start: floorDay(context.window.start), end: ceilDay(context.window.end) };
  if (dailyTypes.length > 0) {
    for (const chunk of chunks(days, STATISTICS_DAYS)) {
      const body = { polymerizeWith: dailyTypes, startTime: chunk.start, endTime: chunk.end, groupByTime: { groupPeriod: { timeZone: "+0000", unit: "day", value: 1 } } };
      await context.store(HUAWEI_DAILY_ACTIVITY_FORMAT, await polymerize(context, body));
    }
  }
  if (readingTypes.length > 0) {
    const window = { start: context.window.start.getTime(), end: context.window.end.getTime() };
    for (const chunk of chunks(window, DETAIL_DAYS)) {
      await context.store(HUAWEI_READINGS_FORMAT, await polymerize(context, { polymerizeWith: readingTypes, startTime: chunk.start, endTime: chunk.end }));
    }
  }
}

async function polymerize(context: PullContext, body: Record<string, unknown>): Promise<unknown> {
  const answer = await context.request(apiUrl(context.urls.api, "/v2/sampleSet:polymerize"), {
    method: "POST",
    body,
    headers: { "x-client-id": context.keys.CLIENT_ID ?? "" },
  });
  if (!isObject(answer) || (answer.group !== undefined && !Array.isArray(answer.group))) {
    throw new ProviderError("failed", "POST /v2/sampleSet:polymerize answered something other than sample groups.");
  }
  return { group: [], ...answer };
}

/** Consecutive spans of at most `days` days covering [start, end) in milliseconds. */
function chunks(window: { start: number; end: number }, days: number): Array<{ start: number; end: number }> {
  const spans: Array<{ start: number; end: number }> = [];
  for (let start = window.start; start < window.end; start += days * DAY_MS) {
    spans.push({ start, end: Math.min(start + days * DAY_MS, window.end) });
  }
  return spans;
}

function floorDay(date: Date): number {
  return Math.floor(date.getTime() / DAY_MS) * DAY_MS;
}

function ceilDay(date: Date): number {
  return Math.ceil(date.getTime() / DAY_MS) * DAY_MS;
}
