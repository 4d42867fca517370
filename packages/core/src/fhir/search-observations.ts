import type { Bundle, Observation } from "fhir/r4.js";
import { fhirSystems } from "./fhir-systems.ts";
import { intersectFilters, observationFilter, type ObservationFilter } from "./observation-filter.ts";
import { isBloodPressureType, type RecordKind } from "./observation-kinds.ts";
import { comparePositions, decodeObservationCursor, encodeObservationCursor, type ObservationPosition } from "./observation-position.ts";
import { checkSampleType, listEcgVoltages, listSampleTypeSpans, type RecordView } from "../records/index.ts";
import { type DbClient, parseTimeWindow, type TimeWindow } from "../platform/index.ts";
import type { ObservationEntry, SliceQuery, SourceSlice } from "./observation-entry.ts";
import { dailySlice, ECG_RECORDINGS_PER_PAGE, ecgSlice, nutritionSlice, sleepSlice, workoutSlice } from "./record-sources.ts";
import { bloodPressureSlice, samplesSlice } from "./sample-sources.ts";

export interface ObservationSearchInput {
  type?: string | undefined;
  code?: string | undefined;
  category?: string | undefined;
  start?: string | undefined;
  end?: string | undefined;
  view: RecordView;
  cursor?: string | undefined;
  limit: number;
}

/** A searchset Bundle of Observations. */
export type ObservationBundle = Omit<Bundle<Observation>, "type"> & { type: "searchset" };

export interface ObservationSearchSettings {
  /** `{fhir_code_system_base}`. */
  codeSystemBase: string;
  /** The absolute URL of the search (without a query), for the Bundle's links. */
  searchUrl: string;
}

const RECORD_SLICES: Record<RecordKind, (q: SliceQuery) => Promise<SourceSlice>> = {
  sleep_session: sleepSlice,
  workout: workoutSlice,
  daily_summary: dailySlice,
  ecg_recording: ecgSlice,
  nutrition_log: nutritionSlice,
};

/** Types the user has samples of that pass the filter and can hold samples after the position in the window. */
async function sampleTypesToRead(db: DbClient, userId: string, filter: ObservationFilter, window: TimeWindow, after: ObservationPosition | undefined) {
  const from = Math.max(window.start?.getTime() ?? -Infinity, after?.t.getTime() ?? -Infinity);
  return (await listSampleTypeSpans(db, userId))
    .filter((span) => !isBloodPressureType(span.type) && filter.sampleType(span.type))
    .filter((span) => span.last_start.getTime() >= from && (!window.end || span.first_start < window.end))
    .map((span) => span.type);
}

/**
 * Cuts one page from the slices: entries in order up to the nearest horizon, at most `limit`,
 * ending after the page's ECG_RECORDINGS_PER_PAGE-th recording. `next` is where the next page
 * starts: after the page's last entry when the page was cut short, else after the horizon
 * (past entries a source read and left out), or none on the last page.
 */
function cutPage(slices: readonly SourceSlice[], limit: number): { page: ObservationEntry[]; next: ObservationPosition | undefined } {
  const horizons = slices.flatMap((slice) => slice.horizon ?? []);
  const horizon = horizons.sort(comparePositions)[0];
  const candidates = slices
    .flatMap((slice) => slice.entries)
    .filter((entry) => !horizon || comparePositions(entry.position, horizon) <= 0)
    .sort((a, b) => comparePositions(a.position, b.position));
  const page: ObservationEntry[] = [];
  let recordings = 0;
  for (const entry of candidates) {
    if (page.length === limit) break;
    page.push(entry);
    if (entry.position.kind === "ecg_recording" && ++recordings === ECG_RECORDINGS_PER_PAGE) return { page, next: entry.position };
  }
  if (page.length < candidates.length) return { page, next: page.at(-1)?.position };
  return { page, next: horizon };
}

function searchLink(settings: ObservationSearchSettings, input: ObservationSearchInput, cursor: string | undefined): string {
  const query = new URLSearchParams();
  for (const name of ["type", "code", "category", "start", "end"] as const) {
    const value = input[name];
    if (value !== undefined) query.set(name, value);
  }
  query.set("view", input.view);
  query.set("limit", String(input.limit));
  if (cursor !== undefined) query.set("cursor", cursor);
  return `${settings.searchUrl}?${query.toString()}`;
}

/**
 * GET /v1/users/{id}/fhir/Observation: one page of the user's records as a searchset Bundle
 * of Observations, in time order, then kind and id (see docs/decisions.md, "FHIR").
 */
export async function searchObservations(
  db: DbClient,
  userId: string,
  input: ObservationSearchInput,
  settings: ObservationSearchSettings,
  /** Narrows the search to what this filter lets through (a share's categories); the input's own filters still apply. */
  only?: ObservationFilter,
): Promise<ObservationBundle> {
  const systems = fhirSystems(settings.codeSystemBase);
  const asked = observationFilter(input, systems);
  const filter = only ? intersectFilters(asked, only) : asked;
  if (input.type !== undefined) await checkSampleType(db, userId, input.type);
  const window = parseTimeWindow(input);
  const after = decodeObservationCursor(input.cursor);
  const q: SliceQuery = { db, ctx: { userId, systems }, window, view: input.view, after, limit: input.limit };

  const types = await sampleTypesToRead(db, userId, filter, window, after);
  const panel = filter.panel;
  const slices = await Promise.all([
    ...types.map((type) => samplesSlice(q, type)),
    ...(panel ? [bloodPressureSlice(q, panel)] : []),
    ...[...filter.records].map((kind) => RECORD_SLICES[kind](q)),
  ]);
  const { page, next } = cutPage(slices, input.limit);
  const recordings = page.filter((entry) => entry.position.kind === "ecg_recording").map((entry) => entry.position.id);
  const voltages = await listEcgVoltages(db, userId, recordings);

  const observations = page.map((entry) => entry.render(voltages));
  return {
    resourceType: "Bundle",
    type: "searchset",
    link: [
      { relation: "self", url: searchLink(settings, input, input.cursor) },
      ...(next ? [{ relation: "next", url: searchLink(settings, input, encodeObservationCursor(next)) }] : []),
    ],
    ...(observations.length > 0 && {
      entry: observations.map((resource) => ({
        fullUrl: `${settings.searchUrl}/${resource.id}`,
        resource,
        search: { mode: "match" as const },
      })),
    }),
  };
}
