import type { AppRouter } from "@svc/api";
import { createTRPCClient, httpLink, type TRPCClient } from "@trpc/client";
import superjson from "superjson";
import type { ClientOptions } from "./client-options.ts";
import { withoutTrailingSlash } from "./client-options.ts";
import { IDEMPOTENCY_KEY_HEADER } from "./idempotency.ts";
import { createRetryingFetch } from "./retrying-fetch.ts";

export type TrpcClient = TRPCClient<AppRouter>;

/**
 * A typed client of /trpc, for code inside this workspace (`@svc/client/trpc`): typed by
 * @svc/api's AppRouter, it is left out of the published package, whose client is the REST one.
 * Every call is its own request: a batch that crosses a rate limit answers 207 with some calls
 * refused, which no retry on 429 would see. Each mutation carries its own Idempotency-Key:
 * pass one as `{ context: { idempotencyKey } }` or get a fresh one per call.
 */
export function createTrpcClient(options: ClientOptions): TrpcClient {
  const url = `${withoutTrailingSlash(options.baseUrl)}/trpc`;
  const fetch = createRetryingFetch(options);
  const authorization = `Bearer ${options.token}`;
  return createTRPCClient<AppRouter>({
    links: [
      httpLink({
        url,
        transformer: superjson,
        fetch,
        headers: ({ op }) => {
          const key = op.type === "mutation" ? op.context.idempotencyKey : undefined;
          return typeof key === "string" ? { Authorization: authorization, [IDEMPOTENCY_KEY_HEADER]: key } : { Authorization: authorization };
        },
      }),
    ],
  });
}
