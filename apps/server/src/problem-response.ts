import type { ErrorRequestHandler, RequestHandler, Response } from "express";
import { AppError, appErrorCodeForStatus, PROBLEM_CONTENT_TYPE, serviceUnavailableError, toProblem, type Problem } from "@svc/core";

export function sendProblem(res: Response, problem: Problem, headers: Record<string, string> = {}): void {
  res.status(problem.status);
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.type(PROBLEM_CONTENT_TYPE).send(JSON.stringify(problem));
}

/** Anything no route took. */
export const notFound: RequestHandler = (req, res) => {
  sendProblem(res, toProblem(new AppError("not_found", "No route matches this method and path."), req.requestId));
};

/**
 * Errors raised before a procedure runs (body parser: malformed JSON, too large) and any
 * unexpected error. Unknown errors are a generic 500; their cause goes to the log only.
 */
export const errorHandler: ErrorRequestHandler = (error, req, res, _next) => {
  const status = typeof error?.status === "number" ? (error.status as number) : 500;
  let appError: AppError | undefined = error instanceof AppError ? error : serviceUnavailableError(error);
  if (!appError && status < 500) {
    const detail =
      error?.type === "entity.parse.failed"
        ? "The body is not valid JSON."
        : error?.type === "entity.too.large"
          ? "The body is too large."
          : "The request could not be read.";
    appError = new AppError(appErrorCodeForStatus(status), detail);
  }
  if (!appError) req.log.error({ err: error }, "unhandled error");
  else if (appError.code === "service_unavailable") req.log.warn({ err: error }, appError.detail);
  sendProblem(res, toProblem(appError ?? error, req.requestId), appError?.headers);
};
