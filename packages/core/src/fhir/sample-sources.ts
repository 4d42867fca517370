import { afterBigint, comparePositions, type ObservationPosition } from "./observation-position.ts";
import { BLOOD_PRESSURE_TYPES } from "./observation-kinds.ts";
import type { PanelHolds } from "./observation-filter.ts";
import { bloodPressureObservation, type BloodPressurePanel } from "./observations/blood-pressure-observation.ts";
import { sampleObservation } from "./observations/sample-observation.ts";
import { listSampleStartTimes, type QuantitySampleDto, type QuantitySampleRow, toSampleDto } from "../records/index.ts";
import type { ObservationEntry, SliceQuery, SourceSlice } from "./observation-entry.ts";
import { type SampleRead, type SampleTypeInfo, startSampleRead } from "./sample-reads.ts";

const MAX_BIGINT_ID = "9223372036854775807";

/** The read of a page of quantity samples of one type listed alone (`qs-{id}`). */
export function samplesRead(q: SliceQuery, type: string, info: SampleTypeInfo | undefined): SampleRead {
  const query = { userId: q.ctx.userId, type, start: q.window.start, end: q.window.end, after: afterBigint(q.after, "quantity_sample"), limit: q.limit };
  return startSampleRead(query, q.view, info);
}

/**
 * The slice of a samples read: complete up to its last row when it read one more than the
 * page, or, while it is still reading, up to the time it has read up to.
 */
export function samplesSlice(q: SliceQuery, read: SampleRead): SourceSlice {
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
 * The instants of the blood pressure panels (`bp-…`) a page can hold: the next `limit` + 1
 * start times of readings, so a pair is never split across pages.
 */
export function listPanelTimes(q: SliceQuery): Promise<Date[]> {
  return listSampleStartTimes(q.db, {
    userId: q.ctx.userId,
    types: [BLOOD_PRESSURE_TYPES.systolic, BLOOD_PRESSURE_TYPES.diastolic],
    from: q.after?.t,
    start: q.window.start,
    end: q.window.end,
    limit: q.limit + 1,
  });
}

/** The reads of every systolic and diastolic reading at the panels' instants. */
export function panelReadings(q: SliceQuery, times: readonly Date[], infos: ReadonlyMap<string, SampleTypeInfo>): SampleRead[] {
  const [first, last] = [times[0], times.at(-1)];
  if (!first || !last) return [];
  return [BLOOD_PRESSURE_TYPES.systolic, BLOOD_PRESSURE_TYPES.diastolic].map((type) =>
    startSampleRead({ userId: q.ctx.userId, type, start: first, end: new Date(last.getTime() + 1), limit: 1_000_000 }, q.view, infos.get(type)),
  );
}

/**
 * Blood pressure panels from their readings (panelReadings); a panel sorts by its first
 * reading's id. While the readings are still being read, the panels are complete up to the
 * time both have read up to.
 */
export function bloodPressureSlice(q: SliceQuery, holds: (panel: PanelHolds) => boolean, times: readonly Date[], readings: readonly SampleRead[]): SourceSlice {
  const last = times.at(-1);
  if (!last) return { entries: [], horizon: null };
  const readUpTo = Math.min(...readings.filter((read) => !read.done).map((read) => read.readUpTo.getTime()));
  const [systolic, diastolic] = [readings[0]?.rows ?? [], readings[1]?.rows ?? []].map((rows) =>
    rows.filter((row) => row.start_date.getTime() < readUpTo).map(toSampleDto),
  ) as [QuantitySampleDto[], QuantitySampleDto[]];
  const entries: ObservationEntry[] = pairReadings(systolic, diastolic)
    .filter((panel) => holds({ systolic: panel.systolic !== null, diastolic: panel.diastolic !== null }))
    .map((panel) => ({ position: panelPosition(panel), render: () => bloodPressureObservation(q.ctx, panel) }))
    .filter((entry) => !q.after || comparePositions(entry.position, q.after) > 0)
    .sort((a, b) => comparePositions(a.position, b.position));
  // Every reading up to the last instant read is among them; one instant more tells there is more.
  const horizons = [
    ...(times.length > q.limit ? [{ t: last, kind: "blood_pressure" as const, id: MAX_BIGINT_ID }] : []),
    ...(readUpTo < Infinity ? [{ t: new Date(readUpTo - 1), kind: "blood_pressure" as const, id: MAX_BIGINT_ID }] : []),
  ];
  return { entries, horizon: horizons.sort(comparePositions)[0] ?? null };
}
