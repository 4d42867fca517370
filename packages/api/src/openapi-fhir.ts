/**
 * The FHIR base's errors in the OpenAPI document. A caller of /v1/fhir that asks for FHIR
 * (Accept or _format application/fhir+json, as FHIR client libraries do) gets a plain
 * OperationOutcome as application/fhir+json; any other caller gets the problem every route
 * answers (apps/server/src/fhir/fhir-answers.ts). Every operation under /v1/fhir lists both.
 */

/** Whether an OpenAPI path is under the FHIR base /v1/fhir. */
export const isFhirBasePath = (path: string): boolean => path === "/v1/fhir" || path.startsWith("/v1/fhir/");

export const OPERATION_OUTCOME_SCHEMA = {
  type: "object" as const,
  description:
    "A FHIR R4 OperationOutcome: the error of the FHIR base to a caller that asks for application/fhir+json. diagnostics never holds a secret or a health value; the request's id is the X-Request-Id header.",
  required: ["resourceType", "issue"],
  properties: {
    resourceType: { type: "string" as const, const: "OperationOutcome" },
    issue: {
      type: "array" as const,
      minItems: 1,
      items: {
        type: "object" as const,
        required: ["severity", "code"],
        properties: {
          severity: { type: "string" as const, enum: ["fatal", "error", "warning", "information"] },
          code: { type: "string" as const, description: "An issue-type code: invalid, login, forbidden, not-found, not-supported, throttled, transient, exception…" },
          diagnostics: { type: "string" as const, description: "The problem's detail." },
        },
      },
    },
  },
};

/** The media types an error of an operation at `path` is answered in: the Problem, and under /v1/fhir also the OperationOutcome. */
export function errorContent(path: string): Record<string, { schema: { $ref: string } }> {
  const problem = { "application/problem+json": { schema: { $ref: "#/components/schemas/Problem" } } };
  return isFhirBasePath(path) ? { "application/fhir+json": { schema: { $ref: "#/components/schemas/FhirOperationOutcome" } }, ...problem } : problem;
}
