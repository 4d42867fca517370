import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { SvcMeta } from "../../trpc.ts";
import { ZObservation } from "../fhir/observation-bundle.schema.ts";
import { fhirReadErrors } from "./fhir-answer.ts";
import { ZFormat, ZResourceId } from "./fhir-base.schema.ts";

export const readObservationMeta: OpenApiMeta<SvcMeta> = {
  contentType: "application/fhir+json",
  openapi: {
    method: "GET",
    path: "/v1/fhir/Observation/{id}",
    tags: ["fhir"],
    summary: "Read a FHIR Observation by its id",
    description:
      "The Observation the search answers under this id (`qs-`, `bp-`, `sleep-`, `workout-`, `daily-`, `ecg-`, `nutrition-`), of a user the caller may read.",
    errorResponses: {
      ...fhirReadErrors,
      400: "id longer than 64 characters",
      404: "No Observation has this id, or its user is not in the tenant (not the token's user) or is being deleted",
    },
  },
};

export const ZReadObservationRequestSchema = z.object({ id: ZResourceId("Observation"), _format: ZFormat });

export const ZReadObservationResponseSchema = ZObservation;
