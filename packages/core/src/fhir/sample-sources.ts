import { afterBigint, comparePositions, type ObservationPosition } from "./observation-position.ts";
import { BLOOD_PRESSURE_TYPES } from "./observation-kinds.ts";
import type { PanelHolds } from "./observation-filter.ts";
import { bloodPressureObservation, type BloodPressurePanel } from "./observations/blood-pressure-observation.ts";
import { sampleObservation } from "./observations/sample-observation.ts";
import { listSampleStartTimes, type QuantitySampleDto, type QuantitySampleRow, readSamplePage, toSampleDto } from "../records/index.ts";
import { sliceOf, type ObservationEntry, type SliceQuery, type SourceSlice } from "./observation-entry.ts";

/** Quantity samples of one type listed alone (`qs-{id}`). */
export async function samplesSlice(q: SliceQuery, type: string): Promise<SourceSlice> {
  const query = { userId: q.ctx.userId, type, start: q.window.start, end: q.window.end, after: afterBigint(q.after, "quantity_sample"), limit: q.limit };
  const rows = await readSamplePage(q.db, query, q.view);
  const positionOf = (row: QuantitySampleRow): ObservationPosition => ({ t: row.start_date, kind: "quantity_sample", id: row.id.toString() });
  return sliceOf(rows, q.limit, (row) => ({ position: positionOf(row), render: () => sampleObservation(q.ctx, toSampleDto(row)) }), positionOf);
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
 * Blood pressure panels (`bp-…`). Readings are read for whole instants (the next `limit` + 1
 * start times), so a pair is never split across pages; the panel sorts by its first reading's id.
 */
export async function bloodPressureSlice(q: SliceQuery, holds: (panel: PanelHolds) => boolean): Promise<SourceSlice> {
  const times = await listSampleStartTimes(q.db, {
    userId: q.ctx.userId,
    types: [BLOOD_PRESSURE_TYPES.systolic, BLOOD_PRESSURE_TYPES.diastolic],
    from: q.after?.t,
    start: q.window.start,
    end: q.window.end,
    limit: q.limit + 1,
  });
  const [first, last] = [times[0], times.at(-1)];
  if (!first || !last) return { entries: [], horizon: null };
  const readings = async (type: string) =>
    (await readSamplePage(q.db, { userId: q.ctx.userId, type, start: first, end: new Date(last.getTime() + 1), limit: 1_000_000 }, q.view)).map(toSampleDto);
  const [systolic, diastolic] = await Promise.all([readings(BLOOD_PRESSURE_TYPES.systolic), readings(BLOOD_PRESSURE_TYPES.diastolic)]);
  const entries: ObservationEntry[] = pairReadings(systolic, diastolic)
    .filter((panel) => holds({ systolic: panel.systolic !== null, diastolic: panel.diastolic !== null }))
    .map((panel) => ({ position: panelPosition(panel), render: () => bloodPressureObservation(q.ctx, panel) }))
    .filter((entry) => !q.after || comparePositions(entry.position, q.after) > 0)
    .sort((a, b) => comparePositions(a.position, b.position));
  // Every reading up to the last instant read is among them; one instant more tells there is more.
  const horizon = times.length > q.limit ? { t: last, kind: "blood_pressure" as const, id: "9223372036854775807" } : null;
  return { entries, horizon };
}
