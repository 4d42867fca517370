/**
 * The one mapping table: every AppError code to its HTTP status, tRPC code and problem
 * title (RFC 9457). Nothing else in the code base chooses an error status.
 */
/** tRPC's error codes (as in @trpc/server's TRPC_ERROR_CODE_KEY). */
type TrpcErrorCode =
  | "BAD_REQUEST"
  | "UNAUTHORIZED"
  | "FORBIDDEN"
  | "NOT_FOUND"
  | "METHOD_NOT_SUPPORTED"
  | "CONFLICT"
  | "PRECONDITION_FAILED"
  | "PAYLOAD_TOO_LARGE"
  | "UNSUPPORTED_MEDIA_TYPE"
  | "UNPROCESSABLE_CONTENT"
  | "TOO_MANY_REQUESTS"
  | "INTERNAL_SERVER_ERROR"
  | "SERVICE_UNAVAILABLE";

export interface AppErrorEntry {
  status: number;
  trpc: TrpcErrorCode;
  title: string;
  headers?: Record<string, string>;
}

export const APP_ERRORS = {
  bad_request: { status: 400, trpc: "BAD_REQUEST", title: "Bad Request" },
  unauthorized: {
    status: 401,
    trpc: "UNAUTHORIZED",
    title: "Unauthorized",
    headers: { "WWW-Authenticate": "Bearer" },
  },
  forbidden: { status: 403, trpc: "FORBIDDEN", title: "Forbidden" },
  not_found: { status: 404, trpc: "NOT_FOUND", title: "Not Found" },
  method_not_allowed: { status: 405, trpc: "METHOD_NOT_SUPPORTED", title: "Method Not Allowed" },
  // tRPC has no code of its own for it; the status comes from this table (the FHIR base's _format).
  not_acceptable: { status: 406, trpc: "BAD_REQUEST", title: "Not Acceptable" },
  conflict: { status: 409, trpc: "CONFLICT", title: "Conflict" },
  gone: { status: 410, trpc: "PRECONDITION_FAILED", title: "Gone" },
  payload_too_large: { status: 413, trpc: "PAYLOAD_TOO_LARGE", title: "Content Too Large" },
  unsupported_media_type: { status: 415, trpc: "UNSUPPORTED_MEDIA_TYPE", title: "Unsupported Media Type" },
  unprocessable: { status: 422, trpc: "UNPROCESSABLE_CONTENT", title: "Unprocessable Content" },
  too_many_requests: { status: 429, trpc: "TOO_MANY_REQUESTS", title: "Too Many Requests" },
  internal: { status: 500, trpc: "INTERNAL_SERVER_ERROR", title: "Internal Server Error" },
  service_unavailable: { status: 503, trpc: "SERVICE_UNAVAILABLE", title: "Service Unavailable" },
} as const satisfies Record<string, AppErrorEntry>;

export type AppErrorCode = keyof typeof APP_ERRORS;

/** The AppError code for an HTTP status, for errors raised outside our code (body parser, tRPC). */
export function appErrorCodeForStatus(status: number): AppErrorCode {
  const entry = Object.entries(APP_ERRORS).find(([, value]) => value.status === status);
  return (entry?.[0] as AppErrorCode | undefined) ?? (status >= 500 ? "internal" : "bad_request");
}

/** The AppError code for a tRPC error code. */
export function appErrorCodeForTrpc(trpcCode: string): AppErrorCode {
  if (trpcCode === "PARSE_ERROR") return "bad_request";
  const entry = Object.entries(APP_ERRORS).find(([, value]) => value.trpc === trpcCode);
  return (entry?.[0] as AppErrorCode | undefined) ?? "internal";
}
