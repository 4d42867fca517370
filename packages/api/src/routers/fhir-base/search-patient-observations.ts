import { searchFhirObservations, strictHandling } from "@svc/core";
import { readerProcedure } from "../../middlewares/authenticate.ts";
import { answerAsFhir, fhirBaseSettings } from "./fhir-answer.ts";
import {
  searchPatientObservationsMeta,
  ZSearchPatientObservationsRequestSchema,
  ZSearchPatientObservationsResponseSchema,
} from "./search-patient-observations.types.ts";

export const searchPatientObservations = readerProcedure
  .meta(searchPatientObservationsMeta)
  .input(ZSearchPatientObservationsRequestSchema)
  .output(ZSearchPatientObservationsResponseSchema)
  .query(async ({ ctx, input: { id, ...query } }) => {
    answerAsFhir(ctx);
    return searchFhirObservations(ctx.deps.db, ctx.principal, query, { strict: strictHandling(ctx.prefer), compartment: id }, fhirBaseSettings(ctx));
  });
