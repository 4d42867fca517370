import { createServer, type RequestListener, type Server } from "node:http";
import type { Env } from "./env.ts";

type Timeouts = Pick<Env, "SVC_HTTP_KEEP_ALIVE_TIMEOUT_SECONDS" | "SVC_HTTP_HEADERS_TIMEOUT_SECONDS" | "SVC_HTTP_REQUEST_TIMEOUT_SECONDS">;

/**
 * The HTTP server of `app` with the connection timeouts of the environment. Node's keep-alive
 * timeout (5 s) is shorter than a load balancer's idle timeout (60 s on most): the balancer would
 * reuse connections the server had just closed, and that request fails with a reset.
 */
export function createHttpServer(app: RequestListener, env: Timeouts): Server {
  const server = createServer(
    {
      headersTimeout: env.SVC_HTTP_HEADERS_TIMEOUT_SECONDS * 1000,
      requestTimeout: env.SVC_HTTP_REQUEST_TIMEOUT_SECONDS * 1000,
    },
    app,
  );
  server.keepAliveTimeout = env.SVC_HTTP_KEEP_ALIVE_TIMEOUT_SECONDS * 1000;
  return server;
}

/** Listens on `port` (0: any free one) at `host`. */
export function listen(server: Server, port: number, host: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve(server);
    });
  });
}
