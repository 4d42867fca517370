import { QUANTITY_TYPES } from "../records/index.ts";
import { AppError } from "../platform/index.ts";
import { LOINC, OBSERVATION_CATEGORY, type FhirSystems } from "./fhir-systems.ts";
import { categoryOfQuantityType, HL7_OBSERVATION_CATEGORIES } from "./observation-categories.ts";
import { BLOOD_PRESSURE_TYPES, isBloodPressureType, RECORD_KINDS, type RecordKind } from "./observation-kinds.ts";

/** Which readings a blood pressure panel holds. */
export interface PanelHolds {
  systolic: boolean;
  diastolic: boolean;
}

/** What the search lists: each query parameter narrows it, and a record is listed when it matches all. */
export interface ObservationFilter {
  /** Quantity samples listed alone: every type the user has that passes (blood pressure types never do). */
  sampleType: (type: string) => boolean;
  /** Blood pressure panels that pass; null when none do. */
  panel: ((holds: PanelHolds) => boolean) | null;
  records: ReadonlySet<RecordKind>;
}

const EVERYTHING: ObservationFilter = { sampleType: () => true, panel: () => true, records: new Set(RECORD_KINDS) };
const NOTHING: ObservationFilter = { sampleType: () => false, panel: null, records: new Set() };

/** What both filters let through. */
export function intersectFilters(a: ObservationFilter, b: ObservationFilter): ObservationFilter {
  const panelA = a.panel;
  const panelB = b.panel;
  return {
    sampleType: (type) => a.sampleType(type) && b.sampleType(type),
    panel: panelA && panelB ? (holds) => panelA(holds) && panelB(holds) : null,
    records: new Set([...a.records].filter((kind) => b.records.has(kind))),
  };
}

function union(a: ObservationFilter, b: ObservationFilter): ObservationFilter {
  const panelA = a.panel;
  const panelB = b.panel;
  return {
    sampleType: (type) => a.sampleType(type) || b.sampleType(type),
    panel: panelA && panelB ? (holds) => panelA(holds) || panelB(holds) : (panelA ?? panelB),
    records: new Set([...a.records, ...b.records]),
  };
}

const onlyRecords = (kind: RecordKind): ObservationFilter => ({ ...NOTHING, records: new Set([kind]) });
const anyPanel: ObservationFilter = { ...NOTHING, panel: () => true };

/** Samples of a quantity type, or the panels holding one when it is a blood pressure reading. */
function ofQuantityType(type: string): ObservationFilter {
  if (type === BLOOD_PRESSURE_TYPES.systolic) return { ...NOTHING, panel: (holds) => holds.systolic };
  if (type === BLOOD_PRESSURE_TYPES.diastolic) return { ...NOTHING, panel: (holds) => holds.diastolic };
  return { ...NOTHING, sampleType: (candidate) => candidate === type };
}

/** LOINC codes of records; quantity samples carry their type's LOINC code. */
const LOINC_RECORDS: Record<string, ObservationFilter> = {
  "85354-9": anyPanel,
  "8480-6": ofQuantityType(BLOOD_PRESSURE_TYPES.systolic),
  "8462-4": ofQuantityType(BLOOD_PRESSURE_TYPES.diastolic),
  "93832-4": onlyRecords("sleep_session"),
  "55411-3": onlyRecords("workout"),
  "11524-6": onlyRecords("ecg_recording"),
};

function ofLoincCode(code: string): ObservationFilter {
  const record = LOINC_RECORDS[code];
  if (record) return record;
  const types = new Set(QUANTITY_TYPES.filter((t) => t.loinc_code === code && !isBloodPressureType(t.name)).map((t) => t.name));
  return { ...NOTHING, sampleType: (type) => types.has(type) };
}

function ofRecordType(code: string): ObservationFilter {
  if (code === "blood_pressure") return anyPanel;
  return (RECORD_KINDS as readonly string[]).includes(code) ? onlyRecords(code as RecordKind) : NOTHING;
}

/** `code`: one token `system|code` of LOINC, the quantity-type or the record-type system; a bare code matches in any of them. */
function ofCodeToken(token: string, systems: FhirSystems): ObservationFilter {
  const bar = token.indexOf("|");
  const code = bar === -1 ? token : token.slice(bar + 1);
  if (code.length === 0 || code.includes("|") || code.includes(",")) {
    throw new AppError("bad_request", "code must be one token: system|code (or a bare code)");
  }
  if (bar === -1) return union(union(ofLoincCode(code), ofQuantityType(code)), ofRecordType(code));
  const system = token.slice(0, bar);
  if (system === LOINC) return ofLoincCode(code);
  if (system === systems.quantityType) return ofQuantityType(code);
  if (system === systems.recordType) return ofRecordType(code);
  throw new AppError(
    "bad_request",
    `code system is not supported: use ${LOINC}, ${systems.quantityType} or ${systems.recordType}`,
  );
}

/** `category`: one HL7 observation-category code, bare or with its system. */
function ofCategoryToken(token: string): ObservationFilter {
  const bar = token.indexOf("|");
  const system = bar === -1 ? undefined : token.slice(0, bar);
  const code = bar === -1 ? token : token.slice(bar + 1);
  if (token.includes(",")) throw new AppError("bad_request", "category takes one value");
  if ((system !== undefined && system !== OBSERVATION_CATEGORY) || !(HL7_OBSERVATION_CATEGORIES as readonly string[]).includes(code)) {
    throw new AppError("bad_request", `category must be a code of ${OBSERVATION_CATEGORY}, such as vital-signs, laboratory, activity or survey`);
  }
  const samples = (type: string) => categoryOfQuantityType(type) === code;
  switch (code) {
    case "vital-signs":
      return { ...NOTHING, sampleType: samples, panel: () => true };
    case "laboratory":
    case "survey":
      return { ...NOTHING, sampleType: samples };
    case "activity":
      return { ...NOTHING, sampleType: samples, records: new Set<RecordKind>(["workout", "daily_summary"]) };
    default:
      return NOTHING;
  }
}

/**
 * The filter of a search's type, code and category (checked here; `type` is checked against
 * the catalog by the caller, who knows the user's own types).
 */
export function observationFilter(input: { type?: string | undefined; code?: string | undefined; category?: string | undefined }, systems: FhirSystems): ObservationFilter {
  let filter = EVERYTHING;
  if (input.type !== undefined) filter = intersectFilters(filter, ofQuantityType(input.type));
  if (input.code !== undefined) filter = intersectFilters(filter, ofCodeToken(input.code, systems));
  if (input.category !== undefined) filter = intersectFilters(filter, ofCategoryToken(input.category));
  return filter;
}

/**
 * The filter of FHIR token parameters of the /v1/fhir base: each repetition of `code` or
 * `category` narrows (AND), the comma-separated tokens of one repetition widen (OR); each
 * token is read as the spec's search reads its one token.
 */
export function observationFilterOfTokens(input: { code: ReadonlyArray<readonly string[]>; category: ReadonlyArray<readonly string[]> }, systems: FhirSystems): ObservationFilter {
  const anyOf = (tokens: readonly string[], of: (token: string) => ObservationFilter) => tokens.map(of).reduce(union, NOTHING);
  let filter = EVERYTHING;
  for (const tokens of input.code) filter = intersectFilters(filter, anyOf(tokens, (token) => ofCodeToken(token, systems)));
  for (const tokens of input.category) filter = intersectFilters(filter, anyOf(tokens, ofCategoryToken));
  return filter;
}
