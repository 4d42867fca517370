import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { SvcMeta } from "../../trpc.ts";
import { fhirReadErrors } from "../fhir-base/fhir-answer.ts";
import { ZExportId, ZExportManifest, ZInformationOutcome } from "./fhir-export.schema.ts";

export const getExportStatusMeta: OpenApiMeta<SvcMeta> = {
  openapi: {
    method: "GET",
    path: "/v1/fhir/bulk-status/{export_id}",
    tags: ["fhir"],
    summary: "Follow a FHIR Bulk Data export",
    description:
      "The status URL of a kick-off (its Content-Location), with the kick-off's credentials (a user token: exports of its own user only). " +
      "While queued or running: 202 with X-Progress (`queued`, or `N resources written`), Retry-After (seconds) and an OperationOutcome of severity information. " +
      "Completed: 200 with the IG v2 manifest (application/json) and Expires, when the files are deleted. A failed export answers 500 with its OperationOutcome " +
      "(the IG's error status); a cancelled or expired one 404.",
    responseHeaders: z.object({
      "X-Progress": z.string().optional().describe("While in progress: `queued` or `N resources written`."),
      "Retry-After": z.string().optional().describe("While in progress: seconds to wait before polling again."),
      Expires: z.string().optional().describe("Once completed: an HTTP date, when the files and this URL go."),
    }),
    errorResponses: {
      ...fhirReadErrors,
      404: "No such export of the tenant (or of the token's user), or it was cancelled or its files expired",
      500: "The export failed (its OperationOutcome names the error); kick it off again",
    },
  },
  successStatus: 202,
  alsoSucceeds: { status: 200, description: "Completed: the manifest", sameBody: true },
};

export const ZGetExportStatusRequestSchema = z.object({ export_id: ZExportId });

export const ZGetExportStatusResponseSchema = z.union([ZExportManifest, ZInformationOutcome]).describe("The manifest (200), or an OperationOutcome while in progress (202).");
