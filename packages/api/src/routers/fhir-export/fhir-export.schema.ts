import { z } from "zod";
import { ZOnce, ZRepeatable } from "../fhir-base/fhir-base.schema.ts";

/** The kick-off's parameters (Bulk Data IG v2); any other passes through to be ignored, or refused under Prefer: handling=strict. */
export const ZExportParameters = {
  _type: ZRepeatable("Resource types, comma-separated: Patient, Observation (default both). Any other type is a 400."),
  _since: ZOnce("A FHIR instant: only resources whose meta.lastUpdated is after it (encode a + of a zone as %2B)."),
  _outputFormat: ZOnce("application/fhir+ndjson (the default), application/ndjson or ndjson; anything else is a 400."),
};

/** An export's id in a path. */
export const ZExportId = z.string().min(1).max(64).describe("The export's id (the last segment of the kick-off's Content-Location).");

/** The OperationOutcome of an accepted kick-off or cancellation, or of an export in progress. */
export const ZInformationOutcome = z
  .object({
    resourceType: z.literal("OperationOutcome"),
    issue: z
      .array(z.object({ severity: z.literal("information"), code: z.literal("informational"), diagnostics: z.string() }))
      .describe("One issue saying what happened."),
  })
  .describe("A FHIR R4 OperationOutcome of severity information.");

export const ZExportManifest = z
  .object({
    transactionTime: z.string().describe("FHIR instant: the kick-off's time; the files hold what was stored up to it."),
    request: z.string().describe("The kick-off's URL."),
    requiresAccessToken: z.literal(true).describe("The files take the same Authorization as the kick-off."),
    output: z
      .array(
        z.object({
          type: z.string().describe("Patient or Observation."),
          url: z.string().describe("{public_url}/v1/fhir/bulk-files/{export_id}/{file_number}: application/fhir+ndjson."),
          count: z.number().int().describe("Resources in the file."),
        }),
      )
      .describe("One item per file: Patient files first, then Observation files; at most 500,000 resources a file. Empty when nothing matched."),
    error: z.array(z.object({ type: z.string(), url: z.string() })).describe("Always empty: an export writes every resource or fails."),
  })
  .describe("The Bulk Data IG v2 manifest of a completed export (application/json).");

/** A kick-off's answer: its OperationOutcome, and the status URL in Content-Location. */
export const kickOffAnswer = (statusUrl: string) => ({
  resourceType: "OperationOutcome" as const,
  issue: [{ severity: "information" as const, code: "informational" as const, diagnostics: `Export accepted; follow it at ${statusUrl}.` }],
});

export const ZKickOffHeaders = z.object({ "Content-Location": z.string().describe("{public_url}/v1/fhir/bulk-status/{export_id}: poll it, DELETE it to cancel.") });

export const kickOffErrors = {
  400: "_type lists a type other than Patient and Observation, _since is not a FHIR instant, _outputFormat is not NDJSON, a parameter of the IG svc does not support (_elements, patient, includeAssociatedData, _typeFilter, _until, organizeOutputBy, allowPartialManifests), or an unknown parameter under Prefer: handling=strict",
  401: "Missing, wrong or expired secret",
  406: "_format or Accept asks for a format other than JSON",
  429: "3 exports of the tenant are queued or running; see Retry-After",
} as const;
