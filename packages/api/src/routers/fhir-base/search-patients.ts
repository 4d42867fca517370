import { searchFhirPatients, strictHandling } from "@svc/core";
import { readerProcedure } from "../../middlewares/authenticate.ts";
import { answerAsFhir, fhirBaseSettings } from "./fhir-answer.ts";
import { searchPatientsMeta, ZSearchPatientsRequestSchema, ZSearchPatientsResponseSchema } from "./search-patients.types.ts";

export const searchPatients = readerProcedure
  .meta(searchPatientsMeta)
  .input(ZSearchPatientsRequestSchema)
  .output(ZSearchPatientsResponseSchema)
  .query(async ({ ctx, input }) => {
    answerAsFhir(ctx);
    return searchFhirPatients(ctx.deps.db, ctx.principal, input, { strict: strictHandling(ctx.prefer) }, fhirBaseSettings(ctx));
  });
