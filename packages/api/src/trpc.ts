import { initTRPC, TRPCError } from "@trpc/server";
import { AppError, APP_ERRORS, serviceUnavailableError } from "@svc/core";
import superjson from "superjson";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { ApiContext } from "./context.ts";
import { problemFor } from "./errors.ts";

export type SvcMeta = {
  /** HTTP status of a successful answer when it is not 200 (documented in /openapi.yaml). */
  successStatus?: 201 | 202 | 204;
  /** A second success without a body, e.g. DELETE .../connections/{provider}: 204, or 202 with a job. */
  alsoSucceeds?: {
    status: 200 | 204;
    description: string;
    /** The second success has the same body (and headers) as the first, e.g. sync now: 202 new run, 200 the open one. */
    sameBody?: boolean;
  };
  /** Media type of a successful answer when it is not application/json (the procedure sets the header). */
  contentType?: "application/fhir+json";
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

/**
 * tRPC turns any error that is not a TRPCError into INTERNAL_SERVER_ERROR. This gives an
 * AppError its own tRPC code from the error table, keeping the AppError as the cause; an
 * unavailable database or raw store becomes the 503 AppError.
 */
const appErrorsAsTrpcErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (result.ok) return result;
  const cause = result.error.cause instanceof AppError ? result.error.cause : serviceUnavailableError(result.error.cause);
  if (cause) {
    throw new TRPCError({ code: APP_ERRORS[cause.code].trpc, message: cause.detail, cause });
  }
  return result;
});

/** Whether a JSON-like value holds a string with a NUL character anywhere inside. */
function holdsNul(value: unknown, depth = 0): boolean {
  if (typeof value === "string") return value.includes("\u0000");
  if (depth > 32 || value === null || typeof value !== "object") return false;
  const children = Array.isArray(value) ? value : Object.entries(value).flat();
  return children.some((child) => holdsNul(child, depth + 1));
}

/**
 * PostgreSQL text cannot hold U+0000: such input would fail deep in a write as a 500. Every
 * procedure refuses it up front as a 400 (without quoting the text: it may be health data).
 */
const refuseNulText = t.middleware(async ({ getRawInput, next }) => {
  if (holdsNul(await getRawInput())) {
    throw new TRPCError({ code: "BAD_REQUEST", message: "Text in the request must not contain the NUL character (U+0000)." });
  }
  return next();
});

export const router = t.router;
export const publicProcedure = t.procedure.use(appErrorsAsTrpcErrors).use(refuseNulText);
