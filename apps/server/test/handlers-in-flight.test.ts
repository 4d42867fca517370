import { createServer, request } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { closeHttpServer } from "../src/close-http-server.ts";
import { HandlersInFlight } from "../src/handlers-in-flight.ts";

describe("HandlersInFlight", () => {
  it("waits, after the server closed, for a handler whose client hung up, until it ends its response", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let started!: () => void;
    const handlerStarted = new Promise<void>((resolve) => (started = resolve));
    const server = createServer(async (_req, res) => {
      started();
      await gate;
      res.end("late");
    });
    const handlers = new HandlersInFlight(server);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;

    const client = request({ port, host: "127.0.0.1", path: "/" });
    client.on("error", () => undefined);
    client.end();
    await handlerStarted;
    client.destroy();

    // The connection is gone, so the server closes with the handler still running.
    expect(await closeHttpServer(server, 5_000)).toEqual({ cut: 0 });
    let settled: number | undefined;
    const waiting = handlers.settled(5_000).then((running) => (settled = running));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(settled).toBeUndefined();
    release();
    await waiting;
    expect(settled).toBe(0);
  });

  it("answers at once when every response ended, and after the timeout with how many still run", async () => {
    const server = createServer((req, res) => {
      if (req.url === "/now") res.end("now");
      // "/never" never answers.
    });
    const handlers = new HandlersInFlight(server);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    const answer = await fetch(`http://127.0.0.1:${port}/now`);
    expect(await answer.text()).toBe("now");
    expect(await handlers.settled(0)).toBe(0);

    const hanging = request({ port, host: "127.0.0.1", path: "/never" });
    hanging.on("error", () => undefined);
    hanging.end();
    await new Promise((resolve) => setTimeout(resolve, 100));
    hanging.destroy();
    expect(await handlers.settled(50)).toBe(1);
    await closeHttpServer(server, 1_000);
  });
});
