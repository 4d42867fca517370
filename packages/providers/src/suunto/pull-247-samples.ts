// Suunto's 24/7 samples: GET /247samples/{sleep,recovery,activity}?from&to (epoch
// milliseconds, `to` inclusive, at most 28 days a call), each answering a list of rows
// `{timestamp, entryData}`. These operations are in the partner-only part of Suunto's
// reference; the paths, parameters and answer shape are the ones open-source integrations
// call and read (docs/providers.md, "Suunto"). Each non-empty answer is stored as it is.

import { ProviderError, type PullContext } from "@svc/core";
import { suuntoRequest } from "./api.ts";
import { apiUrl } from "./json.ts";

export type Suunto247Resource = "sleep" | "recovery" | "activity";

const DAY_MS = 86_400_000;
/** Well under Suunto's 28 days, so each answer stays small (activity rows come every few minutes). */
const CHUNK_DAYS = 14;

export async function pullSuunto247Samples(context: PullContext, resource: Suunto247Resource, format: string): Promise<void> {
  const end = context.window.end.getTime();
  for (let from = context.window.start.getTime(); from < end; from += CHUNK_DAYS * DAY_MS) {
    const to = Math.min(from + CHUNK_DAYS * DAY_MS, end);
    const url = apiUrl(context.urls.api, `/247samples/${resource}`);
    url.searchParams.set("from", String(from));
    url.searchParams.set("to", String(to - 1));
    let answer: unknown;
    try {
      answer = await suuntoRequest(context, url);
    } catch (error) {
      // An application whose API subscription does not cover this 24/7 data keeps its other data.
      if (error instanceof ProviderError && error.status === 403) return;
      throw error;
    }
    if (!Array.isArray(answer)) throw new ProviderError("failed", `GET /247samples/${resource} answered something other than a list of samples.`);
    if (answer.length > 0) await context.store(format, answer);
  }
}
