// Real local webhook receivers for tests: node:http / node:https servers on an ephemeral
// port, listening on "::" so 127.0.0.1, ::1 and ::ffff:127.0.0.1 all reach them. They
// count TCP connections (to show the guard refused after connecting) and requests.
import { readFileSync } from "node:fs";
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import { createServer as createTcpServer, type AddressInfo, type Server, type Socket } from "node:net";

const fixtures = new URL("./fixtures/", import.meta.url);
/** A self-signed test certificate for localhost, 127.0.0.1 and ::1. Trusted nowhere else. */
export const TEST_CERT = readFileSync(new URL("webhook-receiver.cert.pem", fixtures), "utf8");
const TEST_KEY = readFileSync(new URL("webhook-receiver.key.pem", fixtures), "utf8");

export type ReceivedRequest = { method: string; url: string; headers: IncomingMessage["headers"]; body: Buffer };

export type Receiver = {
  port: number;
  /** TCP connections accepted. */
  connections: number;
  /** TLS handshakes completed (https receivers only). */
  handshakes: number;
  requests: ReceivedRequest[];
  close(): Promise<void>;
};

type Handler = (request: ReceivedRequest, response: ServerResponse) => void;

export async function startReceiver(handler: Handler, options: { https?: boolean } = {}): Promise<Receiver> {
  const sockets = new Set<Socket>();
  const receiver: Receiver = { port: 0, connections: 0, handshakes: 0, requests: [], close: async () => {} };
  const onRequest = (incoming: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      const request = {
        method: incoming.method ?? "",
        url: incoming.url ?? "",
        headers: incoming.headers,
        body: Buffer.concat(chunks),
      };
      receiver.requests.push(request);
      handler(request, response);
    });
  };
  const server = options.https
    ? createHttpsServer({ cert: TEST_CERT, key: TEST_KEY }, onRequest)
    : createHttpServer(onRequest);
  server.on("connection", (socket: Socket) => {
    receiver.connections += 1;
    sockets.add(socket);
    socket.on("error", () => undefined);
    socket.on("close", () => sockets.delete(socket));
  });
  server.on("secureConnection", () => {
    receiver.handshakes += 1;
  });
  receiver.port = await listen(server);
  receiver.close = () => closeServer(server, sockets);
  return receiver;
}

/** A TCP server that answers what it first reads with `reply` and closes; null: stays silent. */
export async function startRawReceiver(reply: Buffer | null): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createTcpServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => undefined);
    if (reply !== null) socket.once("data", () => socket.end(reply));
  });
  const port = await listen(server);
  return { port, close: () => closeServer(server, sockets) };
}

/** A port nothing listens on: bound once, then released. */
export async function closedPort(): Promise<number> {
  const server = createTcpServer();
  const port = await listen(server);
  await closeServer(server, new Set());
  return port;
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
