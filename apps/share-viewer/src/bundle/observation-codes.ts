import type { Observation, ObservationComponent } from "fhir/r4.js";
import { isPlainDate, type When } from "./days.ts";

/**
 * Reading svc's Observations: their codes are under the instance's own code systems
 * (`{fhir_code_system_base}/quantity-type`, `/record-type`, `/figure`), so they are found by
 * the system's last segment, whatever the base.
 */
type Concept = Observation["code"] | undefined;

function codeIn(concept: Concept, system: string): string | null {
  const coding = concept?.coding?.find((c) => c.system?.endsWith(`/${system}`) && typeof c.code === "string");
  return coding?.code ?? null;
}

/** The record kinds svc writes as Observations (besides single quantity samples). */
export const RECORD_KINDS = ["blood_pressure", "sleep_session", "workout", "daily_summary", "ecg_recording", "nutrition_log"] as const;
export type RecordKind = (typeof RECORD_KINDS)[number];

const isRecordKind = (code: string | null): code is RecordKind => code !== null && (RECORD_KINDS as readonly string[]).includes(code);

/** What an Observation is: a record of a kind, a sample of a quantity type, or something else (named by its code's text). */
export type ObservationKind = { kind: "record"; record: RecordKind } | { kind: "quantity"; type: string } | { kind: "other"; name: string };

export function kindOf(observation: Observation): ObservationKind {
  const record = codeIn(observation.code, "record-type");
  if (isRecordKind(record)) return { kind: "record", record };
  const type = codeIn(observation.code, "quantity-type");
  if (type) return { kind: "quantity", type };
  const name = observation.code.text ?? observation.code.coding?.find((c) => c.display)?.display ?? observation.code.coding?.[0]?.code ?? "Other";
  return { kind: "other", name };
}

/** A component by its figure name (`steps`, `deep_seconds`...) or quantity type. */
export function componentOf(observation: Observation, name: string): ObservationComponent | undefined {
  return observation.component?.find((c) => codeIn(c.code, "figure") === name || codeIn(c.code, "quantity-type") === name);
}

/** The number of a component's valueQuantity, or null. */
export function componentValue(observation: Observation, name: string): number | null {
  const value = componentOf(observation, name)?.valueQuantity?.value;
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

/** Minutes in one unit of the UCUM time units a duration figure is given in. */
const MINUTES_PER_UNIT: Readonly<Record<string, number>> = { s: 1 / 60, min: 1, h: 60 };

/**
 * A duration component (`deep_seconds`, `active_seconds`...) in minutes, read by its UCUM
 * code: svc gives these figures in seconds (`s`); shares made before gave minutes (`min`).
 * Null without a value or with a unit that is not a time.
 */
export function componentMinutes(observation: Observation, name: string): number | null {
  const quantity = componentOf(observation, name)?.valueQuantity;
  const code = quantity?.code ?? "";
  const perUnit = Object.hasOwn(MINUTES_PER_UNIT, code) ? MINUTES_PER_UNIT[code] : undefined;
  const value = quantity?.value;
  return perUnit !== undefined && typeof value === "number" && Number.isFinite(value) ? value * perUnit : null;
}

/** The text of a component's valueCodeableConcept (a workout's activity, a meal type). */
export function componentText(observation: Observation, name: string): string | null {
  const concept = componentOf(observation, name)?.valueCodeableConcept;
  return concept?.text ?? concept?.coding?.[0]?.code ?? null;
}

/** The Observation's own number (valueQuantity), or null. */
export function valueOf(observation: Observation): number | null {
  const value = observation.valueQuantity?.value;
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

/** When a FHIR date or dateTime is: a plain date as it is, else the instant it names. */
function whenOfValue(value: string | undefined): When | null {
  if (value === undefined) return null;
  if (isPlainDate(value)) return { kind: "day", day: value };
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : { kind: "time", ms };
}

/**
 * When the Observation starts and ends; null when it has no time. A date-only value (a daily
 * summary's date) stays a plain date: read as an instant it would be UTC midnight, which is
 * the day before anywhere west of UTC.
 */
export function timesOf(observation: Observation): { start: When; end: When } | null {
  const start = whenOfValue(observation.effectiveDateTime ?? observation.effectivePeriod?.start ?? observation.effectiveInstant);
  if (!start) return null;
  return { start, end: whenOfValue(observation.effectivePeriod?.end) ?? start };
}

const STATISTICS = "http://terminology.hl7.org/CodeSystem/observation-statistics";

/** Whether the Observation is svc's aggregate of a local day of samples (meta tag `{base}/aggregate|day`). */
export const isDayAggregate = (observation: Observation): boolean =>
  observation.meta?.tag?.some((tag) => tag.system?.endsWith("/aggregate") && tag.code === "day") ?? false;

/** An aggregate's statistic component (`count`, `minimum`, `maximum`): its number, or null. */
export function statisticValue(observation: Observation, code: "count" | "minimum" | "maximum"): number | null {
  const part = observation.component?.find((c) => c.code.coding?.some((coding) => coding.system === STATISTICS && coding.code === code));
  const value = part?.valueInteger ?? part?.valueQuantity?.value;
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}
