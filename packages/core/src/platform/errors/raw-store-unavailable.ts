import { RawStoreUnavailable } from "../raw-store/raw-store.ts";
import { AppError } from "./app-error.ts";

/** Retry-After of a 503 while the raw store fails: a remount, a freed disk or an object store's 5xx pass in seconds. */
const RETRY_AFTER_SECONDS = "5";

/** The AppError a request answers with when the raw store cannot do its part (503); undefined for any other error. */
export function rawStoreUnavailableError(error: unknown): AppError | undefined {
  if (!(error instanceof RawStoreUnavailable)) return undefined;
  return new AppError("service_unavailable", "The raw data store is unavailable; retry later.", {
    cause: error,
    headers: { "Retry-After": RETRY_AFTER_SECONDS },
  });
}
