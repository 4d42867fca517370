import { z } from "zod";
import { decodeCursor, encodeCursor } from "../platform/index.ts";
import type { AfterTimeBigint, AfterTimeUuid } from "../records/index.ts";
import { OBSERVATION_KINDS, kindRank, type ObservationKind } from "./observation-kinds.ts";

/**
 * Where an Observation sorts: its time, then its kind, then the id of its record (a
 * decimal bigint for samples and panels, a uuid for the other records).
 */
export interface ObservationPosition {
  t: Date;
  kind: ObservationKind;
  id: string;
}

/** Kinds whose records have bigint ids (samples, and panels named by a sample); the others have uuids. */
const BIGINT_ID_KINDS: ReadonlySet<ObservationKind> = new Set(["quantity_sample", "blood_pressure"]);
const MAX_BIGINT_ID = 9_223_372_036_854_775_807n;
const BIGINT_ID = /^\d{1,19}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const ObservationCursor = z
  .object({
    t: z.iso.datetime().refine((t) => t >= "0001-01-01", "time out of range"),
    k: z.enum(OBSERVATION_KINDS.map((k) => k.kind) as [ObservationKind, ...ObservationKind[]]),
    id: z.string(),
  })
  .strict()
  .refine(
    (c) => (BIGINT_ID_KINDS.has(c.k) ? BIGINT_ID.test(c.id) && BigInt(c.id) <= MAX_BIGINT_ID : UUID.test(c.id)),
    "id does not fit the kind",
  );

export const encodeObservationCursor = (p: ObservationPosition): string =>
  encodeCursor({ t: p.t.toISOString(), k: p.kind, id: p.id });

export function decodeObservationCursor(cursor: string | undefined): ObservationPosition | undefined {
  if (cursor === undefined) return undefined;
  const c = decodeCursor(cursor, ObservationCursor);
  return { t: new Date(c.t), kind: c.k, id: c.id };
}

function compareIds(kind: ObservationKind, a: string, b: string): number {
  if (BIGINT_ID_KINDS.has(kind)) {
    const [x, y] = [BigInt(a), BigInt(b)];
    return x < y ? -1 : x > y ? 1 : 0;
  }
  return a < b ? -1 : a > b ? 1 : 0;
}

export function comparePositions(a: ObservationPosition, b: ObservationPosition): number {
  return a.t.getTime() - b.t.getTime() || kindRank(a.kind) - kindRank(b.kind) || compareIds(a.kind, a.id, b.id);
}

/**
 * How records of `kind` at the position's own time relate to it: all after it (a later kind),
 * all before it (an earlier kind), or after it from the position's id on (the same kind).
 */
function boundAtSameTime(after: ObservationPosition, kind: ObservationKind): "all_after" | "all_before" | "by_id" {
  const order = kindRank(kind) - kindRank(after.kind);
  return order > 0 ? "all_after" : order < 0 ? "all_before" : "by_id";
}

const MIN_UUID = "00000000-0000-0000-0000-000000000000";
const MAX_UUID = "ffffffff-ffff-ffff-ffff-ffffffffffff";

/** The (time, id) after which a table of `kind` with bigint ids continues the search. */
export function afterBigint(after: ObservationPosition | undefined, kind: ObservationKind): AfterTimeBigint | undefined {
  if (!after) return undefined;
  const bound = boundAtSameTime(after, kind);
  return { t: after.t, id: bound === "all_after" ? 0n : bound === "all_before" ? MAX_BIGINT_ID : BigInt(after.id) };
}

/** As afterBigint, for tables with uuid ids. */
export function afterUuid(after: ObservationPosition | undefined, kind: ObservationKind): AfterTimeUuid | undefined {
  if (!after) return undefined;
  const bound = boundAtSameTime(after, kind);
  return { t: after.t, id: bound === "all_after" ? MIN_UUID : bound === "all_before" ? MAX_UUID : after.id };
}

/**
 * Daily summaries sort at midnight UTC of their date: the (date, id) after which they continue.
 * A position inside a day puts every summary of that date before it.
 */
export function afterDate(after: ObservationPosition | undefined): { d: string; id: string } | undefined {
  if (!after) return undefined;
  const d = after.t.toISOString().slice(0, 10);
  const atMidnight = after.t.getTime() === Date.parse(`${d}T00:00:00.000Z`);
  return { d, id: atMidnight ? afterUuid(after, "daily_summary")!.id : MAX_UUID };
}
