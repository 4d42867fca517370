import type { AppRouter } from "@svc/api";
import { createTRPCClient, httpBatchLink, httpLink, splitLink, type TRPCClient } from "@trpc/client";
import superjson from "superjson";
import type { ClientOptions } from "./client-options.ts";
import { withoutTrailingSlash } from "./client-options.ts";
import { IDEMPOTENCY_KEY_HEADER } from "./idempotency.ts";
import { createRetryingFetch } from "./retrying-fetch.ts";

export type TrpcClient = TRPCClient<AppRouter>;

/**
 * A typed client of /trpc. Queries are batched; each mutation is its own request, so it
 * carries its own Idempotency-Key: pass one as `{ context: { idempotencyKey } }` or get a
 * fresh one per call.
 */
export function createTrpcClient(options: ClientOptions): TrpcClient {
  const url = `${withoutTrailingSlash(options.baseUrl)}/trpc`;
  const fetch = createRetryingFetch(options);
  const authorization = `Bearer ${options.token}`;
  return createTRPCClient<AppRouter>({
    links: [
      splitLink({
        condition: (op) => op.type === "mutation",
        true: httpLink({
          url,
          transformer: superjson,
          fetch,
          headers: ({ op }) => {
            const key = op.context.idempotencyKey;
            return typeof key === "string" ? { Authorization: authorization, [IDEMPOTENCY_KEY_HEADER]: key } : { Authorization: authorization };
          },
        }),
        false: httpBatchLink({ url, transformer: superjson, fetch, headers: { Authorization: authorization } }),
      }),
    ],
  });
}
