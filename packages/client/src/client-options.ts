import type { Fetch, RetryOptions } from "./retrying-fetch.ts";

export interface ClientOptions {
  /** Where svc answers, e.g. https://svc.example.com (no /v1 or /trpc). */
  baseUrl: string;
  /** Sent as `Authorization: Bearer …`: a tenant API key (svc_sk_…), a user token (svc_ut_…) or an admin key (svc_ak_…). */
  token: string;
  /** Retries of 429 and 503 answers; false sends every request once. */
  retry?: RetryOptions | false;
  /** The fetch underneath (default: the global one). */
  fetch?: Fetch;
}

export const withoutTrailingSlash = (url: string) => url.replace(/\/+$/, "");
