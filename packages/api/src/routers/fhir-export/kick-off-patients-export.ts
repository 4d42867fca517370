import { kickOffFhirExport, strictHandling } from "@svc/core";
import { readerProcedure } from "../../middlewares/authenticate.ts";
import { answerAsFhir, fhirBaseSettings } from "../fhir-base/fhir-answer.ts";
import { kickOffAnswer } from "./fhir-export.schema.ts";
import { kickOffUrl } from "./kick-off-url.ts";
import {
  kickOffPatientsExportMeta,
  ZKickOffPatientsExportRequestSchema,
  ZKickOffPatientsExportResponseSchema,
} from "./kick-off-patients-export.types.ts";

export const kickOffPatientsExport = readerProcedure
  .meta(kickOffPatientsExportMeta)
  .input(ZKickOffPatientsExportRequestSchema)
  .output(ZKickOffPatientsExportResponseSchema)
  .query(async ({ ctx, input }) => {
    const { statusUrl } = await kickOffFhirExport(ctx.deps, ctx.principal, { query: input, strict: strictHandling(ctx.prefer), requestUrl: kickOffUrl(ctx) }, fhirBaseSettings(ctx));
    answerAsFhir(ctx);
    ctx.response.status = 202;
    ctx.response.headers["Content-Location"] = statusUrl;
    return kickOffAnswer(statusUrl);
  });
