import { RECORD_KINDS, type RecordKind } from "../observation-kinds.ts";

/** What an Observation id names: a sample, a blood pressure panel's readings, or a record. */
export type ObservationRef =
  | { kind: "quantity_sample"; id: bigint }
  | { kind: "blood_pressure"; systolic: bigint | undefined; diastolic: bigint | undefined }
  | { kind: RecordKind; id: string };

const MAX_BIGINT_ID = 9_223_372_036_854_775_807n;
const BIGINT = "(\\d{1,19})";
const SAMPLE_ID = new RegExp(`^qs-${BIGINT}$`);
const PANEL_ID = new RegExp(`^bp-(?:s${BIGINT})?(?:-?d${BIGINT})?$`);
const RECORD_ID = /^([a-z]+)-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

/** The prefix of each record kind's ids (OBSERVATION_KINDS). */
const RECORD_PREFIXES: Record<string, RecordKind> = {
  sleep: "sleep_session",
  workout: "workout",
  daily: "daily_summary",
  ecg: "ecg_recording",
  nutrition: "nutrition_log",
};

function bigintId(text: string | undefined): bigint | undefined | null {
  if (text === undefined) return undefined;
  const id = BigInt(text);
  return id <= MAX_BIGINT_ID ? id : null;
}

/**
 * The record an Observation id of the search names (`qs-12`, `bp-s12-d13`, `bp-s12`, `bp-d13`,
 * `sleep-{uuid}`...); null for anything else, which no Observation has.
 */
export function parseObservationId(text: string): ObservationRef | null {
  const sample = SAMPLE_ID.exec(text);
  if (sample) {
    const id = bigintId(sample[1]);
    return id === null || id === undefined ? null : { kind: "quantity_sample", id };
  }
  const panel = PANEL_ID.exec(text);
  if (panel) {
    const [systolic, diastolic] = [bigintId(panel[1]), bigintId(panel[2])];
    if (systolic === null || diastolic === null || (systolic === undefined && diastolic === undefined)) return null;
    // The canonical form only: `bp-s1-d2`, `bp-s1`, `bp-d2`.
    if (text !== `bp-${[systolic !== undefined && `s${systolic}`, diastolic !== undefined && `d${diastolic}`].filter(Boolean).join("-")}`) return null;
    return { kind: "blood_pressure", systolic, diastolic };
  }
  const record = RECORD_ID.exec(text);
  const kind = record && RECORD_PREFIXES[record[1]!];
  if (!record || !kind || !RECORD_KINDS.includes(kind)) return null;
  return { kind, id: record[2]! };
}

/** The uuid just before `id` in uuid order (none before the all-zero uuid). */
export function uuidBefore(id: string): string | undefined {
  const hex = id.replace(/-/g, "");
  const value = BigInt(`0x${hex}`);
  if (value === 0n) return undefined;
  const before = (value - 1n).toString(16).padStart(32, "0");
  return `${before.slice(0, 8)}-${before.slice(8, 12)}-${before.slice(12, 16)}-${before.slice(16, 20)}-${before.slice(20)}`;
}
