import type { Bundle, Observation } from "fhir/r4.js";
import { fhirSystems } from "./fhir-systems.ts";
import { intersectFilters, observationFilter, type ObservationFilter } from "./observation-filter.ts";
import { isBloodPressureType, type RecordKind } from "./observation-kinds.ts";
import { comparePositions, decodeObservationCursor, encodeObservationCursor, type ObservationPosition } from "./observation-position.ts";
import {
  checkSampleType,
  groupOfMetric,
  listEcgVoltages,
  loadUserSourceOrders,
  rankStreams,
  type RecordView,
  resolveSourceOrder,
  type UserSourceOrders,
} from "../records/index.ts";
import { type DbClient, parseTimeWindow, type TimeWindow } from "../platform/index.ts";
import type { ObservationEntry, SliceQuery, SourceSlice } from "./observation-entry.ts";
import { listUserSampleStreams } from "./observation-sample-repository.ts";
import { dailySlice, ECG_RECORDINGS_PER_PAGE, ecgSlice, nutritionSlice, sleepSlice, workoutSlice } from "./record-sources.ts";
import { readNextWindows, readSeries, type SampleRead, type SampleTypeInfo } from "./sample-reads.ts";
import { bloodPressureSlice, listPanelTimes, panelReadings, samplesRead, samplesSlice } from "./sample-sources.ts";

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

type SampleStream = Awaited<ReturnType<typeof listUserSampleStreams>>[number];

/** Each type the user has samples of: the span of its samples and, in the merged view, its streams ranked. */
function sampleTypeInfos(streams: readonly SampleStream[], orders: UserSourceOrders | undefined): Map<string, SampleTypeInfo> {
  const byType = new Map<string, SampleStream[]>();
  for (const stream of streams) byType.set(stream.type, [...(byType.get(stream.type) ?? []), stream]);
  const infos = new Map<string, SampleTypeInfo>();
  for (const [type, of] of byType) {
    const sqlStreams = of.map(({ sourceKey, provider, onBody, maxDurationSeconds }) => ({ sourceKey, provider, onBody, maxDurationSeconds }));
    infos.set(type, {
      first: new Date(Math.min(...of.map((s) => s.firstStart.getTime()))),
      last: new Date(Math.max(...of.map((s) => s.lastStart.getTime()))),
      streams: orders ? rankStreams(sqlStreams, resolveSourceOrder(type, groupOfMetric(type), orders)) : [],
    });
  }
  return infos;
}

/** Types the user has samples of that pass the filter and can hold samples after the position in the window. */
function sampleTypesToRead(infos: ReadonlyMap<string, SampleTypeInfo>, filter: ObservationFilter, window: TimeWindow, after: ObservationPosition | undefined) {
  const from = Math.max(window.start?.getTime() ?? -Infinity, after?.t.getTime() ?? -Infinity);
  return [...infos]
    .filter(([type]) => !isBloodPressureType(type) && filter.sampleType(type))
    .filter(([, span]) => span.last.getTime() >= from && (!window.end || span.first < window.end))
    .map(([type]) => type)
    .sort();
}

/** Whether the page is known from the slices as read so far: more entries than the page up to the nearest horizon. */
function pageIsKnown(slices: readonly SourceSlice[], limit: number): boolean {
  const horizon = slices.flatMap((slice) => slice.horizon ?? []).sort(comparePositions)[0];
  if (!horizon) return false;
  return slices.flatMap((slice) => slice.entries).filter((entry) => comparePositions(entry.position, horizon) <= 0).length > limit;
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

/**
 * The slices of every source the filter lets through. Records are read beside the user's
 * sample streams; then the samples of every type and the blood pressure readings are read a
 * window at a time, every type's window in one statement, until the page is known (a type or
 * the panels still reading give a horizon at the time they have read up to; see pageIsKnown).
 */
async function readSlices(q: SliceQuery, filter: ObservationFilter): Promise<SourceSlice[]> {
  const panel = filter.panel;
  const [streams, orders, panelTimes, records] = await Promise.all([
    listUserSampleStreams(q.db, q.ctx.userId),
    q.view === "merged" ? loadUserSourceOrders(q.db, q.ctx.userId) : undefined,
    panel ? listPanelTimes(q) : [],
    Promise.all([...filter.records].map((kind) => RECORD_SLICES[kind](q))),
  ]);
  const infos = sampleTypeInfos(streams, orders);
  const reads = sampleTypesToRead(infos, filter, q.window, q.after).map((type) => samplesRead(q, type, infos.get(type)));
  const readings = panelReadings(q, panelTimes, infos);
  const all: SampleRead[] = [...reads, ...readings];
  const series = readSeries(q.db, q.ctx.userId, all);
  for (;;) {
    await readNextWindows(q.db, q.ctx.userId, all, series);
    const slices = [
      ...reads.map((read) => samplesSlice(q, read)),
      ...(panel ? [bloodPressureSlice(q, panel, panelTimes, readings)] : []),
      ...records,
    ];
    if (all.every((read) => read.done) || pageIsKnown(slices, q.limit)) return slices;
  }
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

  const slices = await readSlices(q, filter);
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
