import type { AppRouter } from "@svc/api";
import { createTRPCClient, httpBatchLink, TRPCClientError } from "@trpc/client";
import { createTRPCContext } from "@trpc/tanstack-react-query";
import superjson from "superjson";

/** React hooks over the typed router: `const trpc = useTRPC(); useQuery(trpc.x.y.queryOptions(input))`. */
export const { TRPCProvider, useTRPC, useTRPCClient } = createTRPCContext<AppRouter>();

export type ConsoleClient = ReturnType<typeof createConsoleClient>;

/**
 * The console's client of /trpc. The admin key is read from memory on every call (never
 * stored in localStorage or a cookie): reloading the page signs the admin out.
 */
export function createConsoleClient(adminKey: () => string | null) {
  return createTRPCClient<AppRouter>({
    links: [
      httpBatchLink({
        url: "/trpc",
        transformer: superjson,
        headers: () => {
          const key = adminKey();
          return key ? { Authorization: `Bearer ${key}` } : {};
        },
      }),
    ],
  });
}

/** The RFC 9457 problem the server put in a tRPC error (see packages/api/src/trpc.ts). */
export interface Problem {
  title: string;
  status: number;
  detail?: string;
}

export function problemOf(error: unknown): Problem {
  if (error instanceof TRPCClientError) {
    const problem = (error.data as { problem?: Problem } | undefined)?.problem;
    if (problem) return problem;
    return { title: "Request failed", status: 0, detail: error.message };
  }
  return { title: "Something went wrong", status: 0, detail: error instanceof Error ? error.message : String(error) };
}
