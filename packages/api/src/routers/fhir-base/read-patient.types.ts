import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { SvcMeta } from "../../trpc.ts";
import { fhirReadErrors } from "./fhir-answer.ts";
import { ZFormat, ZPatient, ZResourceId } from "./fhir-base.schema.ts";

export const readPatientMeta: OpenApiMeta<SvcMeta> = {
  contentType: "application/fhir+json",
  openapi: {
    method: "GET",
    path: "/v1/fhir/Patient/{id}",
    tags: ["fhir"],
    summary: "Read a user as a FHIR Patient",
    description: "The Patient of a user of the tenant (a user token: its own user only): id = the user's id, identifier = its external_ref.",
    errorResponses: {
      ...fhirReadErrors,
      400: "id longer than 64 characters",
      404: "No such user in the tenant (or not the token's user), or the user is being deleted",
    },
  },
};

export const ZReadPatientRequestSchema = z.object({ id: ZResourceId("Patient (user)"), _format: ZFormat });

export const ZReadPatientResponseSchema = ZPatient;
