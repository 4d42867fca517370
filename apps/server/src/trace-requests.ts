import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import { appRouter } from "@svc/api";
import type { Request, RequestHandler } from "express";

const tracer = trace.getTracer("svc");
const procedures = appRouter._def.procedures as unknown as Record<string, { _def: { meta?: { openapi?: { method: string; path: string } } } } | undefined>;

/**
 * One server span per request, joined to the caller's trace by its W3C `traceparent` (and
 * `tracestate`; nothing else, so no caller baggage travels on to providers or webhooks).
 * The span records the method, the route template when one matched and the status: never the
 * path, which may hold a token (/connect/{token}), nor the query. Nothing is added to the
 * response. With tracing off every call here is a no-op of the OpenTelemetry API.
 */
export const traceRequests: RequestHandler = (req, res, next) => {
  const carrier: Record<string, string> = {};
  for (const name of ["traceparent", "tracestate"]) {
    const value = req.get(name);
    if (value !== undefined) carrier[name] = value;
  }
  const parent = propagation.extract(ROOT_CONTEXT, carrier);
  const span = tracer.startSpan(req.method, { kind: SpanKind.SERVER, attributes: { "http.request.method": req.method } }, parent);
  const active = trace.setSpan(parent, span);
  res.once("close", () => {
    const route = routeOf(req);
    if (route !== undefined) {
      span.updateName(`${req.method} ${route}`);
      span.setAttribute("http.route", route);
    }
    span.setAttribute("http.response.status_code", res.statusCode);
    if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
  });
  // Body parsers continue from the request's stream events: they stay in this context too
  // (tracing.test.ts sends a body in two parts to hold that).
  context.with(active, next);
};

/**
 * Names the request's span after the OpenAPI route of the /v1 procedure that answers it (e.g.
 * `GET /v1/users/{id}`): /v1 is one express middleware, so no express route names it.
 */
export function routeRequestSpan(procedurePath: string | undefined): void {
  const openapi = procedurePath === undefined ? undefined : procedures[procedurePath]?._def.meta?.openapi;
  const span = trace.getActiveSpan();
  if (openapi === undefined || span === undefined) return;
  span.updateName(`${openapi.method} ${openapi.path}`);
  span.setAttribute("http.route", openapi.path);
}

function routeOf(req: Request): string | undefined {
  const path: unknown = req.route?.path;
  return typeof path === "string" ? `${req.baseUrl}${path}` : undefined;
}
