import { readFhirPatient } from "@svc/core";
import { readerProcedure } from "../../middlewares/authenticate.ts";
import { answerAsFhir, fhirBaseSettings } from "./fhir-answer.ts";
import { readPatientMeta, ZReadPatientRequestSchema, ZReadPatientResponseSchema } from "./read-patient.types.ts";

export const readPatient = readerProcedure
  .meta(readPatientMeta)
  .input(ZReadPatientRequestSchema)
  .output(ZReadPatientResponseSchema)
  .query(async ({ ctx, input }) => {
    answerAsFhir(ctx);
    return readFhirPatient(ctx.deps.db, ctx.principal, input.id, fhirBaseSettings(ctx));
  });
