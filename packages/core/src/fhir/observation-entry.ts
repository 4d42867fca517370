import type { Observation } from "fhir/r4.js";
import type { ObservationPosition } from "./observation-position.ts";
import type { DbClient, TimeWindow } from "../platform/index.ts";
import type { RecordView } from "../records/index.ts";
import type { ObservationContext } from "./observations/observation-parts.ts";

/** One Observation of a page: where it sorts, and how it is written once the page is known. */
export interface ObservationEntry {
  position: ObservationPosition;
  /** `voltages`: ECG voltages of the page's recordings, loaded once the page is cut. */
  render: (voltages: ReadonlyMap<string, number[]>) => Observation;
}

/**
 * What one kind of record gives towards a page: its next entries after the position, in
 * order, and how far they are complete: every entry of the kind up to `horizon` is among them
 * (null: to the end).
 */
export interface SourceSlice {
  entries: ObservationEntry[];
  horizon: ObservationPosition | null;
}

/** What every source reads a slice with. */
export interface SliceQuery {
  db: DbClient;
  ctx: ObservationContext;
  window: TimeWindow;
  view: RecordView;
  after: ObservationPosition | undefined;
  /** How many entries a source reads at most (one more tells whether it has more). */
  limit: number;
  /** How long the first window of samples is (ObservationPageQuery.firstWindowMs). */
  firstWindowMs?: number | undefined;
}

/** The slice of `rows` read with `limit` + 1: complete up to the last row when there was one more than `limit`. */
export function sliceOf<Row>(
  rows: readonly Row[],
  limit: number,
  toEntry: (row: Row) => ObservationEntry | null,
  positionOf: (row: Row) => ObservationPosition,
): SourceSlice {
  const last = rows.at(-1);
  return {
    entries: rows.flatMap((row) => toEntry(row) ?? []),
    horizon: rows.length > limit && last !== undefined ? positionOf(last) : null,
  };
}
