import { ProviderError } from "@svc/core";
import { isObject, type JsonObject } from "./values.ts";

/**
 * Withings answers HTTP 200 to almost everything and says what happened in `status`
 * (0 is success). These are the statuses of its "Response status" table that need a
 * meaning of ours; any other non-zero status is a failure worth retrying later.
 */
const REFUSED_STATUSES: ReadonlySet<number> = new Set([100, 101, 102, 200, 401]);
const TOO_MANY_REQUESTS = 601;
/** Withings' quota is per minute and its answer names no wait: one minute. */
const RATE_LIMIT_WAIT_SECONDS = 60;

/** The `body` of a Withings answer, or the ProviderError its `status` means (never quoting the body). */
export function withingsBody(answer: unknown, what: string): JsonObject {
  if (!isObject(answer) || typeof answer.status !== "number") {
    throw new ProviderError("failed", `Withings ${what} answered without a status.`);
  }
  if (answer.status === 0) return isObject(answer.body) ? answer.body : {};
  throw withingsStatusError(answer.status, what);
}

export function withingsStatusError(status: number, what: string): ProviderError {
  if (REFUSED_STATUSES.has(status)) return new ProviderError("refused", `Withings refused the grant for ${what} (status ${status}).`);
  if (status === TOO_MANY_REQUESTS) {
    return new ProviderError("rate_limited", `Withings asked to wait for ${what} (status ${status}).`, { retryAfterSeconds: RATE_LIMIT_WAIT_SECONDS });
  }
  return new ProviderError("failed", `Withings ${what} failed (status ${status}).`);
}

/**
 * The standard token object inside Withings' `{status, body}` token answer. A non-zero
 * status is a ProviderError: 401 or an "invalid" error (invalid code, invalid refresh token)
 * refuses the grant, 601 asks to wait, anything else failed.
 */
export function unwrapWithingsToken(json: unknown): unknown {
  if (!isObject(json) || typeof json.status !== "number") {
    throw new ProviderError("failed", "Withings' token answer has no status.");
  }
  if (json.status === 0) {
    if (!isObject(json.body)) throw new ProviderError("failed", "Withings' token answer has no body.");
    return json.body;
  }
  const invalid = typeof json.error === "string" && /invalid/i.test(json.error);
  if (json.status === 401 || invalid) throw new ProviderError("refused", `Withings refused the token request (status ${json.status}).`);
  throw withingsStatusError(json.status, "the token request");
}
