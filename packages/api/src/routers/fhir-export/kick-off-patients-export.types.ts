import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { SvcMeta } from "../../trpc.ts";
import { ZFormat } from "../fhir-base/fhir-base.schema.ts";
import { kickOffErrors, ZExportParameters, ZInformationOutcome, ZKickOffHeaders } from "./fhir-export.schema.ts";

export const kickOffPatientsExportMeta: OpenApiMeta<SvcMeta> = {
  contentType: "application/fhir+json",
  openapi: {
    method: "GET",
    path: "/v1/fhir/Patient/$export",
    tags: ["fhir"],
    summary: "Export every Patient's data (FHIR Bulk Data)",
    description:
      "FHIR Bulk Data Access IG v2 kick-off for every active user of the tenant: NDJSON files of Patients and Observations, written by a background job. " +
      "Answers 202 with Content-Location, the status URL to poll (GET) or cancel (DELETE). Prefer: respond-async is expected and its absence tolerated. " +
      "At most 3 exports of a tenant are queued or running at once.",
    responseHeaders: ZKickOffHeaders,
    errorResponses: { ...kickOffErrors, 403: "Not a tenant API key (a user token exports its own Patient/{id}/$export)" },
  },
  successStatus: 202,
};

export const ZKickOffPatientsExportRequestSchema = z.looseObject({ ...ZExportParameters, _format: ZFormat });

export const ZKickOffPatientsExportResponseSchema = ZInformationOutcome;
