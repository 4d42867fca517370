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
 * GET /v1/fhir/metadata: what the base supports, and nothing more (an operation such as
 * $export is listed here once it is served). See docs/reference/fhir.md.
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
    fhirVersion: "4.0.1",
    format: ["application/fhir+json", "json"],
    rest: [
      {
        mode: "server",
        documentation:
          "Read-only. Search results are searchset Bundles paged by next links (_count 1 to 1000, default 100; no total). " +
          "Unknown parameters are ignored and left out of the self link, or refused with Prefer: handling=strict. " +
          "Observations are in time order, then kind and id: _sort=date (oldest first, the default) or -date (newest first).",
        security: {
          description:
            "Authorization: Bearer with a tenant API key (every Patient of the tenant) or a user token with scope read (its own Patient only). metadata needs no credentials.",
        },
        resource: [
          {
            type: "Patient",
            profile: "http://hl7.org/fhir/StructureDefinition/Patient",
            ...READ_AND_SEARCH,
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
