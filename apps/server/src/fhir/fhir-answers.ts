import type { Request, RequestHandler, Response } from "express";
import { AppError, type Problem, toProblem } from "@svc/core";
import { sendProblem } from "../problem-response.ts";

/** The FHIR base of a tenant: /v1/fhir and everything under it. */
export const FHIR_BASE_PATH = /^\/v1\/fhir(?:[/?]|$)/;

export const FHIR_CONTENT_TYPE = "application/fhir+json; charset=utf-8";

/** The JSON media types a FHIR client asks for (FHIR http.html), and `_format`'s short form. */
const JSON_FORMATS = new Set(["json", "application/json", "application/fhir+json", "application/json+fhir"]);
const FHIR_JSON = /application\/(?:fhir\+json|json\+fhir)/i;

function formatParameter(req: Request): string | undefined {
  const format = req.query._format;
  return typeof format === "string" && format.length > 0 ? format : undefined;
}

/**
 * Whether the caller reads answers as FHIR: it asks for application/fhir+json in Accept (every
 * FHIR client library does) or in `_format`. Such a caller gets errors as a plain
 * OperationOutcome; any other (curl, a generated client) gets the problem every route answers,
 * which also reads as an OperationOutcome.
 */
export const wantsFhir = (req: Request): boolean => FHIR_JSON.test(req.get("accept") ?? "") || FHIR_JSON.test(formatParameter(req) ?? "");

/** The OperationOutcome issue code of an error status. */
function issueCode(status: number): string {
  if (status === 401) return "login";
  if (status === 403) return "forbidden";
  if (status === 404) return "not-found";
  if (status === 406) return "not-supported";
  if (status === 429) return "throttled";
  if (status === 503) return "transient";
  return status >= 500 ? "exception" : "invalid";
}

/** A problem as a plain FHIR OperationOutcome (its request_id is the X-Request-Id header). */
export function operationOutcome(problem: Problem) {
  return {
    resourceType: "OperationOutcome",
    issue: [{ severity: "error", code: issueCode(problem.status), diagnostics: problem.detail }],
  };
}

/** A problem that also reads as an OperationOutcome: `resourceType` and `issue` added (RFC 9457 allows extension members). */
export function problemWithOperationOutcome(problem: Problem) {
  return { resourceType: "OperationOutcome", ...problem, issue: operationOutcome(problem).issue };
}

/** An error of the FHIR base, in the form the caller reads (wantsFhir). */
export function sendFhirError(req: Request, res: Response, error: AppError): void {
  const problem = toProblem(error, req.requestId);
  if (!wantsFhir(req)) return sendProblem(res, problemWithOperationOutcome(problem) as Problem, error.headers);
  res.status(problem.status);
  for (const [name, value] of Object.entries(error.headers)) res.setHeader(name, value);
  res.setHeader("Content-Type", FHIR_CONTENT_TYPE);
  res.send(JSON.stringify(operationOutcome(problem)));
}

/**
 * The base answers JSON only: a `_format` or an Accept header that allows no JSON type is a 406,
 * before any procedure runs.
 */
export const fhirFormats: RequestHandler = (req, res, next) => {
  if (!FHIR_BASE_PATH.test(req.originalUrl)) return next();
  const format = formatParameter(req);
  const formatOk = format === undefined || JSON_FORMATS.has(format.split(";")[0]!.trim().toLowerCase());
  const acceptOk = req.get("accept") === undefined || req.accepts(["application/fhir+json", "application/json", "application/json+fhir"]) !== false;
  if (formatOk && acceptOk) return next();
  sendFhirError(req, res, new AppError("not_acceptable", "This FHIR base answers JSON only: _format json or application/fhir+json."));
};

/** A path under the base that no procedure takes: a resource type or interaction it does not serve. */
export const fhirNotFound: RequestHandler = (req, res) => {
  sendFhirError(req, res, new AppError("not_found", "This FHIR base serves metadata, Patient and Observation (read and search) only."));
};
