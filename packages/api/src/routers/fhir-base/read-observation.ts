import { readFhirObservation } from "@svc/core";
import { readerProcedure } from "../../middlewares/authenticate.ts";
import { answerAsFhir, fhirBaseSettings } from "./fhir-answer.ts";
import { readObservationMeta, ZReadObservationRequestSchema, ZReadObservationResponseSchema } from "./read-observation.types.ts";

export const readObservation = readerProcedure
  .meta(readObservationMeta)
  .input(ZReadObservationRequestSchema)
  .output(ZReadObservationResponseSchema)
  .query(async ({ ctx, input }) => {
    answerAsFhir(ctx);
    return readFhirObservation(ctx.deps.db, ctx.principal, input.id, fhirBaseSettings(ctx));
  });
