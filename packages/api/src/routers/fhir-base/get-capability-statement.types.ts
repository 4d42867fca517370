import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { SvcMeta } from "../../trpc.ts";
import { ZCapabilityStatement, ZFormat } from "./fhir-base.schema.ts";

export const getCapabilityStatementMeta: OpenApiMeta<SvcMeta> = {
  contentType: "application/fhir+json",
  openapi: {
    method: "GET",
    path: "/v1/fhir/metadata",
    tags: ["fhir"],
    summary: "The FHIR base's CapabilityStatement",
    description:
      "What the FHIR R4 (4.0.1) base `/v1/fhir` supports: Patient and Observation read and search, with their search parameters. Needs no credentials; readable from any origin.",
    protect: false,
    errorResponses: { 406: "_format or Accept asks for a format other than JSON" },
  },
};

export const ZGetCapabilityStatementRequestSchema = z.object({ _format: ZFormat });

export const ZGetCapabilityStatementResponseSchema = ZCapabilityStatement;
