// Pulling Garmin data. Garmin is ping/push: summary endpoints are read by UPLOAD time, as a
// ping prompts (at most 24 hours per request); any other window (the backfill on connect,
// the daily safety net, a manual sync) is a summary-time window, which only the Summary
// Backfill endpoints take: they answer 202 and Garmin delivers the data later through the
// usual ping or push notifications (at most 90 days per request).

import { ProviderError, type PullContext } from "@svc/core";
import { GARMIN_SUMMARY_TYPES, summaryTypeNamed, type GarminSummaryType } from "./summary-types.ts";

/** Garmin's longest upload-time range per summary request. */
export const UPLOAD_RANGE_SECONDS = 86_400;
/** Garmin's longest summary-time range per backfill request. */
export const BACKFILL_RANGE_SECONDS = 90 * 86_400;

/**
 * A notified pull (`dataType` set): the summaries of that type uploaded in the window, one
 * request per 24 hours, each non-empty answer stored as `garmin-<type>`. A pull of every
 * type (`dataType` null): backfill requests for every type over the window, newest 90 days
 * first; nothing is stored now.
 */
export async function pullGarmin(context: PullContext): Promise<void> {
  if (context.dataType === null) {
    for (const type of GARMIN_SUMMARY_TYPES) await requestBackfill(context, type);
    return;
  }
  const type = summaryTypeNamed(context.dataType);
  if (type) await pullUploads(context, type);
}

/**
 * [start, end) in epoch seconds, cut into ranges of at most `length` seconds: from the start
 * forward (oldest first, a short last range), or from the end backward (newest first, a
 * short last range at the start).
 */
export function ranges(window: { start: Date; end: Date }, length: number, from: "start" | "end"): Array<[number, number]> {
  const start = Math.floor(window.start.getTime() / 1000);
  const end = Math.max(start + 1, Math.ceil(window.end.getTime() / 1000));
  const cut: Array<[number, number]> = [];
  if (from === "start") for (let at = start; at < end; at += length) cut.push([at, Math.min(end, at + length)]);
  else for (let at = end; at > start; at -= length) cut.push([Math.max(start, at - length), at]);
  return cut;
}

function endpointUrl(context: PullContext, path: string): URL {
  return new URL(`${context.urls.api.replace(/\/+$/, "")}${path}`);
}

async function pullUploads(context: PullContext, type: GarminSummaryType): Promise<void> {
  for (const [from, to] of ranges(context.window, UPLOAD_RANGE_SECONDS, "start")) {
    const url = endpointUrl(context, `/${type.endpoint}`);
    url.searchParams.set("uploadStartTimeInSeconds", String(from));
    url.searchParams.set("uploadEndTimeInSeconds", String(to));
    const summaries = await skippingWithheldType(() => context.request(url));
    if (summaries === undefined) return;
    if (!Array.isArray(summaries)) throw new ProviderError("failed", `GET /${type.endpoint} answered something other than a list.`);
    if (summaries.length > 0) await context.store(type.format, summaries);
  }
}

async function requestBackfill(context: PullContext, type: GarminSummaryType): Promise<void> {
  for (const [from, to] of ranges(context.window, BACKFILL_RANGE_SECONDS, "end")) {
    const url = endpointUrl(context, `/backfill/${type.endpoint}`);
    url.searchParams.set("summaryStartTimeInSeconds", String(from));
    url.searchParams.set("summaryEndTimeInSeconds", String(to));
    try {
      if ((await skippingWithheldType(() => context.request(url))) === undefined) return;
    } catch (error) {
      // 409: this range was already requested; Garmin sends its data once.
      if (!(error instanceof ProviderError && error.status === 409)) throw error;
    }
  }
}

/**
 * Garmin answers 412 when the user withheld this one summary type on the Garmin Connect
 * consent page: the type is skipped (undefined), the connection stays healthy for the others.
 */
async function skippingWithheldType(call: () => Promise<unknown>): Promise<unknown> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof ProviderError && error.status === 412) return undefined;
    throw error;
  }
}
