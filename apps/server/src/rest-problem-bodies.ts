import type { RequestHandler } from "express";
import { PROBLEM_CONTENT_TYPE, type Problem } from "@svc/core";
import { FHIR_BASE_PATH, FHIR_CONTENT_TYPE, operationOutcome, problemWithOperationOutcome, wantsFhir } from "./fhir/fhir-answers.ts";

/**
 * trpc-to-openapi writes error answers as JSON with its own fields around our error
 * shape. This rewrites them to exactly the RFC 9457 problem our errorFormatter put in
 * `data.problem`, as application/problem+json.
 */
export const restProblemBodies: RequestHandler = (req, res, next) => {
  const end = res.end.bind(res) as (...args: unknown[]) => typeof res;
  res.end = ((chunk?: unknown, ...rest: unknown[]) => {
    if (res.statusCode >= 400 && typeof chunk === "string" && !res.headersSent) {
      const problem = problemIn(chunk);
      if (problem) {
        const answer = { ...problem, status: res.statusCode, request_id: req.requestId };
        // A FHIR client of the base reads a plain OperationOutcome (fhir/fhir-answers.ts).
        if (FHIR_BASE_PATH.test(req.originalUrl) && wantsFhir(req)) {
          res.setHeader("Content-Type", FHIR_CONTENT_TYPE);
          return end(JSON.stringify(operationOutcome(answer)), ...rest);
        }
        res.setHeader("Content-Type", PROBLEM_CONTENT_TYPE);
        const fhir = FHIR_PATH.test(req.originalUrl) || FHIR_BASE_PATH.test(req.originalUrl);
        return end(JSON.stringify(fhir ? problemWithOperationOutcome(answer) : answer), ...rest);
      }
    }
    return end(chunk, ...rest);
  }) as typeof res.end;
  next();
};

/** Routes answered to FHIR clients: the spec's search, /v1/users/{id}/fhir/... */
const FHIR_PATH = /^\/v1\/users\/[^/]+\/fhir\//;

function problemIn(body: string): Problem | undefined {
  try {
    return (JSON.parse(body) as { data?: { problem?: Problem } }).data?.problem;
  } catch {
    return undefined;
  }
}
