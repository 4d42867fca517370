import { z } from "zod";
import { ZBundleLink } from "../fhir/observation-bundle.schema.ts";

/** `_format`, which every FHIR interaction takes: JSON only (anything else is a 406). */
export const ZFormat = z
  .string()
  .max(100)
  .describe("json, application/json or application/fhir+json (the answer is application/fhir+json either way); XML is a 406.")
  .optional();

/** A FHIR token or reference parameter, repeatable (each repetition narrows; commas inside one widen). */
export const ZRepeatable = (description: string) => z.array(z.string().max(2048)).max(20).describe(description).optional();

/** A FHIR parameter given once. */
export const ZOnce = (description: string) => z.string().max(2048).describe(description).optional();

export const ZCount = ZOnce("Page size, 1 to 1000 (default 100; more is answered as 1000).");
export const ZFhirCursor = ZOnce("The opaque position of a next link; omit for the first page.");

/** A resource id in a path: FHIR ids are at most 64 characters (anything that names no resource is a 404). */
export const ZResourceId = (what: string) => z.string().min(1).max(64).describe(`The ${what}'s id.`);

export const ZPatient = z
  .object({
    resourceType: z.literal("Patient"),
    id: z.string().optional().describe("The user's id."),
    identifier: z
      .array(z.object({ system: z.string().optional(), value: z.string().optional() }))
      .optional()
      .describe("The user's external_ref, system {fhir_code_system_base}/external-ref/{tenant id}; absent when the user has none."),
    active: z.boolean().optional().describe("Always true: a user being deleted is no longer a Patient."),
  })
  .describe("A FHIR R4 Patient: one per user of the tenant. svc holds no demographics.");

export const ZPatientBundle = z
  .object({
    resourceType: z.literal("Bundle"),
    type: z.literal("searchset"),
    link: z.array(ZBundleLink).optional().describe("`self`, and `next` unless this is the last page."),
    entry: z
      .array(z.object({ fullUrl: z.string().optional(), resource: ZPatient.optional(), search: z.object({ mode: z.enum(["match", "include", "outcome"]).optional() }).optional() }))
      .optional()
      .describe("Absent on an empty page."),
  })
  .describe("A FHIR R4 searchset Bundle of Patients; `total` is left out.");

const ZSearchParam = z.object({
  name: z.string(),
  definition: z.string().optional(),
  type: z.enum(["number", "date", "string", "token", "reference", "composite", "quantity", "uri", "special"]),
  documentation: z.string().optional(),
});

const ZRestResource = z.object({
  type: z.string(),
  profile: z.string().optional(),
  interaction: z.array(z.object({ code: z.string() })).optional(),
  versioning: z.string().optional(),
  readHistory: z.boolean().optional(),
  updateCreate: z.boolean().optional(),
  conditionalCreate: z.boolean().optional(),
  conditionalRead: z.string().optional(),
  conditionalUpdate: z.boolean().optional(),
  conditionalDelete: z.string().optional(),
  searchParam: z.array(ZSearchParam).optional(),
  operation: z.array(z.object({ name: z.string(), definition: z.string(), documentation: z.string().optional() })).optional(),
});

export const ZCapabilityStatement = z
  .object({
    resourceType: z.literal("CapabilityStatement"),
    status: z.enum(["draft", "active", "retired", "unknown"]),
    date: z.string(),
    publisher: z.string().optional(),
    kind: z.enum(["instance", "capability", "requirements"]),
    software: z.object({ name: z.string(), version: z.string().optional() }).optional(),
    implementation: z.object({ description: z.string(), url: z.string().optional() }).optional(),
    instantiates: z.array(z.string()).optional().describe("Canonical URLs of the capability statements this base implements (FHIR Bulk Data)."),
    fhirVersion: z.string().describe("4.0.1"),
    format: z.array(z.string()),
    rest: z
      .array(
      z.object({
        mode: z.enum(["client", "server"]),
        documentation: z.string().optional(),
        security: z.object({ description: z.string().optional() }).optional(),
        resource: z.array(ZRestResource).optional(),
        compartment: z.array(z.string()).optional().describe("The compartments searched in: the Patient compartment (its Observations)."),
        operation: z.array(z.object({ name: z.string(), definition: z.string(), documentation: z.string().optional() })).optional(),
      }),
    )
      .optional(),
  })
  .describe("A FHIR R4 CapabilityStatement of the base.");
