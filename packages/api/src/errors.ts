import { TRPCError } from "@trpc/server";
import { AppError, appErrorCodeForTrpc, toProblem, type Problem } from "@svc/core";
import { ZodError } from "zod";

/**
 * The AppError behind any error a procedure ends with: our own (thrown in core and
 * wrapped by tRPC), a validation error, or tRPC's own (unknown path, bad JSON).
 */
function toAppError(error: TRPCError): AppError | Error {
  const cause = error.cause;
  if (cause instanceof AppError) return cause;
  if (cause instanceof ZodError) return new AppError("bad_request", describeZodError(cause));
  if (error.code === "INTERNAL_SERVER_ERROR") return cause ?? error;
  const code = appErrorCodeForTrpc(error.code);
  return new AppError(code, code === "not_found" ? "No route matches this method and path." : error.message);
}

/** The problem answer of an error and the headers it needs (WWW-Authenticate on a 401). */
export function problemFor(error: TRPCError, requestId: string): { problem: Problem; headers: Record<string, string> } {
  const appError = toAppError(error);
  const problem = toProblem(appError, requestId);
  const headers = appError instanceof AppError ? appError.headers : {};
  return { problem, headers };
}

/** "field: message" for each issue. zod messages name limits and types, never the value sent. */
function describeZodError(error: ZodError): string {
  return error.issues
    .map((issue) => (issue.path.length > 0 ? `${issue.path.join(".")}: ${issue.message}` : issue.message))
    .join("; ");
}
