import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { SvcMeta } from "../../trpc.ts";
import { ZFormat, ZResourceId } from "../fhir-base/fhir-base.schema.ts";
import { kickOffErrors, ZExportParameters, ZInformationOutcome, ZKickOffHeaders } from "./fhir-export.schema.ts";

export const kickOffPatientExportMeta: OpenApiMeta<SvcMeta> = {
  contentType: "application/fhir+json",
  openapi: {
    method: "GET",
    path: "/v1/fhir/Patient/{id}/$export",
    tags: ["fhir"],
    summary: "Export one Patient's data (FHIR Bulk Data)",
    description:
      "FHIR Bulk Data Access IG v2 kick-off for one user (a user token: its own): NDJSON files of its Patient and Observations, written by a background job. " +
      "Answers 202 with Content-Location, the status URL to poll (GET) or cancel (DELETE). Prefer: respond-async is expected and its absence tolerated.",
    responseHeaders: ZKickOffHeaders,
    errorResponses: {
      ...kickOffErrors,
      403: "Not a tenant API key or a user token with scope read",
      404: "No such user in the tenant (or not the token's user), or the user is being deleted",
    },
  },
  successStatus: 202,
};

export const ZKickOffPatientExportRequestSchema = z.looseObject({ id: ZResourceId("Patient (user)"), ...ZExportParameters, _format: ZFormat });

export const ZKickOffPatientExportResponseSchema = ZInformationOutcome;
