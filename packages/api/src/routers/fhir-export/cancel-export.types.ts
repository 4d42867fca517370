import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { SvcMeta } from "../../trpc.ts";
import { fhirReadErrors } from "../fhir-base/fhir-answer.ts";
import { ZExportId, ZInformationOutcome } from "./fhir-export.schema.ts";

export const cancelExportMeta: OpenApiMeta<SvcMeta> = {
  contentType: "application/fhir+json",
  openapi: {
    method: "DELETE",
    path: "/v1/fhir/bulk-status/{export_id}",
    tags: ["fhir"],
    summary: "Cancel a FHIR Bulk Data export, or delete its files",
    description:
      "Cancels the export (a running job stops at its next file) and deletes its files; of a completed export, it says the client is done with them. " +
      "The status URL and the files answer 404 from then on.",
    errorResponses: {
      ...fhirReadErrors,
      404: "No such export of the tenant (or of the token's user), or it was cancelled already or its files expired",
    },
  },
  successStatus: 202,
};

export const ZCancelExportRequestSchema = z.object({ export_id: ZExportId });

export const ZCancelExportResponseSchema = ZInformationOutcome;
