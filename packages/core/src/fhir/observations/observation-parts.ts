import type { CodeableConcept, Coding, Observation, ObservationComponent, Quantity } from "fhir/r4.js";
import { findQuantityType } from "../../records/index.ts";
import { DATA_ABSENT_REASON, LOINC, UCUM, type FhirSystems } from "../fhir-systems.ts";
import { categoryConcept, type ObservationCategory } from "../observation-categories.ts";

/** What every Observation of a search shares: its user and the instance's code systems. */
export interface ObservationContext {
  userId: string;
  systems: FhirSystems;
}

/** Where a record came from, as its REST answer gives it. */
export interface RecordProvenance {
  provider: string;
  source: string | null;
  device: string | null;
  external_id: string | null;
  ingested_at: string;
}

/** A time (start equal to end) or a period. */
export type Effective = Partial<Pick<Observation, "effectiveDateTime" | "effectivePeriod">>;

export const effectiveOf = (start: string, end: string): Effective =>
  start === end ? { effectiveDateTime: start } : { effectivePeriod: { start, end } };

/** A UCUM quantity; a unit outside UCUM (of a type the catalog does not know) is given as text only. */
export function quantityOf(value: number, ucum: string | undefined, unitText?: string): Quantity {
  const unit = textOrNull(unitText) ?? ucum;
  if (ucum === undefined) return { value, ...(unit && { unit }) };
  return { value, unit: unit ?? ucum, system: UCUM, code: ucum };
}

/** A FHIR code: no leading, trailing or repeated whitespace; null when nothing is left. */
export const codeOrNull = (text: string | null | undefined): string | null => textOrNull(text?.replace(/\s+/g, " "));

/** Observation.component, left out when there is none (FHIR arrays are never empty). */
export const withComponents = (components: ObservationComponent[]): Partial<Pick<Observation, "component">> =>
  components.length > 0 ? { component: components } : {};

/** FHIR strings may not be empty or only whitespace: such text is left out. */
export function textOrNull(text: string | null | undefined): string | null {
  const trimmed = text?.trim();
  return trimmed ? trimmed : null;
}

/** dataAbsentReason `unknown`: the record does not say. */
export const UNKNOWN_VALUE: CodeableConcept = { coding: [{ system: DATA_ABSENT_REASON, code: "unknown", display: "Unknown" }] };

/** The code of a quantity type: its LOINC code (when it has one) and the quantity-type code. */
export function quantityTypeCodings(systems: FhirSystems, type: string): Coding[] {
  const known = findQuantityType(type);
  return [
    ...(known?.loinc_code ? [{ system: LOINC, code: known.loinc_code }] : []),
    { system: systems.quantityType, code: type, ...(known && { display: known.description }) },
  ];
}

/**
 * A figure of a record as a component: coded by its REST field name, and by its quantity type
 * (and LOINC) when one means the same. Left out when the record has no value for it.
 */
export function figureComponent(
  systems: FhirSystems,
  figure: { field: string; value: number | null; ucum: string; quantityType?: string; loinc?: string },
): ObservationComponent[] {
  if (figure.value === null) return [];
  const codings = [
    ...(figure.loinc ? [{ system: LOINC, code: figure.loinc }] : []),
    ...(figure.quantityType ? quantityTypeCodings(systems, figure.quantityType) : []),
    { system: systems.figure, code: figure.field },
  ];
  return [{ code: { coding: codings, text: figure.field }, valueQuantity: quantityOf(figure.value, figure.ucum) }];
}

/**
 * A duration figure named `*_seconds` as in the REST answer: its value stays in seconds
 * (UCUM `s`), so the code a consumer reads and the unit agree.
 */
export function secondsComponent(
  systems: FhirSystems,
  figure: { field: `${string}_seconds`; value: number | null; loinc?: string },
): ObservationComponent[] {
  return figureComponent(systems, { ...figure, ucum: "s" });
}

/** Seconds as minutes, the unit Observations give their own duration values in. */
export const minutesOf = (seconds: number | null): number | null => (seconds === null ? null : seconds / 60);

/**
 * The fields every Observation has: id, meta (source, profiles, provider and source tags),
 * identifiers, status, category, code, subject, effective time, issued, performer, device.
 */
export function observationBase(
  ctx: ObservationContext,
  id: string,
  record: RecordProvenance,
  parts: { code: CodeableConcept; category: ObservationCategory | null; profiles?: string[]; effective: Effective },
): Observation {
  const { systems } = ctx;
  const patient = { reference: `Patient/${ctx.userId}` };
  const [source, device, externalId] = [codeOrNull(record.source), textOrNull(record.device), textOrNull(record.external_id)];
  return {
    resourceType: "Observation",
    id,
    meta: {
      source: `${systems.provider}/${record.provider}`,
      ...(parts.profiles && parts.profiles.length > 0 && { profile: parts.profiles }),
      tag: [
        { system: systems.provider, code: record.provider },
        ...(source ? [{ system: systems.source, code: source }] : []),
      ],
    },
    identifier: [
      { system: systems.observationId, value: id },
      ...(externalId ? [{ system: `${systems.externalId}/${record.provider}`, value: externalId }] : []),
    ],
    status: "final",
    ...(parts.category && { category: categoryConcept(parts.category) }),
    code: parts.code,
    subject: patient,
    ...parts.effective,
    issued: record.ingested_at,
    performer: [patient],
    ...(device && { device: { display: device } }),
  };
}
