import net from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, describe, expect, it } from "vitest";
import { readEnv } from "../../src/env.ts";
import { createHttpServer } from "../../src/http-server.ts";
import { startTestService } from "../helpers/test-service.ts";

// A load balancer (or any pooling client) reuses an idle keep-alive connection for up to its own
// idle timeout, 60 s on most. A server that closes idle connections sooner (Node's default: 5 s)
// races that reuse, and the request sent on the closed socket fails with ECONNRESET.

const svc = await startTestService({ SVC_ROLE: "api" });
afterAll(() => svc.stop());

/** One raw TCP connection sending HTTP/1.1 requests one after another, so the test sees exactly which socket is reused. */
class Connection {
  private buffer = Buffer.alloc(0);
  private waiting: (() => void) | undefined;
  private readonly socket: net.Socket;
  closed = false;

  constructor(socket: net.Socket) {
    this.socket = socket;
    socket.on("data", (chunk: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      this.waiting?.();
    });
    socket.on("close", () => {
      this.closed = true;
      this.waiting?.();
    });
  }

  static open(url: string): Promise<Connection> {
    const { hostname, port } = new URL(url);
    return new Promise((resolve, reject) => {
      const socket = net.connect(Number(port), hostname, () => resolve(new Connection(socket)));
      socket.once("error", reject);
    });
  }

  /** The head of the answer to `GET path`, after its whole body has arrived. */
  async get(path: string): Promise<string> {
    this.socket.write(`GET ${path} HTTP/1.1\r\nHost: svc.test\r\nConnection: keep-alive\r\n\r\n`);
    for (;;) {
      const end = this.buffer.indexOf("\r\n\r\n");
      if (end >= 0) {
        const head = this.buffer.subarray(0, end).toString("latin1");
        const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
        if (this.buffer.length >= end + 4 + length) {
          this.buffer = this.buffer.subarray(end + 4 + length);
          return head;
        }
      }
      if (this.closed) throw new Error("the server closed the connection");
      await new Promise<void>((resolve) => (this.waiting = resolve));
    }
  }

  end(): void {
    this.socket.end();
  }
}

describe("idle keep-alive connections", () => {
  it("stay open past Node's 5 s default: a request after 7 s idle goes over the same socket", { timeout: 30_000 }, async () => {
    const connection = await Connection.open(svc.url);
    const first = await connection.get("/healthz");
    expect(first).toMatch(/^HTTP\/1\.1 200 /);
    expect(first).toMatch(/\r\nkeep-alive: timeout=65(\r\n|$)/i);
    await sleep(7_000);
    expect(connection.closed).toBe(false);
    expect(await connection.get("/healthz")).toMatch(/^HTTP\/1\.1 200 /);
    connection.end();
  });
});

describe("the HTTP server's timeouts", () => {
  const server = (variables: Record<string, string>) => createHttpServer(() => {}, readEnv(variables));

  it("default to keep-alive 65 s, headers 66 s and a whole request 1 h", () => {
    const defaults = server({});
    expect(defaults.keepAliveTimeout).toBe(65_000);
    expect(defaults.headersTimeout).toBe(66_000);
    expect(defaults.requestTimeout).toBe(3_600_000);
  });

  it("are set by SVC_HTTP_*_TIMEOUT_SECONDS; a request timeout of 0 is none", () => {
    const custom = server({ SVC_HTTP_KEEP_ALIVE_TIMEOUT_SECONDS: "350", SVC_HTTP_HEADERS_TIMEOUT_SECONDS: "360", SVC_HTTP_REQUEST_TIMEOUT_SECONDS: "0" });
    expect(custom.keepAliveTimeout).toBe(350_000);
    expect(custom.headersTimeout).toBe(360_000);
    expect(custom.requestTimeout).toBe(0);
  });

  it("refuse a headers timeout not above the keep-alive timeout, or a request timeout below the headers timeout", () => {
    expect(() => readEnv({ SVC_HTTP_KEEP_ALIVE_TIMEOUT_SECONDS: "70" })).toThrow(/SVC_HTTP_HEADERS_TIMEOUT_SECONDS: must be greater than SVC_HTTP_KEEP_ALIVE_TIMEOUT_SECONDS/);
    expect(() => readEnv({ SVC_HTTP_HEADERS_TIMEOUT_SECONDS: "65" })).toThrow(/SVC_HTTP_HEADERS_TIMEOUT_SECONDS/);
    expect(() => readEnv({ SVC_HTTP_REQUEST_TIMEOUT_SECONDS: "60" })).toThrow(/SVC_HTTP_REQUEST_TIMEOUT_SECONDS: must be 0 or at least SVC_HTTP_HEADERS_TIMEOUT_SECONDS/);
    expect(() => readEnv({ SVC_HTTP_KEEP_ALIVE_TIMEOUT_SECONDS: "0" })).toThrow(/SVC_HTTP_KEEP_ALIVE_TIMEOUT_SECONDS/);
  });
});
