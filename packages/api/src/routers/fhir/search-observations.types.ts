import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { SvcMeta } from "../../trpc.ts";
import { ZCursor, ZLimit } from "../../schemas/common.ts";
import { readErrors, ZUserPath, ZView, ZWindowEnd, ZWindowStart } from "../../schemas/records.ts";
import { ZObservationBundle } from "./observation-bundle.schema.ts";

export const searchObservationsMeta: OpenApiMeta<SvcMeta> = {
  contentType: "application/fhir+json",
  openapi: {
    method: "GET",
    path: "/v1/users/{id}/fhir/Observation",
    tags: ["fhir"],
    summary: "Search the user's records as FHIR R4 Observations",
    description:
      "A searchset Bundle (application/fhir+json, FHIR 4.0.1) merging quantity samples, blood pressure panels, sleep sessions, workouts, daily summaries, ECG recordings with their voltages and nutrition logs, in time order, then kind and id. A page holds at most 100 ECG recordings. Follow the `next` link to page; the last page has none. Errors are application/problem+json that also read as an OperationOutcome.",
    errorResponses: {
      ...readErrors,
      400: "type not in the catalog (and the user has none), code with an unsupported system, category not an observation-category code, more than one category, invalid window, limit or cursor",
      403: "Not a tenant API key",
    },
  },
};

export const ZSearchObservationsRequestSchema = z.object({
  ...ZUserPath,
  type: z.string().min(1).max(64).describe("A quantity type: only its samples, or the blood pressure panels holding one.").optional(),
  code: z
    .string()
    .min(1)
    .max(300)
    .describe(
      "One token `system|code` matched on Observation.code: http://loinc.org, {fhir_code_system_base}/quantity-type or {fhir_code_system_base}/record-type (a bare code matches in any of them).",
    )
    .optional(),
  category: z
    .string()
    .min(1)
    .max(200)
    .describe("One observation-category code, bare or as http://terminology.hl7.org/CodeSystem/observation-category|<code>: vital-signs, laboratory, activity, survey.")
    .optional(),
  start: ZWindowStart,
  end: ZWindowEnd,
  view: ZView,
  cursor: ZCursor,
  limit: ZLimit,
});

export const ZSearchObservationsResponseSchema = ZObservationBundle;
