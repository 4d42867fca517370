import createClient, { type Client } from "openapi-fetch";
import type { ClientOptions } from "./client-options.ts";
import { withoutTrailingSlash } from "./client-options.ts";
import type { paths } from "./generated/openapi.ts";
import { createRetryingFetch } from "./retrying-fetch.ts";

export type RestClient = Client<paths>;

/** A typed client of the REST API (/v1), its types generated from /openapi.yaml. */
export function createRestClient(options: ClientOptions): RestClient {
  return createClient<paths>({
    baseUrl: withoutTrailingSlash(options.baseUrl),
    headers: { Authorization: `Bearer ${options.token}` },
    fetch: createRetryingFetch(options),
  });
}
