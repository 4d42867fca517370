import { AppError } from "../../platform/index.ts";

/** A FHIR query as received: each parameter's values (a repeated parameter has several). */
export type FhirQuery = Readonly<Record<string, unknown>>;

/** A parameter a search takes, and the modifiers it takes (`patient:Patient`). */
export interface KnownParameter {
  name: string;
  modifiers?: readonly string[];
}

/** Parameters of every interaction (FHIR http.html): `_format` is answered by the HTTP layer. */
const GENERAL_PARAMETERS: readonly KnownParameter[] = [{ name: "_format" }];

/** A value longer than this is refused (no FHIR value svc takes is near it). */
const MAX_VALUE_LENGTH = 2048;

/**
 * The values of a parameter, repetitions in order; empty values are left out, as FHIR says a
 * parameter without a value is ignored. A value that is not text (or is too long) is a 400.
 */
export function valuesOf(query: FhirQuery, name: string): string[] {
  const raw = query[name];
  if (raw === undefined) return [];
  const values = Array.isArray(raw) ? raw : [raw];
  return values.filter((value) => {
    if (typeof value !== "string" || value.length > MAX_VALUE_LENGTH) throw new AppError("bad_request", `${name} must be text of at most ${MAX_VALUE_LENGTH} characters`);
    return value.length > 0;
  });
}

/** The one value of a parameter that may not repeat (none when absent). */
export function singleValueOf(query: FhirQuery, name: string): string | undefined {
  const values = valuesOf(query, name);
  if (values.length > 1) throw new AppError("bad_request", `${name} may be given once`);
  return values[0];
}

/** The values one parameter value lists, separated by commas (FHIR's OR; `\,` is a comma inside a value). */
export function orValues(value: string): string[] {
  return value.split(/(?<!\\),/).map((part) => part.replace(/\\,/g, ","));
}

/**
 * The names of the query that the search does not take: ignored under FHIR's lenient default,
 * a 400 under `Prefer: handling=strict`. A parameter the search takes, with a modifier it does
 * not take (`code:text`, `date:missing`), is a 400 either way: ignoring it would widen the answer.
 * Names only are quoted, never values.
 */
export function unknownParameters(query: FhirQuery, known: readonly KnownParameter[], strict: boolean): string[] {
  const all = [...GENERAL_PARAMETERS, ...known];
  const unknown: string[] = [];
  for (const key of Object.keys(query)) {
    const [name, modifier] = splitModifier(key);
    const parameter = all.find((p) => p.name === name);
    if (!parameter) unknown.push(key);
    else if (modifier !== undefined && !(parameter.modifiers ?? []).includes(modifier)) {
      throw new AppError("bad_request", `The modifier :${modifier} of ${name} is not supported`);
    }
  }
  if (strict && unknown.length > 0) {
    throw new AppError("bad_request", `Parameters not supported (Prefer: handling=strict): ${unknown.map(safeName).join(", ")}`);
  }
  return unknown;
}

/** The keys a parameter is given under: its name, and its name with each modifier the search takes (`patient`, `patient:Patient`). */
const keysOf = (parameter: KnownParameter): string[] => [parameter.name, ...(parameter.modifiers ?? []).map((m) => `${parameter.name}:${m}`)];

/** The values of a parameter under every modifier the search takes for it (`patient` and `patient:Patient`). */
export function valuesWithModifiers(query: FhirQuery, parameter: KnownParameter): string[] {
  return keysOf(parameter).flatMap((key) => valuesOf(query, key));
}

/** The parameters given of these, in their order, as a search's links repeat them: each key and value (repeated ones repeated). */
export function givenParameters(query: FhirQuery, parameters: readonly KnownParameter[]): Array<readonly [string, string]> {
  return parameters.flatMap((parameter) => keysOf(parameter).flatMap((key) => valuesOf(query, key).map((value) => [key, value] as const)));
}

function splitModifier(key: string): [string, string | undefined] {
  const colon = key.indexOf(":");
  return colon === -1 ? [key, undefined] : [key.slice(0, colon), key.slice(colon + 1)];
}

/** A parameter name as quoted in an error: short, and only characters a name is made of. */
const safeName = (name: string): string => name.slice(0, 64).replace(/[^\w:.\-$]/g, "?");

/** `Prefer: handling=strict` (FHIR search.html): unknown parameters are refused, not ignored. */
export function strictHandling(prefer: string | undefined): boolean {
  return (prefer ?? "")
    .split(/[,;]/)
    .map((part) => part.trim().toLowerCase().replace(/\s+/g, ""))
    .includes("handling=strict");
}

const DEFAULT_COUNT = 100;
const MAX_COUNT = 1000;

/**
 * `_count`: the page size, 1 to 1000 (default 100); more is answered as 1000, as FHIR lets a
 * server return fewer than asked. 0 (a count only) is not supported: svc gives no `total`.
 */
export function pageSize(query: FhirQuery): number {
  const value = singleValueOf(query, "_count");
  if (value === undefined) return DEFAULT_COUNT;
  if (!/^\d{1,9}$/.test(value)) throw new AppError("bad_request", "_count must be a whole number from 1");
  const count = Number(value);
  if (count === 0) throw new AppError("bad_request", "_count=0 is not supported: the searchset carries no total");
  return Math.min(count, MAX_COUNT);
}

/** An opaque `cursor` of a next link (none on a first page). */
export function cursorOf(query: FhirQuery): string | undefined {
  return singleValueOf(query, "cursor");
}
