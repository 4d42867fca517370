import { APP_ERRORS, type AppErrorCode, type AppErrorEntry } from "./error-table.ts";

/**
 * The one error type of svc. `detail` is shown to the caller: it must never hold a
 * secret or a health value. `cause` is for logs only.
 */
export class AppError extends Error {
  readonly code: AppErrorCode;
  readonly detail: string;
  /** Extra response headers, e.g. WWW-Authenticate on a 401. */
  readonly headers: Record<string, string>;
  /**
   * An `internal` error's detail is replaced by a generic one unless it was written for the
   * caller (a failed FHIR export's error code, the answer the Bulk Data IG asks for).
   */
  readonly detailForCaller: boolean;

  constructor(code: AppErrorCode, detail: string, options: { cause?: unknown; headers?: Record<string, string>; detailForCaller?: boolean } = {}) {
    super(detail, { cause: options.cause });
    this.name = "AppError";
    this.code = code;
    this.detail = detail;
    this.detailForCaller = options.detailForCaller ?? false;
    const entry: AppErrorEntry = APP_ERRORS[code];
    this.headers = { ...entry.headers, ...options.headers };
  }

  get status(): number {
    return APP_ERRORS[this.code].status;
  }

  get title(): string {
    return APP_ERRORS[this.code].title;
  }
}

export const isAppError = (value: unknown): value is AppError => value instanceof AppError;
