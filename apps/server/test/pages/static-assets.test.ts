import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { request, type IncomingHttpHeaders, type Server } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from "node:zlib";
import { browserAvailable, launchBrowser, saveScreenshot } from "@svc/testing";
import express from "express";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { consoleDistDir, consoleRouter } from "../../src/console/console-router.ts";
import { faviconRouter } from "../../src/pages/favicon.ts";
import { shareViewerDistDir } from "../../src/share-viewer/share-viewer-router.ts";
import { startTestService, type TestService } from "../helpers/test-service.ts";
import { openPage, type ViewportName } from "./page-browser.ts";

// The files of the browser apps (console, share viewer): hashed assets sent precompressed by
// Accept-Encoding and cached for a year, no source map served, and an icon for every page.

interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** A GET that keeps the body as sent (fetch would decompress it). */
function rawGet(url: string, headers: Record<string, string> = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on("error", reject);
    req.end();
  });
}

const CHROMIUM_ACCEPT = "gzip, deflate, br, zstd";

describe("a built app's assets, served from its dist", () => {
  // A made-up build: a bundle with both twins, a small file with none, and a source map.
  const dist = mkdtempSync(path.join(tmpdir(), "svc-built-app-"));
  const bundle = Buffer.from(`console.log(${JSON.stringify("x".repeat(200))});\n`.repeat(200));
  let server: Server;
  let base: string;

  beforeAll(async () => {
    mkdirSync(path.join(dist, "assets"));
    writeFileSync(path.join(dist, "index.html"), '<!doctype html><script type="module" src="/console/assets/index-abc123.js"></script>');
    writeFileSync(path.join(dist, "assets", "index-abc123.js"), bundle);
    writeFileSync(path.join(dist, "assets", "index-abc123.js.br"), brotliCompressSync(bundle));
    writeFileSync(path.join(dist, "assets", "index-abc123.js.gz"), gzipSync(bundle));
    writeFileSync(path.join(dist, "assets", "index-abc123.js.map"), '{"version":3,"sources":["secret.ts"]}');
    writeFileSync(path.join(dist, "assets", "small-def456.css"), "a{color:red}");
    const app = express();
    app.use(consoleRouter(dist));
    server = await new Promise<Server>((resolve) => {
      const listening = app.listen(0, "127.0.0.1", () => resolve(listening));
    });
    const address = server.address() as { port: number };
    base = `http://127.0.0.1:${address.port}/console/assets`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    rmSync(dist, { recursive: true, force: true });
  });

  it("sends the brotli twin to a browser that takes br, with the original's type, Vary and a year of caching", async () => {
    const answer = await rawGet(`${base}/index-abc123.js`, { "accept-encoding": CHROMIUM_ACCEPT });
    expect(answer.status).toBe(200);
    expect(answer.headers["content-encoding"]).toBe("br");
    expect(answer.headers["content-type"]).toBe("text/javascript; charset=utf-8");
    expect(answer.headers.vary).toBe("Accept-Encoding");
    expect(answer.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(answer.headers["content-security-policy"]).toContain("script-src 'self'");
    expect(answer.headers["x-content-type-options"]).toBe("nosniff");
    expect(Number(answer.headers["content-length"])).toBe(answer.body.length);
    expect(answer.body.length).toBeLessThan(bundle.length / 10);
    expect(brotliDecompressSync(answer.body).equals(bundle)).toBe(true);
  });

  it("gzip to a browser that takes only gzip or refuses br (q=0); the file itself to one that takes neither", async () => {
    for (const accept of ["gzip", "br;q=0, gzip", "gzip, deflate"]) {
      const answer = await rawGet(`${base}/index-abc123.js`, { "accept-encoding": accept });
      expect(answer.headers["content-encoding"], accept).toBe("gzip");
      expect(gunzipSync(answer.body).equals(bundle), accept).toBe(true);
    }
    for (const accept of [undefined, "identity", "br;q=0, gzip;q=0", "deflate"]) {
      const answer = await rawGet(`${base}/index-abc123.js`, accept === undefined ? {} : { "accept-encoding": accept });
      expect(answer.status, accept).toBe(200);
      expect(answer.headers["content-encoding"], accept).toBeUndefined();
      expect(answer.headers.vary, accept).toBe("Accept-Encoding");
      expect(answer.body.equals(bundle), accept).toBe(true);
    }
  });

  it("sends a file without twins as it is, with its own type", async () => {
    const answer = await rawGet(`${base}/small-def456.css`, { "accept-encoding": CHROMIUM_ACCEPT });
    expect(answer.status).toBe(200);
    expect(answer.headers["content-encoding"]).toBeUndefined();
    expect(answer.headers["content-type"]).toBe("text/css; charset=utf-8");
    expect(answer.body.toString()).toBe("a{color:red}");
  });

  it("answers 304 to a conditional GET of the same encoding, and tags each encoding apart", async () => {
    const br = await rawGet(`${base}/index-abc123.js`, { "accept-encoding": "br" });
    const gzip = await rawGet(`${base}/index-abc123.js`, { "accept-encoding": "gzip" });
    expect(br.headers.etag).toBeDefined();
    expect(br.headers.etag).not.toBe(gzip.headers.etag);
    const again = await rawGet(`${base}/index-abc123.js`, { "accept-encoding": "br", "if-none-match": br.headers.etag! });
    expect(again.status).toBe(304);
  });

  it("never serves a source map, a twin by its own name, or a missing file: 404 without long caching", async () => {
    for (const name of ["index-abc123.js.map", "index-abc123.js.br", "index-abc123.js.gz", "missing-000000.js", "..%2Findex.html", ""]) {
      const answer = await rawGet(`${base}/${name}`, { "accept-encoding": CHROMIUM_ACCEPT });
      expect(answer.status, name).toBe(404);
      expect(answer.headers["cache-control"] ?? "", name).not.toContain("immutable");
      expect(answer.headers["content-encoding"], name).toBeUndefined();
      expect(answer.body.toString(), name).not.toContain("secret.ts");
    }
  });

  it("answers the app's index.html for its pages, revalidated on every load", async () => {
    const answer = await rawGet(`http://${new URL(base).host}/console/tenants`);
    expect(answer.status).toBe(200);
    expect(answer.headers["cache-control"]).toBe("no-cache");
    expect(answer.body.toString()).toContain("/console/assets/index-abc123.js");
  });
});

describe("the builds of the console and the share viewer", () => {
  it("write brotli and gzip twins of their bundles, and no source maps", () => {
    for (const dist of [consoleDistDir(), shareViewerDistDir()]) {
      expect(dist, "run `pnpm turbo run build --filter=@svc/console --filter=@svc/share-viewer`").toBeDefined();
      const assets = readdirSync(path.join(dist!, "assets"));
      expect(assets.filter((name) => name.endsWith(".map")), dist).toEqual([]);
      const bundles = assets.filter((name) => /\.(js|css)$/.test(name));
      expect(bundles.length).toBeGreaterThan(0);
      for (const name of bundles) {
        expect(assets, name).toContain(`${name}.br`);
        expect(assets, name).toContain(`${name}.gz`);
        const size = (file: string) => statSync(path.join(dist!, "assets", file)).size;
        expect(size(`${name}.br`), name).toBeLessThan(size(name) / 3);
      }
    }
  });
});

describe("the icon", () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    const app = express();
    app.use(faviconRouter());
    server = await new Promise<Server>((resolve) => {
      const listening = app.listen(0, "127.0.0.1", () => resolve(listening));
    });
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
  });

  it("is answered at /favicon.svg and /favicon.ico, an SVG cached for a day that runs nothing", async () => {
    for (const name of ["/favicon.svg", "/favicon.ico"]) {
      const answer = await rawGet(`${base}${name}`);
      expect(answer.status, name).toBe(200);
      expect(answer.headers["content-type"], name).toBe("image/svg+xml; charset=utf-8");
      expect(answer.headers["cache-control"], name).toBe("public, max-age=86400");
      expect(answer.headers["content-security-policy"], name).toBe("default-src 'none'");
      expect(answer.body.toString(), name).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    }
  });
});

describe.runIf(browserAvailable())("the console and the share viewer in Chromium", () => {
  let svc: TestService;
  let browser: Browser;
  beforeAll(async () => {
    svc = await startTestService({ SVC_ROLE: "api" });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await svc?.stop();
  });

  for (const viewport of ["desktop", "phone"] as ViewportName[]) {
    it(`load compressed, with their icon, and no request failing (${viewport})`, async () => {
      const ui = await openPage(browser, viewport);
      const { page } = ui;
      const encodings = new Map<string, string | null>();
      page.on("response", (response) => {
        if (/\/assets\/.*\.(js|css)$/.test(response.url())) void response.headerValue("content-encoding").then((value) => encodings.set(response.url(), value));
      });

      await page.goto(`${svc.url}/console/`);
      await page.getByLabel("Admin key").waitFor();
      await ui.expectAccessible("the console's sign-in");
      await ui.expectFitsWidth("the console's sign-in");
      expect(await page.locator('link[rel="icon"]').getAttribute("href")).toBe("/favicon.svg");

      await page.goto(`${svc.url}/share#shlink:/not-a-link`);
      await page.getByRole("alert").getByText("This share link cannot be opened").waitFor();
      await ui.expectAccessible("the share viewer");
      expect(await page.locator('link[rel="icon"]').getAttribute("href")).toBe("/favicon.svg");
      await saveScreenshot(page, `share-viewer-${viewport}-icon`);

      expect(encodings.size).toBeGreaterThanOrEqual(4);
      expect([...encodings.values()]).toEqual([...encodings.values()].map(() => "br"));
      expect(ui.problems).toEqual([]);
      await ui.close();
    });
  }
});
