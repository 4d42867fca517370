import { fhirExportStatus } from "@svc/core";
import { readerProcedure } from "../../middlewares/authenticate.ts";
import { fhirBaseSettings } from "../fhir-base/fhir-answer.ts";
import { getExportStatusMeta, ZGetExportStatusRequestSchema, ZGetExportStatusResponseSchema } from "./get-export-status.types.ts";

export const getExportStatus = readerProcedure
  .meta(getExportStatusMeta)
  .input(ZGetExportStatusRequestSchema)
  .output(ZGetExportStatusResponseSchema)
  .query(async ({ ctx, input }) => {
    const status = await fhirExportStatus(ctx.deps, ctx.principal, input.export_id, fhirBaseSettings(ctx));
    ctx.response.headers["Cache-Control"] = "no-store";
    if (status.kind === "completed") {
      ctx.response.status = 200;
      if (status.expiresAt) ctx.response.headers.Expires = status.expiresAt.toUTCString();
      return status.manifest;
    }
    ctx.response.status = 202;
    ctx.response.headers["X-Progress"] = status.progress;
    ctx.response.headers["Retry-After"] = String(status.retryAfterSeconds);
    return { resourceType: "OperationOutcome" as const, issue: [{ severity: "information" as const, code: "informational" as const, diagnostics: `In progress: ${status.progress}.` }] };
  });
