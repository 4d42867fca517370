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

  constructor(code: AppErrorCode, detail: string, options: { cause?: unknown; headers?: Record<string, string> } = {}) {
    super(detail, { cause: options.cause });
    this.name = "AppError";
    this.code = code;
    this.detail = detail;
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
