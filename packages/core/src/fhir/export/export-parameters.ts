import { AppError } from "../../platform/index.ts";
import { type FhirQuery, orValues, singleValueOf, unknownParameters, valuesOf } from "../base/search-parameters.ts";
import { FHIR_EXPORT_TYPES, type FhirExportType } from "./export-position.ts";

/** What a kick-off asks for. */
export interface ExportParameters {
  /** In output order (Patient files first). */
  resourceTypes: FhirExportType[];
  since: Date | null;
}

/** `_outputFormat` values of NDJSON (the IG's three spellings); the files are application/fhir+ndjson either way. */
const NDJSON_FORMATS = new Set(["application/fhir+ndjson", "application/ndjson", "ndjson"]);

/** Parameters of the Bulk Data IG that svc does not support: refused, so that a client never takes a wider answer for a filtered one. */
const UNSUPPORTED = ["_elements", "patient", "includeAssociatedData", "_typeFilter", "_until", "organizeOutputBy", "allowPartialManifests"];

/** A FHIR instant: date, time to the second (fractions allowed) and a zone. */
const INSTANT = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d:([0-5]\d|60)(\.\d{1,9})?(Z|[+-]((0\d|1[0-3]):[0-5]\d|14:00))$/;

function resourceTypesOf(query: FhirQuery): FhirExportType[] {
  const asked = valuesOf(query, "_type").flatMap((value) => orValues(value).map((type) => type.trim()));
  if (asked.length === 0) return [...FHIR_EXPORT_TYPES];
  const unknown = asked.filter((type) => !(FHIR_EXPORT_TYPES as readonly string[]).includes(type));
  if (unknown.length > 0) throw new AppError("bad_request", `_type may list only ${FHIR_EXPORT_TYPES.join(" and ")}: this export serves no other resource type.`);
  return FHIR_EXPORT_TYPES.filter((type) => asked.includes(type));
}

function sinceOf(query: FhirQuery): Date | null {
  // An unencoded `+` of a zone offset arrives as a space.
  const value = singleValueOf(query, "_since")?.replace(/ (?=\d\d:\d\d$)/, "+");
  if (value === undefined) return null;
  const since = new Date(value);
  if (!INSTANT.test(value) || Number.isNaN(since.getTime())) {
    throw new AppError("bad_request", "_since must be a FHIR instant, e.g. 2026-01-01T00:00:00Z (with a zone; encode a + as %2B).");
  }
  return since;
}

function checkOutputFormat(query: FhirQuery): void {
  const format = singleValueOf(query, "_outputFormat");
  if (format !== undefined && !NDJSON_FORMATS.has(format.trim().toLowerCase())) {
    throw new AppError("bad_request", "_outputFormat must be application/fhir+ndjson, application/ndjson or ndjson.");
  }
}

/**
 * The parameters of `Patient/$export` and `Patient/{id}/$export`: `_type` (Patient,
 * Observation; comma lists, repeatable), `_since` (a FHIR instant) and `_outputFormat` (NDJSON).
 * A parameter of the IG that svc does not support is a 400 (also with Prefer: handling=lenient);
 * any other unknown one is ignored, or a 400 under Prefer: handling=strict, as in a search.
 */
export function exportParameters(query: FhirQuery, options: { strict: boolean }): ExportParameters {
  const unsupported = UNSUPPORTED.filter((name) => query[name] !== undefined);
  if (unsupported.length > 0) throw new AppError("bad_request", `This export does not support ${unsupported.join(", ")}.`);
  const known = [{ name: "_type" }, { name: "_since" }, { name: "_outputFormat" }];
  unknownParameters(query, known, options.strict);
  checkOutputFormat(query);
  return { resourceTypes: resourceTypesOf(query), since: sinceOf(query) };
}
