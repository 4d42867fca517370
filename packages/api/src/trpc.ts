import { initTRPC } from "@trpc/server";
import superjson from "superjson";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { ApiContext } from "./context.ts";
import { problemFor } from "./errors.ts";

export type SvcMeta = {
  /** HTTP status of a successful answer when it is not 200 (documented in /openapi.yaml). */
  successStatus?: 201 | 202 | 204;
};

const t = initTRPC
  .context<ApiContext>()
  .meta<OpenApiMeta<SvcMeta>>()
  .create({
    transformer: superjson,
    // Every error carries its RFC 9457 problem; REST answers with exactly that body.
    errorFormatter: ({ shape, error, ctx }) => {
      const { problem } = problemFor(error, ctx?.requestId ?? "");
      return { ...shape, message: problem.detail, data: { ...shape.data, stack: undefined, problem } };
    },
  });

export const router = t.router;
export const publicProcedure = t.procedure;
