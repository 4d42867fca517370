import type { Server } from "node:http";

/** How often connections that went idle are closed while the server drains. */
const IDLE_SWEEP_MS = 100;

/**
 * Stops accepting connections and lets requests in flight finish. Node closes idle
 * keep-alive connections only when close() is called, so connections whose request ends
 * later are swept as they go idle; after `timeoutMs` the remaining ones are cut. Resolves
 * with how many were cut.
 */
export async function closeHttpServer(server: Server, timeoutMs: number): Promise<{ cut: number }> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  const sweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS);
  let cut = 0;
  const deadline = setTimeout(() => {
    server.getConnections((_error, count) => {
      cut = count;
      server.closeAllConnections();
    });
  }, timeoutMs);
  try {
    await closed;
  } finally {
    clearInterval(sweep);
    clearTimeout(deadline);
  }
  return { cut };
}
