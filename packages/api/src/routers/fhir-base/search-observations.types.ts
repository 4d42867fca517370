import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { SvcMeta } from "../../trpc.ts";
import { ZObservationBundle } from "../fhir/observation-bundle.schema.ts";
import { fhirReadErrors } from "./fhir-answer.ts";
import { ZCount, ZFhirCursor, ZFormat, ZOnce, ZRepeatable } from "./fhir-base.schema.ts";

/** What the Observation search refuses with a 400 in either form (type and Patient compartment). */
export const OBSERVATION_SEARCH_REFUSALS =
  "code with an unsupported system, category not an observation-category code, a date not a FHIR date or with a prefix other than eq, ge, gt, le, lt, _sort other than date or -date, _count not a whole number from 1, view not merged or all, a bad cursor, a modifier not supported, or an unknown parameter under Prefer: handling=strict";

export const searchBaseObservationsMeta: OpenApiMeta<SvcMeta> = {
  contentType: "application/fhir+json",
  openapi: {
    method: "GET",
    path: "/v1/fhir/Observation",
    tags: ["fhir"],
    summary: "Search a patient's FHIR Observations",
    description:
      "The spec's Observation search with FHIR's parameters: a searchset Bundle of one patient's Observations in time order, then kind and id, paged by `next` links. A tenant API key names the patient; a user token searches its own. Other parameters are ignored and left out of `self`, or refused under `Prefer: handling=strict`.",
    errorResponses: {
      ...fhirReadErrors,
      400: `No patient with a tenant API key, two patients, ${OBSERVATION_SEARCH_REFUSALS}`,
    },
  },
};

/** The parameters the search takes; any other passes through to be ignored (or refused under strict handling). */
export const ZSearchBaseObservationsRequestSchema = z.looseObject({
  patient: ZRepeatable("Patient/{user id} or the bare id: the one patient searched (required with a tenant API key)."),
  subject: ZRepeatable("As patient."),
  code: ZRepeatable(
    "Tokens `system|code` on Observation.code: http://loinc.org, {fhir_code_system_base}/quantity-type or {fhir_code_system_base}/record-type (a bare code matches in any); commas match any, repeats match all.",
  ),
  category: ZRepeatable("observation-category codes (vital-signs, laboratory, activity, survey), bare or with their system; commas match any, repeats match all."),
  date: ZRepeatable("The time an Observation sorts at (its start), with a prefix eq (default), ge, gt, le or lt; repeat for a range: date=ge2026-01-01&date=lt2026-02-01."),
  _lastUpdated: ZRepeatable("When svc stored the record (meta.lastUpdated), with a prefix eq, ge, gt, le or lt; applied to each page read."),
  view: ZOnce("merged (default) or all."),
  _sort: ZOnce("date (oldest first, the default) or -date (newest first): time, then kind and id."),
  _count: ZCount,
  cursor: ZFhirCursor,
  _format: ZFormat,
});

export const ZSearchBaseObservationsResponseSchema = ZObservationBundle;
