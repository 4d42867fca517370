import type { Request, RequestHandler, Response } from "express";
import type { Histogram } from "prom-client";
import { requestRoute } from "./request-route.ts";

/** Every request this process answered (probes aside); its `_count` is the number of requests. Kept once keepHttpMetrics ran. */
let requestDuration: Histogram<"method" | "route" | "status"> | undefined;

/** Keeps request metrics from now on; prom-client loads only in a process that keeps metrics (its memory at rest). */
export async function keepHttpMetrics(): Promise<void> {
  const { Histogram } = await import("@svc/jobs/prom-client");
  requestDuration ??= new Histogram({
    name: "svc_http_request_duration_seconds",
    help: "HTTP requests this process answered (probes aside), by method, route template and status, and how long each took until its response ended.",
    labelNames: ["method", "route", "status"] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  });
}

const STARTED_AT = Symbol("metrics started at");

type TimedRequest = Request & { [STARTED_AT]: number };

/**
 * Times each request into svc_http_request_duration_seconds. On the request path it only
 * notes the start and adds one shared listener: no closure, no log; labels are found once
 * the response closed.
 */
export const recordHttpMetrics: RequestHandler = (req, res, next) => {
  (req as TimedRequest)[STARTED_AT] = performance.now();
  res.on("close", recordRequest);
  next();
};

function recordRequest(this: Response): void {
  const req = this.req as TimedRequest;
  requestDuration?.observe({ method: req.method, route: requestRoute(req), status: this.statusCode }, (performance.now() - req[STARTED_AT]) / 1000);
}
