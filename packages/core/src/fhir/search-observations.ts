import type { Bundle, Observation } from "fhir/r4.js";
import { fhirSystems, type FhirSystems } from "./fhir-systems.ts";
import { intersectFilters, observationFilter, type ObservationFilter } from "./observation-filter.ts";
import { isBloodPressureType, type RecordKind } from "./observation-kinds.ts";
import { comparePositions, decodeObservationCursor, encodeObservationCursor, type ObservationPosition } from "./observation-position.ts";
import {
  checkSampleType,
  listEcgVoltages,
  loadUserStreams,
  QUANTITY_TYPES,
  rankStreamsByOrders,
  readNextSampleWindows,
  readPageSeries,
  readRecordPages,
  type RecordView,
  type SampleStreamRow,
  type SampleTypeSpan,
  type StreamTable,
  type UserSourceOrders,
  type UserStreams,
} from "../records/index.ts";
import { type DbClient, parseTimeWindow, type TimeWindow } from "../platform/index.ts";
import type { ObservationEntry, SliceQuery, SourceSlice } from "./observation-entry.ts";
import { RANKED_KINDS, type RecordRead, recordRead, takePage } from "./record-sources.ts";
import { bloodPressureSlice, panelReadings, panelsEnd, samplesRead, samplesSlice } from "./sample-sources.ts";

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

/** How many records of each kind a search that lists samples reads at first (readSlices). */
const FIRST_RECORDS = 10;

/** Each type the user has samples of: the span of its samples and, in the merged view, its streams ranked. */
function sampleTypeInfos(streams: readonly SampleStreamRow[], orders: UserSourceOrders | undefined): Map<string, SampleTypeSpan> {
  const byType = new Map<string, SampleStreamRow[]>();
  for (const stream of streams) byType.set(stream.type, [...(byType.get(stream.type) ?? []), stream]);
  const infos = new Map<string, SampleTypeSpan>();
  for (const [type, of] of byType) {
    const sqlStreams = of.map(({ sourceKey, provider, onBody, maxDurationSeconds }) => ({ sourceKey, provider, onBody, maxDurationSeconds }));
    infos.set(type, {
      type,
      first: new Date(Math.min(...of.map((s) => s.firstStart.getTime()))),
      last: new Date(Math.max(...of.map((s) => s.lastStart.getTime()))),
      streams: orders ? rankStreamsByOrders(type, sqlStreams, orders) : [],
    });
  }
  return infos;
}

/** Types the user has samples of that pass the filter and can hold samples after the position in the window. */
function sampleTypesToRead(infos: ReadonlyMap<string, SampleTypeSpan>, filter: Pick<ObservationFilter, "sampleType">, window: TimeWindow, after: ObservationPosition | undefined) {
  const from = Math.max(window.start?.getTime() ?? -Infinity, after?.t.getTime() ?? -Infinity);
  return [...infos]
    .filter(([type]) => !isBloodPressureType(type) && filter.sampleType(type))
    .filter(([, span]) => span.last.getTime() >= from && (!window.end || span.first < window.end))
    .map(([, span]) => span)
    .sort((a, b) => (a.type < b.type ? -1 : a.type > b.type ? 1 : 0));
}

/**
 * The types of the user's samples that every search lists alone in the merged view (all but
 * blood pressure readings), with their spans and ranked streams, that can hold samples after
 * `after`; `legacy`: whether some of the user's samples are still in the legacy table.
 */
export async function mergedSampleTypes(db: DbClient, userId: string, after: ObservationPosition | undefined) {
  const { samples, orders, legacy } = await loadUserStreams(db, userId, { view: "merged", tables: [], pages: {} });
  return { types: sampleTypesToRead(sampleTypeInfos(samples, orders), { sampleType: () => true }, {}, after), legacy };
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
  const { page, atRecordingCap } = takePage(candidates, limit);
  if (atRecordingCap || page.length < candidates.length) return { page, next: page.at(-1)?.position };
  return { page, next: horizon };
}

/**
 * The reads of the samples of every type listed alone (one page of them all) and of the blood
 * pressure readings, with their first windows read (in one statement).
 */
async function startSampleReads(q: SliceQuery, filter: ObservationFilter, streams: Promise<UserStreams>) {
  const { samples: sampleStreams, orders, legacy } = await streams;
  const infos = sampleTypeInfos(sampleStreams, orders);
  const types = sampleTypesToRead(infos, filter, q.window, q.after);
  const samples = types.length > 0 ? samplesRead(q, types, legacy) : undefined;
  const readings = filter.panel ? panelReadings(q, infos, legacy) : undefined;
  const walks = [samples, readings].filter((walk) => walk !== undefined);
  const series = readPageSeries(q.db, q.ctx.userId, [...new Set(walks.flatMap((walk) => walk.query.types))]);
  await readNextSampleWindows(q.db, walks, series);
  return { samples, readings, walks, series };
}

/** The pages of record reads by kind, to read in one statement. */
const pagesOf = (reads: readonly RecordRead[]) => Object.fromEntries(reads.map((read) => [read.kind, read.page]));

interface RecordSlice {
  read: RecordRead;
  slice: SourceSlice;
}

/** The slices of reads from the rows of their pages (read by kind). */
const slicesOf = (reads: readonly RecordRead[], rows: Readonly<Record<string, readonly object[]>>): RecordSlice[] =>
  reads.map((read) => ({ read, slice: read.slice(rows[read.kind] ?? []) }));

/**
 * The records of every kind: those needing no ranking read with the user's streams (`unranked`,
 * in that statement), then those of ranked tables in the merged view, all in one statement.
 */
async function readRecords(q: SliceQuery, kinds: readonly RecordKind[], limit: number, unranked: readonly RecordRead[], streams: Promise<UserStreams>) {
  const { ranked, pages } = await streams;
  const reads = kinds.filter((kind) => !unranked.some((read) => read.kind === kind)).map((kind) => recordRead(q, kind, limit, ranked));
  return [...slicesOf(unranked, pages), ...slicesOf(reads, await readRecordPages(q.db, pagesOf(reads)))];
}

/**
 * The slices of every source the filter lets through. The user's streams (and, in the merged
 * view, orders of sources) are read first, in one statement with the records that need no
 * ranking; then the records of ranked tables (one statement) beside the first window of the
 * samples (one page of every type) and of the blood pressure readings (both in one statement).
 * Samples and readings are read a window at a time until the page is known (while they are
 * still reading they give a horizon at the time they have read up to; see pageIsKnown).
 * Beside samples, a page spans little time: records are read a few at first (FIRST_RECORDS),
 * a page of each kind whose few do not reach as far as the page.
 */
async function readSlices(q: SliceQuery, filter: ObservationFilter): Promise<SourceSlice[]> {
  const panel = filter.panel;
  const kinds = [...filter.records];
  const listsSamples = panel !== null || QUANTITY_TYPES.some((type) => filter.sampleType(type.name));
  const first = listsSamples ? Math.min(q.limit, FIRST_RECORDS) : q.limit;
  const unranked = kinds.filter((kind) => q.view === "all" || !RANKED_KINDS.has(kind)).map((kind) => recordRead(q, kind, first, {}));
  const tables = kinds.filter((kind): kind is StreamTable => RANKED_KINDS.has(kind));
  const streams = loadUserStreams(q.db, q.ctx.userId, { view: q.view, tables, pages: pagesOf(unranked) });
  const [firstRecords, { samples, readings, walks, series }] = await Promise.all([
    readRecords(q, kinds, first, unranked, streams),
    startSampleReads(q, filter, streams),
  ]);
  let records = firstRecords;
  for (;;) {
    const slices = [
      ...(samples ? [samplesSlice(q, samples)] : []),
      ...(panel ? [bloodPressureSlice(q, panel, readings)] : []),
      ...records.map((record) => record.slice),
    ];
    // Readings past the last panel a page can hold are not needed.
    const end = readings && panelsEnd(q, readings);
    if (readings && end && readings.readUpTo > end) readings.done = true;
    if (pageIsKnown(slices, q.limit)) return slices;
    const short = records.filter((record) => record.read.limit < q.limit && record.slice.horizon !== null);
    if (short.length === 0 && walks.every((walk) => walk.done)) return slices;
    const { ranked } = await streams;
    const again = short.map((record) => recordRead(q, record.read.kind, q.limit, ranked));
    const [rows] = await Promise.all([
      readRecordPages(q.db, pagesOf(again)),
      walks.every((walk) => walk.done) ? undefined : readNextSampleWindows(q.db, walks, series),
    ]);
    records = [...records.filter((record) => !short.includes(record)), ...slicesOf(again, rows)];
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

/** One page of a user's Observations: what it lists, from where, how many. */
export interface ObservationPageQuery {
  userId: string;
  systems: FhirSystems;
  filter: ObservationFilter;
  window: TimeWindow;
  view: RecordView;
  /** Where the page starts (after this position); none: at the start of the window. */
  after: ObservationPosition | undefined;
  limit: number;
  /**
   * How long the first window of samples the page reads is (default: a week, then longer
   * ones). It changes how much is read at once, never the page: an export of dense samples
   * sizes it to its pages.
   */
  firstWindowMs?: number | undefined;
}

export interface ObservationPage {
  observations: Observation[];
  /** Where the next page starts; none on the last page. */
  next: ObservationPosition | undefined;
}

/** A page as the walk cuts it: each entry's position and how it is written (renderObservations). */
export interface ObservationEntryPage {
  entries: ObservationEntry[];
  next: ObservationPosition | undefined;
}

/**
 * One page of the user's Observations in time order, then kind and id, not written yet: the walk
 * every FHIR search and read of svc shares (the spec's search, the /v1/fhir base, shares).
 */
export async function readObservationEntries(db: DbClient, query: ObservationPageQuery): Promise<ObservationEntryPage> {
  const { userId, systems, filter, window, view, after, limit, firstWindowMs } = query;
  const q: SliceQuery = { db, ctx: { userId, systems }, window, view, after, limit, firstWindowMs };
  const slices = await readSlices(q, filter);
  const { page, next } = cutPage(slices, limit);
  return { entries: page, next };
}

/** The Observations of entries of the user (ECG recordings with their voltages, read once for all). */
export async function renderObservations(db: DbClient, userId: string, entries: readonly ObservationEntry[]): Promise<Observation[]> {
  const recordings = entries.filter((entry) => entry.position.kind === "ecg_recording").map((entry) => entry.position.id);
  const voltages = await listEcgVoltages(db, userId, recordings);
  return entries.map((entry) => entry.render(voltages));
}

/** One page of the user's Observations (readObservationEntries), written. */
export async function readObservationPage(db: DbClient, query: ObservationPageQuery): Promise<ObservationPage> {
  const { entries, next } = await readObservationEntries(db, query);
  return { observations: await renderObservations(db, query.userId, entries), next };
}

/**
 * GET /v1/users/{id}/fhir/Observation: one page of the user's records as a searchset Bundle
 * of Observations, in time order, then kind and id (see docs/reference/fhir.md, "Query").
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
  const { observations, next } = await readObservationPage(db, { userId, systems, filter, window, view: input.view, after, limit: input.limit });
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
