import type { AppError } from "./app-error.ts";
import { databaseUnavailableError } from "./database-unavailable.ts";
import { rawStoreUnavailableError } from "./raw-store-unavailable.ts";

/**
 * The 503 AppError (with Retry-After) for a fault of what the service stands on that clears
 * by itself: the database or the raw store unavailable. Undefined for any other error.
 */
export function serviceUnavailableError(error: unknown): AppError | undefined {
  return databaseUnavailableError(error) ?? rawStoreUnavailableError(error);
}
