// A real local HTTP server in front of the service: it answers the next requests with the
// failures a test queued (429, 503 with or without Retry-After), then passes requests on.
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

export interface Failure {
  status: 429 | 503;
  retryAfter?: string;
}

export interface ProxiedRequest {
  method: string;
  /** Path and query. */
  url: string;
  headers: IncomingHttpHeaders;
  /** The failure it was answered with; undefined when it went on to the service. */
  failedWith: Failure | undefined;
}

export interface FlakyProxy {
  url: string;
  requests: ProxiedRequest[];
  /** Answers the next requests with these failures, one each, in order. */
  fail(...failures: Failure[]): void;
  close(): Promise<void>;
}

/** Headers that belong to one connection, not to the message. */
const HOP_BY_HOP = new Set(["host", "connection", "keep-alive", "transfer-encoding", "content-length", "content-encoding"]);

export async function startFlakyProxy(target: string): Promise<FlakyProxy> {
  const queued: Failure[] = [];
  const requests: ProxiedRequest[] = [];
  const server = createServer(async (incoming, outgoing) => {
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    const failure = queued.shift();
    requests.push({ method: incoming.method ?? "", url: incoming.url ?? "", headers: incoming.headers, failedWith: failure });
    if (failure) {
      const headers = { "content-type": "application/problem+json", ...(failure.retryAfter !== undefined && { "retry-after": failure.retryAfter }) };
      outgoing.writeHead(failure.status, headers).end(JSON.stringify({ type: "about:blank", title: "Try again", status: failure.status, detail: "Queued by the test.", request_id: "proxy" }));
      return;
    }
    const headers = Object.entries(incoming.headers).filter(([name]) => !HOP_BY_HOP.has(name));
    const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
    const response = await fetch(`${target}${incoming.url}`, { method: incoming.method, headers: headers as Array<[string, string]>, body });
    const answer = Buffer.from(await response.arrayBuffer());
    outgoing.writeHead(response.status, Object.fromEntries([...response.headers].filter(([name]) => !HOP_BY_HOP.has(name)))).end(answer);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    fail: (...failures) => void queued.push(...failures),
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
