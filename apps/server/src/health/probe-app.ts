import express from "express";
import { notFound } from "../problem-response.ts";
import { requestId } from "../request-id.ts";
import { healthRouter } from "./health-router.ts";
import type { Readiness } from "./readiness.ts";

/** The HTTP server of the etl role, which has no API: only the probes, for orchestrators. */
export function createProbeApp(readiness: Readiness): express.Express {
  const app = express();
  app.disable("x-powered-by");
  app.use(requestId);
  app.use(healthRouter(readiness));
  app.use(notFound);
  return app;
}
