import { afterBigint, comparePositions, type ObservationPosition } from "./observation-position.ts";
import { BLOOD_PRESSURE_TYPES } from "./observation-kinds.ts";
import type { PanelHolds } from "./observation-filter.ts";
import { bloodPressureObservation, type BloodPressurePanel } from "./observations/blood-pressure-observation.ts";
import { sampleObservation } from "./observations/sample-observation.ts";
import {
  type QuantitySampleDto,
  type QuantitySampleRow,
  type SampleTypeSpan,
  type SampleTypesWalk,
  startSampleTypesWalk,
  toSampleDto,
} from "../records/index.ts";
import type { ObservationEntry, SliceQuery, SourceSlice } from "./observation-entry.ts";

const MAX_BIGINT_ID = "9223372036854775807";

/** The read of one page of the quantity samples of every type listed alone (`qs-{id}`), in one order. */
export function samplesRead(q: SliceQuery, types: readonly SampleTypeSpan[], legacy: boolean): SampleTypesWalk {
  const page = { userId: q.ctx.userId, start: q.window.start, end: q.window.end, after: afterBigint(q.after, "quantity_sample"), limit: q.limit, legacy };
  return startSampleTypesWalk(page, types, q.view, { firstWindowMs: q.firstWindowMs });
}

/**
 * The slice of a samples read: complete up to its last row when it read one more than the
 * page, or, while it is still reading, up to the time it has read up to.
 */
export function samplesSlice(q: SliceQuery, read: SampleTypesWalk): SourceSlice {
  const positionOf = (row: QuantitySampleRow): ObservationPosition => ({ t: row.start_date, kind: "quantity_sample", id: row.id.toString() });
  const entries = read.rows.map((row) => ({ position: positionOf(row), render: () => sampleObservation(q.ctx, toSampleDto(row)) }));
  const last = read.rows.at(-1);
  if (!read.done) return { entries, horizon: { t: new Date(read.readUpTo.getTime() - 1), kind: "quantity_sample", id: MAX_BIGINT_ID } };
  return { entries, horizon: read.rows.length > q.limit && last ? positionOf(last) : null };
}

/**
 * Pairs the readings taken at one time: a systolic and a diastolic reading of the same
 * provider, source and device, in id order; a reading left without a partner is a panel of
 * its own.
 */
export function pairReadings(systolic: readonly QuantitySampleDto[], diastolic: readonly QuantitySampleDto[]): BloodPressurePanel[] {
  const keyOf = (s: QuantitySampleDto) => JSON.stringify([s.start_date, s.provider, s.source, s.device]);
  const waiting = new Map<string, QuantitySampleDto[]>();
  for (const reading of diastolic) waiting.set(keyOf(reading), [...(waiting.get(keyOf(reading)) ?? []), reading]);
  const panels: BloodPressurePanel[] = systolic.map((reading) => ({ systolic: reading, diastolic: waiting.get(keyOf(reading))?.shift() ?? null }));
  for (const left of waiting.values()) panels.push(...left.map((reading) => ({ systolic: null, diastolic: reading })));
  return panels;
}

const panelPosition = (panel: BloodPressurePanel): ObservationPosition => {
  const ids = [panel.systolic?.id, panel.diastolic?.id].filter((id): id is number => id !== undefined);
  const first = panel.systolic ?? panel.diastolic;
  return { t: new Date(first?.start_date ?? 0), kind: "blood_pressure", id: String(Math.min(...ids)) };
};

/**
 * The read of the systolic and diastolic readings from where the page starts (at the cursor's
 * own time: a panel sorts by its first reading's id), a window at a time: every reading
 * before the time it has read up to is read, so a pair is never split across pages. In the
 * merged view it also gives the start times of the readings the merge leaves out: the
 * instants of panels (panelsEnd) count every reading.
 */
export function panelReadings(q: SliceQuery, spans: ReadonlyMap<string, SampleTypeSpan>, legacy: boolean): SampleTypesWalk | undefined {
  const types = [BLOOD_PRESSURE_TYPES.systolic, BLOOD_PRESSURE_TYPES.diastolic].flatMap((type) => spans.get(type) ?? []);
  if (types.length === 0) return undefined;
  const from = [q.window.start, q.after?.t].reduce<Date | undefined>((a, b) => (b && (!a || b > a) ? b : a), undefined);
  // No count cuts a window: readings are few, and the instants of panels count them all.
  return startSampleTypesWalk({ userId: q.ctx.userId, start: from, end: q.window.end, limit: 1_000_000, legacy }, types, q.view, { whole: true });
}

/**
 * The instant of the last panel a page can hold, once the readings read hold it: the
 * `limit` + 1-th instant of a reading (of any, kept or not) from where the page starts.
 */
export function panelsEnd(q: SliceQuery, readings: SampleTypesWalk): Date | undefined {
  const instants = [...new Set([...readings.rows.map((row) => row.start_date.getTime()), ...readings.dropped.map((t) => t.getTime())])].sort((a, b) => a - b);
  const last = instants[q.limit];
  return last === undefined ? undefined : new Date(last);
}

/**
 * Blood pressure panels from their readings (panelReadings) up to the instant of the last
 * panel a page can hold; a panel sorts by its first reading's id. While the readings are still
 * being read, the panels are complete up to the time they have read up to.
 */
export function bloodPressureSlice(q: SliceQuery, holds: (panel: PanelHolds) => boolean, readings: SampleTypesWalk | undefined): SourceSlice {
  if (!readings) return { entries: [], horizon: null };
  const end = panelsEnd(q, readings);
  const readUpTo = readings.done ? Infinity : readings.readUpTo.getTime();
  const upTo = Math.min(readUpTo, end ? end.getTime() + 1 : Infinity);
  const read = readings.rows.filter((row) => row.start_date.getTime() < upTo);
  const [systolic, diastolic] = [BLOOD_PRESSURE_TYPES.systolic, BLOOD_PRESSURE_TYPES.diastolic].map((type) =>
    read.filter((row) => row.type === type).map(toSampleDto),
  ) as [QuantitySampleDto[], QuantitySampleDto[]];
  const entries: ObservationEntry[] = pairReadings(systolic, diastolic)
    .filter((panel) => holds({ systolic: panel.systolic !== null, diastolic: panel.diastolic !== null }))
    .map((panel) => ({ position: panelPosition(panel), render: () => bloodPressureObservation(q.ctx, panel) }))
    .filter((entry) => !q.after || comparePositions(entry.position, q.after) > 0)
    .sort((a, b) => comparePositions(a.position, b.position));
  // Every reading up to the last panel's instant is among them; one instant more tells there is more.
  const horizons = [
    ...(end ? [{ t: end, kind: "blood_pressure" as const, id: MAX_BIGINT_ID }] : []),
    ...(readUpTo < Infinity ? [{ t: new Date(readUpTo - 1), kind: "blood_pressure" as const, id: MAX_BIGINT_ID }] : []),
  ];
  return { entries, horizon: horizons.sort(comparePositions)[0] ?? null };
}
