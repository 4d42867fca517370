import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ProviderError } from "../src/connections/providers/connector.ts";
import { PROVIDER_DOWNLOAD_MAX_BYTES, providerRequest } from "../src/connections/providers/provider-request.ts";

// A connector's file download (`response: "bytes"`, e.g. a workout's FIT file): the body as
// is, no token when asked for none, and a file over the limit refused whether its length is
// declared or only streamed.

const FILE = Buffer.from([0x0e, 0x10, 0x43, 0x08, 0x2e, 0x46, 0x49, 0x54, 0x00, 0xff]);
const seen: Array<{ path: string; authorization: string | undefined; accept: string | undefined }> = [];
let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((request, response) => {
    seen.push({ path: request.url ?? "", authorization: request.headers.authorization, accept: request.headers.accept });
    if (request.url === "/file.fit") return response.end(FILE);
    if (request.url === "/declared-too-large") {
      response.writeHead(200, { "content-length": String(PROVIDER_DOWNLOAD_MAX_BYTES + 1) });
      return response.end();
    }
    if (request.url === "/streamed-too-large") {
      const chunk = Buffer.alloc(1024 * 1024);
      let sent = 0;
      const more = () => {
        while (sent <= PROVIDER_DOWNLOAD_MAX_BYTES) {
          sent += chunk.length;
          if (!response.write(chunk)) return void response.once("drain", more);
        }
        response.end();
      };
      response.on("error", () => {});
      return more();
    }
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe("providerRequest with response bytes", () => {
  it("answers the body as a Buffer, sending no token with auth none", async () => {
    const bytes = await providerRequest(`${base}/file.fit`, { auth: "none", response: "bytes" }, { accessToken: "user-token" });
    expect(Buffer.isBuffer(bytes) && bytes.equals(FILE)).toBe(true);
    expect(seen.at(-1)).toEqual({ path: "/file.fit", authorization: undefined, accept: "*/*" });
  });

  it("a refusal is a ProviderError by status, as for JSON", async () => {
    await expect(providerRequest(`${base}/gone.fit`, { auth: "none", response: "bytes" }, {})).rejects.toMatchObject({ kind: "failed", status: 404 });
  });

  it("refuses a file larger than the limit, declared or streamed", async () => {
    const declared = providerRequest(`${base}/declared-too-large`, { auth: "none", response: "bytes" }, {});
    await expect(declared).rejects.toBeInstanceOf(ProviderError);
    await expect(declared).rejects.toThrow(/larger than/);
    await expect(providerRequest(`${base}/streamed-too-large`, { auth: "none", response: "bytes" }, {})).rejects.toThrow(/larger than/);
  });
});
