import { kickOffFhirExport, strictHandling } from "@svc/core";
import { readerProcedure } from "../../middlewares/authenticate.ts";
import { answerAsFhir, fhirBaseSettings } from "../fhir-base/fhir-answer.ts";
import { kickOffAnswer } from "./fhir-export.schema.ts";
import { kickOffUrl } from "./kick-off-url.ts";
import { kickOffPatientExportMeta, ZKickOffPatientExportRequestSchema, ZKickOffPatientExportResponseSchema } from "./kick-off-patient-export.types.ts";

export const kickOffPatientExport = readerProcedure
  .meta(kickOffPatientExportMeta)
  .input(ZKickOffPatientExportRequestSchema)
  .output(ZKickOffPatientExportResponseSchema)
  .query(async ({ ctx, input }) => {
    const { id, ...query } = input;
    const { statusUrl } = await kickOffFhirExport(ctx.deps, ctx.principal, { patientId: id, query, strict: strictHandling(ctx.prefer), requestUrl: kickOffUrl(ctx) }, fhirBaseSettings(ctx));
    answerAsFhir(ctx);
    ctx.response.status = 202;
    ctx.response.headers["Content-Location"] = statusUrl;
    return kickOffAnswer(statusUrl);
  });
