import { searchFhirObservations, strictHandling } from "@svc/core";
import { readerProcedure } from "../../middlewares/authenticate.ts";
import { answerAsFhir, fhirBaseSettings } from "./fhir-answer.ts";
import {
  searchBaseObservationsMeta,
  ZSearchBaseObservationsRequestSchema,
  ZSearchBaseObservationsResponseSchema,
} from "./search-observations.types.ts";

export const searchObservations = readerProcedure
  .meta(searchBaseObservationsMeta)
  .input(ZSearchBaseObservationsRequestSchema)
  .output(ZSearchBaseObservationsResponseSchema)
  .query(async ({ ctx, input }) => {
    answerAsFhir(ctx);
    return searchFhirObservations(ctx.deps.db, ctx.principal, input, { strict: strictHandling(ctx.prefer) }, fhirBaseSettings(ctx));
  });
