import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { SvcMeta } from "../../trpc.ts";
import { fhirReadErrors } from "./fhir-answer.ts";
import { ZCount, ZFhirCursor, ZFormat, ZPatientBundle, ZRepeatable } from "./fhir-base.schema.ts";

export const searchPatientsMeta: OpenApiMeta<SvcMeta> = {
  contentType: "application/fhir+json",
  openapi: {
    method: "GET",
    path: "/v1/fhir/Patient",
    tags: ["fhir"],
    summary: "Search the tenant's users as FHIR Patients",
    description:
      "A searchset Bundle of the tenant's users (a user token: its own), oldest first, paged by `next` links. Other parameters are ignored and left out of `self`, or refused under `Prefer: handling=strict`.",
    errorResponses: {
      ...fhirReadErrors,
      400: "_count not a whole number from 1, more than 100 ids or identifiers, a bad cursor, a modifier not supported, or an unknown parameter under Prefer: handling=strict",
    },
  },
};

/** The parameters the search takes; any other passes through to be ignored (or refused under strict handling). */
export const ZSearchPatientsRequestSchema = z.looseObject({
  _id: ZRepeatable("User ids; comma-separated ids match any, repeats match all."),
  identifier: ZRepeatable("`system|value`, `value` or `system|`: the external_ref, system {fhir_code_system_base}/external-ref/{tenant id}."),
  _count: ZCount,
  cursor: ZFhirCursor,
  _format: ZFormat,
});

export const ZSearchPatientsResponseSchema = ZPatientBundle;
