import { createServer, type Server } from "node:http";
import type { Logger } from "pino";
import { listen } from "../http-server.ts";
import type { ProcessMetrics } from "./process-metrics.ts";

/**
 * GET /metrics in Prometheus's text format, on a listener of its own (SVC_METRICS_PORT at
 * SVC_METRICS_HOST), never on the public one. Nothing else is served there.
 */
export function serveMetrics(metrics: ProcessMetrics, port: number, host: string, logger: Logger): Promise<Server> {
  const server = createServer(async (req, res) => {
    if (req.url?.split("?")[0] !== "/metrics") {
      res.writeHead(404, { "content-type": "text/plain" }).end("Not found: the metrics are at /metrics.\n");
      return;
    }
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.writeHead(405, { allow: "GET, HEAD", "content-type": "text/plain" }).end();
      return;
    }
    try {
      const registry = await metrics.collect();
      const text = await registry.metrics();
      res.writeHead(200, { "content-type": registry.contentType, "cache-control": "no-store" }).end(req.method === "HEAD" ? undefined : text);
    } catch (error) {
      logger.error({ err: error }, "metrics: the collection failed");
      res.writeHead(503, { "content-type": "text/plain" }).end("The metrics could not be collected.\n");
    }
  });
  return listen(server, port, host);
}
