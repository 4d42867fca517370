import { AppError } from "../../platform/index.ts";
import { isLoopbackUrl } from "./loopback.ts";

export const REDIRECT_URI_MAX_LENGTH = 2000;

/**
 * A tenant's redirect_uri (where the user lands after consent): an absolute https URL, or
 * http to this machine (localhost, 127.0.0.1, [::1]) for development; no credentials and no
 * fragment (status parameters are added to its query). 400 otherwise.
 */
export function checkRedirectUri(value: string): string {
  if (value.length > REDIRECT_URI_MAX_LENGTH) throw invalid(`is longer than ${REDIRECT_URI_MAX_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalid("is not an absolute URL");
  }
  if (url.protocol !== "https:" && !(url.protocol === "http:" && isLoopbackUrl(url))) {
    throw invalid("must use https (http only for localhost, 127.0.0.1 or [::1])");
  }
  if (url.username || url.password) throw invalid("must not carry credentials");
  if (url.hash) throw invalid("must not have a fragment");
  return url.href;
}

/** `redirect_uri` with the result of the consent added to its query. */
export function redirectWithResult(redirectUri: string, result: Record<string, string>): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(result)) url.searchParams.set(name, value);
  return url.href;
}

function invalid(reason: string): AppError {
  return new AppError("bad_request", `redirect_uri ${reason}.`);
}
