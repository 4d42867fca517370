// Health Kit's sampleSet:polymerize (POST, milliseconds): the daily statistics of steps,
// distance and calories of each UTC day the window touches (at most 31 days a request, Health
// Kit's limit), then the details read as readings one day at a time (a day of heart rate is
// already thousands of points).

import { ProviderError, type PullContext } from "@svc/core";
import { HUAWEI_DAILY_ACTIVITY_FORMAT } from "./daily-activity.ts";
import { apiUrl, isObject } from "./json.ts";
import { HUAWEI_READINGS_FORMAT } from "./readings.ts";
import { chunks, DAY_MS } from "./time-chunks.ts";

const STATISTICS_DAYS = 31;
const DETAIL_DAYS = 1;

type DataTypeNames = ReadonlyArray<{ dataTypeName: string }>;

export async function pullSamples(context: PullContext, dailyTypes: DataTypeNames, readingTypes: DataTypeNames): Promise<void> {
  if (dailyTypes.length > 0) {
    const days = { start: Math.floor(context.window.start.getTime() / DAY_MS) * DAY_MS, end: Math.ceil(context.window.end.getTime() / DAY_MS) * DAY_MS };
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
