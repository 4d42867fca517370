/**
 * The kinds of record the Observation search lists, in the order that breaks ties between
 * records at the same time, with the prefix of their Observation ids.
 */
export const OBSERVATION_KINDS = [
  { kind: "quantity_sample", prefix: "qs" },
  { kind: "blood_pressure", prefix: "bp" },
  { kind: "sleep_session", prefix: "sleep" },
  { kind: "workout", prefix: "workout" },
  { kind: "daily_summary", prefix: "daily" },
  { kind: "ecg_recording", prefix: "ecg" },
  { kind: "nutrition_log", prefix: "nutrition" },
] as const;

export type ObservationKind = (typeof OBSERVATION_KINDS)[number]["kind"];

/** Kinds that are whole records of their own table (not quantity samples or panels of them). */
export type RecordKind = Exclude<ObservationKind, "quantity_sample" | "blood_pressure">;
export const RECORD_KINDS = OBSERVATION_KINDS.map((k) => k.kind).filter(
  (kind): kind is RecordKind => kind !== "quantity_sample" && kind !== "blood_pressure",
);

/** Where a kind sorts among records at the same time. */
export const kindRank = (kind: ObservationKind): number => OBSERVATION_KINDS.findIndex((k) => k.kind === kind);

export const BLOOD_PRESSURE_TYPES = { systolic: "blood_pressure_systolic", diastolic: "blood_pressure_diastolic" } as const;
export const isBloodPressureType = (type: string): boolean =>
  type === BLOOD_PRESSURE_TYPES.systolic || type === BLOOD_PRESSURE_TYPES.diastolic;
