// postWebhook against real local receivers (node:http, node:https, raw TCP): no mocks, so
// the address guard is exercised on real connections.
import type { Socket } from "node:net";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import {
  ADDRESS_NOT_ALLOWED,
  WEBHOOK_USER_AGENT,
  createGuardedAgent,
  postWebhook,
  type PostWebhookInput,
} from "../src/index.ts";
import { TEST_CERT, closedPort, startRawReceiver, startReceiver } from "./local-receiver.ts";

const body = '{"id":"0b7a7c1e-8f1e-4a53-9a43-2b1d0c6f0e01","type":"webhook.test","data":{"endpoint_id":"x"}}';
const headers = { "webhook-id": "0b7a7c1e-8f1e-4a53-9a43-2b1d0c6f0e01", "webhook-signature": "v1,abc=" };

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((server) => server.close()));
});

const testAgents = {
  strict: createGuardedAgent({ allowPrivate: false, ca: TEST_CERT }),
  lenient: createGuardedAgent({ allowPrivate: true, ca: TEST_CERT }),
};
afterAll(async () => {
  await Promise.all([testAgents.strict.close(), testAgents.lenient.close()]);
});

async function receiver(handler: Parameters<typeof startReceiver>[0], options?: { https?: boolean }) {
  const started = await startReceiver(handler, options);
  open.push(started);
  return started;
}

function post(url: string, extra: Partial<PostWebhookInput> = {}) {
  return postWebhook({ url, headers, body, allowPrivate: true, timeoutMs: 5_000, ...extra });
}

describe("answers", () => {
  it("posts the exact body with its headers and takes a 2xx as success", async () => {
    const target = await receiver((_, res) => res.writeHead(202).end("accepted"));
    const outcome = await post(`http://127.0.0.1:${target.port}/hooks/in?tenant=a`, {
      headers: { ...headers, "Content-Type": "text/plain" },
    });

    expect(outcome).toMatchObject({ ok: true, statusCode: 202, error: null, responseBodyExcerpt: "accepted" });
    expect(outcome.durationMs).toBeGreaterThanOrEqual(0);
    expect(target.requests).toHaveLength(1);
    const [request] = target.requests;
    expect(request?.method).toBe("POST");
    expect(request?.url).toBe("/hooks/in?tenant=a");
    expect(request?.body.toString("utf8")).toBe(body);
    expect(request?.headers["content-type"]).toBe("application/json");
    expect(request?.headers["user-agent"]).toBe(WEBHOOK_USER_AGENT);
    expect(WEBHOOK_USER_AGENT).toMatch(/^svc-webhooks\/\d+\.\d+\.\d+/);
    expect(request?.headers["webhook-id"]).toBe(headers["webhook-id"]);
    expect(request?.headers["webhook-signature"]).toBe(headers["webhook-signature"]);
  });

  it("sends a Uint8Array body byte for byte", async () => {
    const target = await receiver((_, res) => res.writeHead(204).end());
    const bytes = Buffer.from('{"name":"Zoë ✓"}', "utf8");
    const outcome = await post(`http://127.0.0.1:${target.port}/`, { body: new Uint8Array(bytes) });

    expect(outcome).toMatchObject({ ok: true, statusCode: 204, responseBodyExcerpt: "" });
    expect(target.requests[0]?.body.equals(bytes)).toBe(true);
  });

  it("takes a 500 as a failure and keeps status and excerpt", async () => {
    const target = await receiver((_, res) => res.writeHead(500).end("database down"));
    const outcome = await post(`http://127.0.0.1:${target.port}/`);

    expect(outcome).toMatchObject({
      ok: false,
      statusCode: 500,
      error: "HTTP 500",
      responseBodyExcerpt: "database down",
    });
  });

  it("does not follow a redirect", async () => {
    const elsewhere = await receiver((_, res) => res.writeHead(200).end("ok"));
    const target = await receiver((_, res) =>
      res.writeHead(301, { location: `http://127.0.0.1:${elsewhere.port}/` }).end("moved"),
    );
    const outcome = await post(`http://127.0.0.1:${target.port}/`);

    expect(outcome).toMatchObject({
      ok: false,
      statusCode: 301,
      error: "redirect (301) not followed",
      responseBodyExcerpt: "moved",
    });
    expect(elsewhere.connections).toBe(0);
    expect(elsewhere.requests).toHaveLength(0);
  });
});

describe("no answer", () => {
  it("reports a refused connection without a status", async () => {
    const port = await closedPort();
    const outcome = await post(`http://127.0.0.1:${port}/`);
    expect(outcome).toMatchObject({ ok: false, statusCode: null, error: "connection refused", responseBodyExcerpt: null });
  });

  it("reports a host that does not resolve", async () => {
    const outcome = await post("https://receiver.invalid/hooks");
    expect(outcome).toMatchObject({ ok: false, statusCode: null, error: "host not found" });
  });

  it("gives up on a receiver that answers after the timeout", async () => {
    const target = await receiver((_, res) => {
      setTimeout(() => res.writeHead(200).end("late"), 1_500).unref();
    });
    const outcome = await post(`http://127.0.0.1:${target.port}/`, { timeoutMs: 300 });

    expect(outcome).toMatchObject({ ok: false, statusCode: null, error: "timeout after 0.3 s", responseBodyExcerpt: null });
    expect(outcome.durationMs).toBeGreaterThanOrEqual(290);
    expect(outcome.durationMs).toBeLessThan(1_000);
  });

  it("gives up on a receiver that accepts the connection but never completes TLS", async () => {
    const silent = await startRawReceiver(null);
    open.push(silent);
    const outcome = await post(`https://localhost:${silent.port}/`, { timeoutMs: 300, agent: testAgents.lenient });

    expect(outcome).toMatchObject({ ok: false, statusCode: null, error: "timeout after 0.3 s" });
    expect(outcome.durationMs).toBeLessThan(1_000);
  });

  it("gives up on a 2xx whose body trickles past the timeout", async () => {
    const target = await receiver((_, res) => {
      res.writeHead(200, { "content-type": "text/plain" });
      const timer = setInterval(() => res.write("."), 50);
      res.on("close", () => clearInterval(timer));
    });
    const outcome = await post(`http://127.0.0.1:${target.port}/`, { timeoutMs: 400 });

    expect(outcome).toMatchObject({ ok: false, statusCode: 200, error: "timeout after 0.4 s" });
    expect(outcome.responseBodyExcerpt).toMatch(/^\.+$/);
    expect(outcome.durationMs).toBeLessThan(1_000);
  });

  it("reports a receiver that does not speak HTTP without throwing", async () => {
    const raw = await startRawReceiver(Buffer.from("SSH-2.0-OpenSSH_9.6\r\n\x00\x01garbage"));
    open.push(raw);
    const outcome = await post(`http://127.0.0.1:${raw.port}/`);
    expect(outcome).toMatchObject({ ok: false, statusCode: null, error: "invalid HTTP response", responseBodyExcerpt: null });
  });
});

describe("response excerpt", () => {
  it("replaces invalid UTF-8 and non-printable characters with ?", async () => {
    const answer = Buffer.concat([
      Buffer.from("ok "),
      Buffer.from([0x00, 0x07, 0x1b, 0x7f]),
      Buffer.from([0xff, 0xfe, 0xc3]),
      Buffer.from(" é ✓\t\r\n"),
      Buffer.from("\u202e\u200b\u0085end"),
    ]);
    const target = await receiver((_, res) => res.writeHead(400).end(answer));
    const outcome = await post(`http://127.0.0.1:${target.port}/`);

    expect(outcome.statusCode).toBe(400);
    expect(outcome.responseBodyExcerpt).toBe("ok ??????? é ✓\t\r\n???end");
  });

  it("keeps the first 1 KiB and drops a character split by the cut", async () => {
    const answer = Buffer.from(`${"a".repeat(1023)}é${"b".repeat(5000)}`);
    const target = await receiver((_, res) => res.writeHead(200).end(answer));
    const outcome = await post(`http://127.0.0.1:${target.port}/`);

    expect(outcome.ok).toBe(true);
    expect(outcome.responseBodyExcerpt).toBe("a".repeat(1023));
  });

  it("stops reading a 10 MB answer after 1 KiB and closes the connection", async () => {
    const total = 10 * 1024 * 1024;
    let serverSocket: Socket | undefined;
    let restSent = false;
    const target = await receiver((_, res) => {
      serverSocket = res.socket ?? undefined;
      res.writeHead(200, { "content-length": String(total) });
      res.write(Buffer.alloc(64 * 1024, "x"));
      // The rest only comes after 2 s: a client that reads it all would wait for it.
      setTimeout(() => {
        restSent = true;
        res.end(Buffer.alloc(total - 64 * 1024, "x"));
      }, 2_000).unref();
    });
    const outcome = await post(`http://127.0.0.1:${target.port}/`, { timeoutMs: 5_000 });

    expect(outcome).toMatchObject({ ok: true, statusCode: 200, error: null });
    expect(outcome.responseBodyExcerpt).toBe("x".repeat(1024));
    expect(outcome.durationMs).toBeLessThan(1_500);
    const socket = serverSocket;
    if (socket === undefined) throw new Error("the receiver saw no request");
    if (!socket.destroyed) await new Promise((resolve) => socket.once("close", resolve));
    expect(restSent).toBe(false);
  });
});

describe("address guard on real connections", () => {
  const loopbackHosts = ["127.0.0.1", "localhost", "[::1]", "[::ffff:127.0.0.1]"];

  it.each(loopbackHosts)("refuses http://%s after connecting, before any request", async (host) => {
    const target = await receiver((_, res) => res.writeHead(200).end("ok"));
    const outcome = await post(`http://${host}:${target.port}/`, { allowPrivate: false });

    expect(outcome).toMatchObject({ ok: false, statusCode: null, error: ADDRESS_NOT_ALLOWED, responseBodyExcerpt: null });
    expect(target.requests).toHaveLength(0);
  });

  it.each(loopbackHosts)("lets http://%s through with allowPrivate", async (host) => {
    const target = await receiver((_, res) => res.writeHead(200).end("ok"));
    const outcome = await post(`http://${host}:${target.port}/`, { allowPrivate: true });

    expect(outcome).toMatchObject({ ok: true, statusCode: 200 });
    expect(target.requests).toHaveLength(1);
  });

  it("checks the resolved address, not the name: the connection is made, then dropped", async () => {
    const target = await receiver((_, res) => res.writeHead(200).end("ok"));
    const outcome = await post(`http://localhost:${target.port}/`, { allowPrivate: false });

    expect(outcome.error).toBe(ADDRESS_NOT_ALLOWED);
    await waitFor(() => target.connections > 0);
    expect(target.requests).toHaveLength(0);
  });

  it("refuses an https receiver on loopback before the TLS handshake", async () => {
    const target = await receiver((_, res) => res.writeHead(200).end("ok"), { https: true });
    const outcome = await post(`https://localhost:${target.port}/`, { allowPrivate: false, agent: testAgents.strict });

    expect(outcome).toMatchObject({ ok: false, statusCode: null, error: ADDRESS_NOT_ALLOWED });
    await waitFor(() => target.connections > 0);
    expect(target.handshakes).toBe(0);
    expect(target.requests).toHaveLength(0);
  });

  it("speaks TLS on the checked connection when the address is allowed", async () => {
    const target = await receiver((_, res) => res.writeHead(200).end("secure"), { https: true });
    for (const host of ["localhost", "127.0.0.1", "[::1]"]) {
      const outcome = await post(`https://${host}:${target.port}/`, { agent: testAgents.lenient });
      expect(outcome).toMatchObject({ ok: true, statusCode: 200, responseBodyExcerpt: "secure" });
    }
    expect(target.handshakes).toBeGreaterThan(0);
  });

  it("verifies certificates: an untrusted one is a TLS error", async () => {
    const target = await receiver((_, res) => res.writeHead(200).end("secure"), { https: true });
    const outcome = await post(`https://localhost:${target.port}/`, { allowPrivate: true });

    expect(outcome).toMatchObject({ ok: false, statusCode: null, responseBodyExcerpt: null });
    expect(outcome.error).toMatch(/^TLS error: /);
    expect(target.requests).toHaveLength(0);
  });

  it("verifies the host name against the certificate", async () => {
    const target = await receiver((_, res) => res.writeHead(200).end("secure"), { https: true });
    // 127.0.0.2 is loopback too, but the certificate names only localhost, 127.0.0.1 and ::1.
    const outcome = await post(`https://127.0.0.2:${target.port}/`, { agent: testAgents.lenient });

    expect(outcome).toMatchObject({ ok: false, statusCode: null });
    expect(outcome.error).toMatch(/^TLS error: /);
  });
});

async function waitFor(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 100 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(condition()).toBe(true);
}
