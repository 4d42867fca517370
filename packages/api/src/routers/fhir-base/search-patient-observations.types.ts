import type { OpenApiMeta } from "trpc-to-openapi";
import type { SvcMeta } from "../../trpc.ts";
import { ZObservationBundle } from "../fhir/observation-bundle.schema.ts";
import { fhirReadErrors } from "./fhir-answer.ts";
import { ZRepeatable, ZResourceId } from "./fhir-base.schema.ts";
import { OBSERVATION_SEARCH_REFUSALS, ZSearchBaseObservationsRequestSchema } from "./search-observations.types.ts";

export const searchPatientObservationsMeta: OpenApiMeta<SvcMeta> = {
  contentType: "application/fhir+json",
  openapi: {
    method: "GET",
    path: "/v1/fhir/Patient/{id}/Observation",
    tags: ["fhir"],
    summary: "Search a patient's FHIR Observations in its compartment",
    description:
      "The Patient compartment's Observation search: the same search as `GET /v1/fhir/Observation` with the patient taken from the path (its `self` and `next` links keep this form). `patient` or `subject`, when given, must name the same patient, else the Bundle is empty.",
    errorResponses: {
      ...fhirReadErrors,
      400: `patient and subject naming two patients, ${OBSERVATION_SEARCH_REFUSALS}`,
      404: "No such user in the tenant (or not the token's user), or the user is being deleted",
    },
  },
};

/** The search's parameters, and the compartment's Patient. */
export const ZSearchPatientObservationsRequestSchema = ZSearchBaseObservationsRequestSchema.extend({
  id: ZResourceId("Patient (user)"),
  patient: ZRepeatable("Optional here: the compartment's patient (Patient/{id} or the bare id); another patient matches nothing."),
  subject: ZRepeatable("As patient."),
});

export const ZSearchPatientObservationsResponseSchema = ZObservationBundle;
