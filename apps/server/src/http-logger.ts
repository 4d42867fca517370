import type { IncomingMessage, ServerResponse } from "node:http";
import type { Logger } from "pino";
import { pinoHttp } from "pino-http";

/**
 * Access log: method, path (never the query: it can hold health filters), status,
 * duration and request id. Never headers (secrets) or bodies (health values).
 */
export function httpLogger(logger: Logger) {
  return pinoHttp({
    logger,
    genReqId: (req) => (req as IncomingMessage & { requestId: string }).requestId,
    serializers: {
      req: (req: { id: string; method: string; url: string }) => ({
        id: req.id,
        method: req.method,
        // A connect link's token is a capability: never logged.
        path: req.url.split("?")[0]!.replace(/^\/connect\/[^/]+/, "/connect/:token"),
      }),
      res: (res: ServerResponse) => ({ statusCode: res.statusCode }),
    },
    wrapSerializers: false,
    customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? "error" : "info"),
  });
}
