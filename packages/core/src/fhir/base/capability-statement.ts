import type { CapabilityStatement, CapabilityStatementRestResource, CapabilityStatementRestResourceSearchParam } from "fhir/r4.js";
import type { FhirBaseSettings } from "./fhir-base.ts";

/** The day this statement last changed: change it with what the base supports. */
const LAST_CHANGED = "2026-11-27";

const HL7_PARAMETER = "http://hl7.org/fhir/SearchParameter";

const parameter = (name: string, type: CapabilityStatementRestResourceSearchParam["type"], definition: string | undefined, documentation: string): CapabilityStatementRestResourceSearchParam => ({
  name,
  ...(definition && { definition: `${HL7_PARAMETER}/${definition}` }),
  type,
  documentation,
});

/** The compartment whose Observations GET Patient/{id}/Observation searches. */
const PATIENT_COMPARTMENT = "http://hl7.org/fhir/CompartmentDefinition/patient";

/** The Bulk Data Access IG's capabilities of a provider: svc serves its Patient-level export (all of that IG's operations are SHOULDs). */
const BULK_DATA_CAPABILITIES = "http://hl7.org/fhir/uv/bulkdata/CapabilityStatement/bulk-data";

const PATIENT_EXPORT = {
  name: "export",
  definition: "http://hl7.org/fhir/uv/bulkdata/OperationDefinition/patient-export",
  documentation:
    "FHIR Bulk Data IG v2: GET Patient/$export (every Patient of the tenant; a tenant API key) and, as svc's own, GET Patient/{id}/$export (one Patient; " +
    "a user token: its own). _type Patient and Observation, _since, _outputFormat NDJSON; other IG parameters are refused. Prefer: respond-async is tolerated " +
    "when absent. Files of at most 500,000 resources of one type, Patient first; they take the kick-off's credentials and are deleted after their Expires. " +
    "At most 3 exports of a tenant are queued or running at once (429 otherwise).",
};

/** What every resource of the base supports: read and type-level search, nothing written, no history. */
const READ_AND_SEARCH: Omit<CapabilityStatementRestResource, "type"> = {
  interaction: [{ code: "read" }, { code: "search-type" }],
  versioning: "no-version",
  readHistory: false,
  updateCreate: false,
  conditionalCreate: false,
  conditionalRead: "not-supported",
  conditionalUpdate: false,
  conditionalDelete: "not-supported",
};

/**
 * GET /v1/fhir/metadata: what the base supports, and nothing more (Patient's $export among
 * them). See docs/reference/fhir.md.
 */
export function capabilityStatement(settings: Pick<FhirBaseSettings, "baseUrl" | "codeSystemBase">): CapabilityStatement {
  return {
    resourceType: "CapabilityStatement",
    status: "active",
    date: LAST_CHANGED,
    publisher: "svc",
    kind: "instance",
    software: { name: "svc" },
    implementation: {
      description: "svc: a tenant's users as Patients and their health records as Observations (read-only)",
      url: settings.baseUrl,
    },
    instantiates: [BULK_DATA_CAPABILITIES],
    fhirVersion: "4.0.1",
    format: ["application/fhir+json", "json"],
    rest: [
      {
        mode: "server",
        documentation:
          "Read-only. Search results are searchset Bundles paged by next links (_count 1 to 1000, default 100; no total). " +
          "Unknown parameters are ignored and left out of the self link, or refused with Prefer: handling=strict. " +
          "Observations are in time order, then kind and id: _sort=date (oldest first, the default) or -date (newest first). " +
          "The Patient compartment serves Observation only: GET Patient/{id}/Observation is the Observation search with that patient.",
        security: {
          description:
            "Authorization: Bearer with a tenant API key (every Patient of the tenant) or a user token with scope read (its own Patient only). metadata needs no credentials.",
        },
        compartment: [PATIENT_COMPARTMENT],
        resource: [
          {
            type: "Patient",
            profile: "http://hl7.org/fhir/StructureDefinition/Patient",
            ...READ_AND_SEARCH,
            operation: [PATIENT_EXPORT],
            searchParam: [
              parameter("_id", "token", "Resource-id", "The user id; comma-separated ids match any."),
              parameter("identifier", "token", "Patient-identifier", `The user's external_ref, system ${settings.codeSystemBase.replace(/\/+$/, "")}/external-ref/{tenant id}.`),
            ],
          },
          {
            type: "Observation",
            profile: "http://hl7.org/fhir/StructureDefinition/Observation",
            ...READ_AND_SEARCH,
            searchParam: [
              parameter("patient", "reference", "clinical-patient", "Patient/{id} or the bare id; one patient per search; required with a tenant API key."),
              parameter("subject", "reference", "Observation-subject", "As patient."),
              parameter("code", "token", "clinical-code", "http://loinc.org, the quantity-type or the record-type system of svc; commas match any, repeats match all."),
              parameter("category", "token", "Observation-category", "An observation-category code; commas match any, repeats match all."),
              parameter("date", "date", "clinical-date", "Prefixes eq, ge, gt, le, lt; repeat for a range. Compared with the time an Observation sorts at (its start)."),
              parameter("_lastUpdated", "date", "Resource-lastUpdated", "Prefixes eq, ge, gt, le, lt: when svc stored the record (meta.lastUpdated)."),
              parameter("view", "token", undefined, "svc: merged (default) leaves out records a better ranked source also has; all lists every source's."),
            ],
          },
        ],
      },
    ],
  };
}
