// Health Kit's record queries, both GET: the sleep records of the window (`healthRecords`,
// times in nanoseconds, the sleep fragments asked as sub data), and the activity records
// (`activityRecords`, times in milliseconds, at most 31 days a request, Health Kit's limit),
// following `cursor` while the answer says `hasMoreData`.

import { ProviderError, type PullContext } from "@svc/core";
import { HUAWEI_WORKOUTS_FORMAT } from "./activity-records.ts";
import { apiUrl, isObject, type JsonObject } from "./json.ts";
import { HUAWEI_SLEEP_FORMAT, SLEEP_FRAGMENT_TYPE, SLEEP_RECORD_TYPE } from "./sleep-records.ts";
import { chunks } from "./time-chunks.ts";

/** Health Kit publishes no span limit of a health record query: a week a request keeps each answer small. */
const SLEEP_DAYS = 7;
const ACTIVITY_RECORD_DAYS = 31;
/** Pages of one activity record query; more means the cursor does not advance. */
const MAX_PAGES = 50;
const NANOS_PER_MS = 1_000_000n;

export async function pullSleepRecords(context: PullContext): Promise<void> {
  for (const chunk of chunks(windowOf(context), SLEEP_DAYS)) {
    const url = apiUrl(context.urls.api, "/v2/healthRecords");
    url.searchParams.set("startTime", String(BigInt(chunk.start) * NANOS_PER_MS));
    url.searchParams.set("endTime", String(BigInt(chunk.end) * NANOS_PER_MS));
    url.searchParams.set("dataType", SLEEP_RECORD_TYPE);
    url.searchParams.set("subDataType", SLEEP_FRAGMENT_TYPE);
    const answer = await get(context, url, "healthRecords");
    await context.store(HUAWEI_SLEEP_FORMAT, { healthRecords: [], ...answer });
  }
}

export async function pullActivityRecords(context: PullContext): Promise<void> {
  for (const chunk of chunks(windowOf(context), ACTIVITY_RECORD_DAYS)) {
    let url = apiUrl(context.urls.api, "/v2/activityRecords");
    url.searchParams.set("startTime", String(chunk.start));
    url.searchParams.set("endTime", String(chunk.end));
    for (let page = 1; ; page++) {
      const answer = await get(context, url, "activityRecord");
      await context.store(HUAWEI_WORKOUTS_FORMAT, { activityRecord: [], deletedActivityRecord: [], ...answer });
      if (answer.hasMoreData !== true || typeof answer.cursor !== "string" || answer.cursor === "") break;
      if (page >= MAX_PAGES) throw new ProviderError("failed", `GET /v2/activityRecords had more than ${MAX_PAGES} pages for one window.`);
      url = apiUrl(context.urls.api, "/v2/activityRecords");
      url.searchParams.set("cursor", answer.cursor);
    }
  }
}

function windowOf(context: PullContext): { start: number; end: number } {
  return { start: context.window.start.getTime(), end: context.window.end.getTime() };
}

/** A GET of the user's records; the answer must be an object whose `list` (when present) is an array. */
async function get(context: PullContext, url: URL, list: string): Promise<JsonObject> {
  const answer = await context.request(url, { headers: { "x-client-id": context.keys.CLIENT_ID ?? "" } });
  if (!isObject(answer) || (answer[list] !== undefined && !Array.isArray(answer[list]))) {
    throw new ProviderError("failed", `GET ${url.pathname} answered something other than a list of records.`);
  }
  return answer;
}
