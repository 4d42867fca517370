import { cancelFhirExport } from "@svc/core";
import { readerProcedure } from "../../middlewares/authenticate.ts";
import { answerAsFhir } from "../fhir-base/fhir-answer.ts";
import { cancelExportMeta, ZCancelExportRequestSchema, ZCancelExportResponseSchema } from "./cancel-export.types.ts";

export const cancelExport = readerProcedure
  .meta(cancelExportMeta)
  .input(ZCancelExportRequestSchema)
  .output(ZCancelExportResponseSchema)
  .mutation(async ({ ctx, input }) => {
    await cancelFhirExport(ctx.deps, ctx.principal, input.export_id);
    answerAsFhir(ctx);
    ctx.response.status = 202;
    return { resourceType: "OperationOutcome" as const, issue: [{ severity: "information" as const, code: "informational" as const, diagnostics: "Export cancelled; its files are deleted." }] };
  });
