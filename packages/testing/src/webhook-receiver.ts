// Real local webhook receivers for tests and benchmarks: a node:http server on an ephemeral
// port, listening on "::" so 127.0.0.1, ::1 and ::ffff:127.0.0.1 all reach it; a raw TCP
// server for answers that are not HTTP; a port nothing listens on. No mocks: the delivery
// worker's address guard and timeouts act on real connections.
import { createServer as createHttpServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import { createServer as createTcpServer, type AddressInfo, type Server, type Socket } from "node:net";

export interface ReceivedWebhook {
  method: string;
  /** Path and query. */
  url: string;
  headers: IncomingHttpHeaders;
  /** The exact bytes received. */
  body: Buffer;
  /** performance.now() when the whole body had arrived (same clock as the test's). */
  receivedAt: number;
}

/** How the receiver answers one request; it may answer later, or never. */
export type WebhookReply = (request: ReceivedWebhook, response: ServerResponse) => void;

export interface WebhookReceiver {
  port: number;
  /** http://127.0.0.1:<port>/hook */
  url: string;
  /** TCP connections accepted. */
  connections: number;
  /** Every request, in the order they arrived. */
  requests: ReceivedWebhook[];
  /** The answer to the next requests; may be swapped at any time. */
  reply: WebhookReply;
  /** Resolves once `check(requests)` holds; rejects after `timeoutMs`. */
  waitFor(check: (requests: ReceivedWebhook[]) => boolean, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/** Ready-made answers. */
export const replies = {
  status:
    (code: number, body = "", headers: Record<string, string> = {}): WebhookReply =>
    (_, response) => {
      response.writeHead(code, headers).end(body);
    },
  ok: (): WebhookReply => replies.status(200, "ok"),
  /** A redirect, which the sender must not follow. */
  redirect: (location: string, code = 301): WebhookReply => replies.status(code, "moved", { location }),
  /** Answers 200 after `ms`. */
  slow:
    (ms: number): WebhookReply =>
    (_, response) => {
      setTimeout(() => {
        if (!response.destroyed) response.writeHead(200).end("late");
      }, ms);
    },
  /** Never answers: the connection stays open until the client gives up or the receiver closes. */
  hold: (): WebhookReply => () => undefined,
};

export async function startWebhookReceiver(reply: WebhookReply = replies.ok()): Promise<WebhookReceiver> {
  const sockets = new Set<Socket>();
  const server = createHttpServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      const request: ReceivedWebhook = {
        method: incoming.method ?? "",
        url: incoming.url ?? "",
        headers: incoming.headers,
        body: Buffer.concat(chunks),
        receivedAt: performance.now(),
      };
      receiver.requests.push(request);
      receiver.reply(request, response);
    });
  });
  server.keepAliveTimeout = 60_000;
  const receiver: WebhookReceiver = {
    port: 0,
    url: "",
    connections: 0,
    requests: [],
    reply,
    waitFor: (check, timeoutMs = 10_000) => waitUntil(() => check(receiver.requests), timeoutMs, "the receiver's requests"),
    close: () => closeServer(server, sockets),
  };
  trackSockets(server, sockets, () => (receiver.connections += 1));
  receiver.port = await listen(server);
  receiver.url = `http://127.0.0.1:${receiver.port}/hook`;
  return receiver;
}

/** A TCP server that answers whatever it first reads with `reply` (e.g. bytes that are not HTTP) and closes. */
export async function startRawReceiver(reply: Buffer): Promise<{ port: number; connections: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createTcpServer((socket) => socket.once("data", () => socket.end(reply)));
  const raw = { port: 0, connections: 0, close: () => closeServer(server, sockets) };
  trackSockets(server, sockets, () => (raw.connections += 1));
  raw.port = await listen(server);
  return raw;
}

/** A port nothing listens on: bound once, then released. */
export async function closedPort(): Promise<number> {
  const server = createTcpServer();
  const port = await listen(server);
  await closeServer(server, new Set());
  return port;
}

/** Resolves once `check()` is true, checking every 10 ms; rejects after `timeoutMs`. */
export async function waitUntil(check: () => boolean | Promise<boolean>, timeoutMs = 10_000, what = "a condition"): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function trackSockets(server: Server, sockets: Set<Socket>, onConnection: () => void): void {
  server.on("connection", (socket: Socket) => {
    onConnection();
    sockets.add(socket);
    socket.on("error", () => undefined);
    socket.on("close", () => sockets.delete(socket));
  });
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "::", () => resolve((server.address() as AddressInfo).port));
  });
}

function closeServer(server: Server, sockets: Set<Socket>): Promise<void> {
  for (const socket of sockets) socket.destroy();
  return new Promise((resolve) => server.close(() => resolve()));
}
