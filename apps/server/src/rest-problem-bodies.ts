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
        return end(JSON.stringify({ ...problem, status: res.statusCode, request_id: req.requestId }), ...rest);
      }
    }
    return end(chunk, ...rest);
  }) as typeof res.end;
  next();
};

function problemIn(body: string): Problem | undefined {
  try {
    return (JSON.parse(body) as { data?: { problem?: Problem } }).data?.problem;
  } catch {
    return undefined;
  }
}
