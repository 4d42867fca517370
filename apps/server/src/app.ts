import { appRouter, createApiContext, openApiYaml, problemFor } from "@svc/api";
import { AppError, type CoreDeps } from "@svc/core";
import { createExpressMiddleware } from "@trpc/server/adapters/express";
import express, { type Request } from "express";
import type { Logger } from "pino";
import { createOpenApiExpressMiddleware } from "trpc-to-openapi";
import { httpLogger } from "./http-logger.ts";
import { recordHttpMetrics } from "./metrics/http-metrics.ts";
import { healthRouter } from "./health/health-router.ts";
import type { Readiness } from "./health/readiness.ts";
import { errorHandler, notFound } from "./problem-response.ts";
import { requestId } from "./request-id.ts";
import { routeRequestSpan, traceRequests } from "./trace-requests.ts";
import { restBodies } from "./rest-bodies.ts";
import { restProblemBodies } from "./rest-problem-bodies.ts";
import { fhirFormats, fhirNotFound } from "./fhir/fhir-answers.ts";
import { bulkFilesRouter } from "./fhir/bulk-files-router.ts";
import { ingestRouter } from "./uploads/ingest-router.ts";
import { oauthCallbackRouter } from "./oauth/callback-router.ts";
import { connectRouter } from "./connect/connect-router.ts";
import { notificationsRouter } from "./inbound/notifications-router.ts";
import { demoRouter } from "./demo/demo-router.ts";
import { mcpRouter } from "./mcp/mcp-router.ts";
import { setupRouter } from "./setup/setup-router.ts";
import { consoleRouter } from "./console/console-router.ts";
import { shareRouter } from "./share/share-router.ts";
import { shareViewerRouter } from "./share-viewer/share-viewer-router.ts";
import { faviconRouter } from "./pages/favicon.ts";

export interface AppOptions {
  deps: CoreDeps;
  logger: Logger;
  readiness: Readiness;
  /** Written into /openapi.yaml as the server URL; "/" when unset. */
  publicUrl?: string | undefined;
  /** Time requests for metrics (when they are served or exported). */
  httpMetrics?: boolean;
}

export function createApp({ deps, logger, readiness, publicUrl, httpMetrics = false }: AppOptions): express.Express {
  const app = express();
  app.disable("x-powered-by");
  app.set("query parser", "simple");
  app.use(requestId);
  // Probes answer before tracing and the access log: an orchestrator polls them every few seconds.
  app.use(healthRouter(readiness));
  if (httpMetrics) app.use(recordHttpMetrics);
  app.use(traceRequests);
  app.use(httpLogger(logger));

  // Built at its first request, not at start: most processes never serve it.
  let served: Promise<string> | undefined;
  app.get("/openapi.yaml", async (_req, res) => {
    served ??= openApiYaml(publicUrl ?? "/").catch((error: unknown) => {
      served = undefined; // the next request tries again
      throw error;
    });
    const yaml = await served;
    res.setHeader("Access-Control-Allow-Origin", "*");
    res.type("application/yaml").send(yaml);
  });

  const createContext = ({ req }: { req: Request }) =>
    createApiContext({ deps, requestId: req.requestId, header: (name) => req.get(name), requestPath: req.originalUrl });
  const onError = ({ error, req }: { error: { code: string; cause?: unknown }; req: Request }) => {
    // A 500 written for the caller (a failed FHIR export's status) is an answer, not a failure of this request.
    const answered = error.cause instanceof AppError && error.cause.detailForCaller;
    if (error.code === "INTERNAL_SERVER_ERROR" && !answered) req.log.error({ err: error.cause ?? error }, "procedure failed");
    // A 503 from a database or raw store that cannot be reached: the operator needs its cause.
    if (error.code === "SERVICE_UNAVAILABLE") {
      const appError = error.cause as { cause?: unknown; detail?: string } | undefined;
      req.log.warn({ err: appError?.cause ?? error }, appError?.detail ?? "service unavailable");
    }
  };

  // Upload bodies are not JSON: their own handlers, ahead of the JSON routes.
  app.use(ingestRouter(deps));
  // FHIR Bulk Data export files: NDJSON bytes, ahead of the base's JSON-only format check.
  app.use(bulkFilesRouter(deps));
  // The icon every page links to (/favicon.svg; /favicon.ico answers it too).
  app.use(faviconRouter());
  // Pages for people: the end of a provider consent, and the hosted connect page.
  app.use(oauthCallbackRouter(deps));
  app.use(connectRouter(deps));
  // Providers' notifications: raw bodies, verified by each connector.
  app.use(notificationsRouter(deps));
  // The built-in demo provider: its consent page, OAuth endpoints and API.
  app.use("/demo", demoRouter(deps));
  // MCP for assistants: read-only tools over the same procedures as /v1.
  app.use(mcpRouter(deps));
  // The browser first-run setup (GET / offers it while the instance has no tenant; POST /setup).
  app.use(setupRouter(deps));
  // Share links (SMART Health Links): the manifest and file a recipient's app fetches (GET /share is the viewer page's).
  app.use(shareRouter(deps));
  // The share viewer page (apps/share-viewer): GET /share and /share/assets/* only, so the share router's /share/{id}/... stay its own.
  app.use(shareViewerRouter());
  // The admin console (apps/console, built by Vite): static files calling /trpc.
  app.use(consoleRouter());

  app.use(
    "/v1",
    restBodies,
    restProblemBodies,
    // The FHIR base answers JSON only (406 otherwise).
    fhirFormats,
    (req, _res, next) => {
      // trpc-to-openapi matches on the full path.
      req.url = req.originalUrl;
      next();
    },
    createOpenApiExpressMiddleware({
      router: appRouter,
      createContext,
      onError,
      responseMeta: ({ ctx, errors, paths }) => {
        routeRequestSpan(paths?.[0]);
        const [error] = errors;
        if (error) {
          const { problem, headers } = problemFor(error, ctx?.requestId ?? "");
          return { status: problem.status, headers };
        }
        return { status: ctx?.response.status ?? 200, headers: ctx?.response.headers ?? {} };
      },
    }),
  );

  app.use(
    "/trpc",
    createExpressMiddleware({
      router: appRouter,
      createContext,
      onError,
      responseMeta: ({ ctx, errors }) => ({
        // An error's own headers, e.g. Retry-After on a 429 (of a batch: its first error's).
        headers: errors[0] ? problemFor(errors[0], ctx?.requestId ?? "").headers : (ctx?.response.headers ?? {}),
      }),
    }),
  );

  // A path of the FHIR base no procedure took: an OperationOutcome for a FHIR client.
  app.use("/v1/fhir", fhirNotFound);
  app.use(notFound);
  app.use(errorHandler);
  return app;
}
