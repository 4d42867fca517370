import { AppError } from "./app-error.ts";
import { serviceUnavailableError } from "./service-unavailable.ts";
import { APP_ERRORS } from "./error-table.ts";

/** An RFC 9457 problem body as svc answers it. */
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  request_id: string;
}

export const PROBLEM_CONTENT_TYPE = "application/problem+json";

const GENERIC_INTERNAL_DETAIL = "An unexpected error occurred. Quote the request_id when reporting it.";

/** The problem answer for any thrown value; an unavailable database or raw store is a 503, other unknown errors a generic 500. */
export function toProblem(error: unknown, requestId: string): Problem {
  const appError = error instanceof AppError ? error : serviceUnavailableError(error);
  const code = appError?.code ?? "internal";
  return {
    type: "about:blank",
    title: APP_ERRORS[code].title,
    status: APP_ERRORS[code].status,
    detail: appError && (code !== "internal" || appError.detailForCaller) ? appError.detail : GENERIC_INTERNAL_DETAIL,
    request_id: requestId,
  };
}
