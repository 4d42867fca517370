import type { RequestHandler } from "express";
import { PROBLEM_CONTENT_TYPE, type Problem } from "@svc/core";

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
        res.setHeader("Content-Type", PROBLEM_CONTENT_TYPE);
        const answer = { ...problem, status: res.statusCode, request_id: req.requestId };
        const body = FHIR_PATH.test(req.originalUrl) ? withOperationOutcome(answer) : answer;
        return end(JSON.stringify(body), ...rest);
      }
    }
    return end(chunk, ...rest);
  }) as typeof res.end;
  next();
};

/** Routes answered to FHIR clients: /v1/users/{id}/fhir/... */
const FHIR_PATH = /^\/v1\/users\/[^/]+\/fhir\//;

/**
 * A FHIR client reads an error body as an OperationOutcome: the problem also carries
 * `resourceType` and `issue` (RFC 9457 allows extension members), so both kinds of client
 * read the same answer.
 */
function withOperationOutcome(problem: Problem) {
  const code = problem.status === 401 ? "login" : problem.status === 403 ? "forbidden" : problem.status === 404 ? "not-found" : problem.status >= 500 ? "exception" : "invalid";
  return { resourceType: "OperationOutcome", ...problem, issue: [{ severity: "error", code, diagnostics: problem.detail }] };
}

function problemIn(body: string): Problem | undefined {
  try {
    return (JSON.parse(body) as { data?: { problem?: Problem } }).data?.problem;
  } catch {
    return undefined;
  }
}
