// @svc/client as a tenant gets it: `npm pack` of the build (dist/, made by `turbo run build`,
// which `npm test` runs first), installed with plain npm into a scratch project outside the
// workspace and run by the machine's own Node (not the workspace's Node 24). The README's
// recipe (examples/tenant-backend.mjs) creates a user, pages samples and verifies a real
// webhook delivery from a real svc; require() loads it; its types compile for a consumer; and
// the package bundled for a browser runs in chromium against svc.
import { execFile } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { build } from "esbuild";
import { browserAvailable, launchBrowser } from "@svc/testing";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLiveService, type LiveService } from "./helpers/live-service.ts";

const PACKAGE_DIR = path.resolve(import.meta.dirname, "..");
const DIST = path.join(PACKAGE_DIR, "dist");
const WORKSPACE = path.resolve(PACKAGE_DIR, "../..");
const RECIPE = "examples/tenant-backend.mjs";

/**
 * The environment of a shell outside this workspace: no node_modules/.bin on PATH (so `node` and
 * `npm` are the machine's), and none of the npm, pnpm or Node settings of the run that started the tests.
 */
function outsideEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (/^(npm_|pnpm_)/i.test(name) || name === "NODE_OPTIONS" || name === "NODE_PATH" || name === "INIT_CWD") continue;
    env[name] = value;
  }
  env.PATH = (process.env.PATH ?? "")
    .split(path.delimiter)
    .filter((dir) => !dir.split(path.sep).includes("node_modules"))
    .join(path.delimiter);
  return { ...env, ...extra };
}

/** Runs a command of the machine (found on the outside PATH) in `cwd`; rejects with its output when it fails. */
async function outside(command: string, args: string[], cwd: string, options: { env?: Record<string, string>; timeoutMs?: number } = {}) {
  try {
    return await promisify(execFile)(command, args, { cwd, env: outsideEnv(options.env), timeout: options.timeoutMs ?? 120_000, maxBuffer: 16 * 1024 * 1024 });
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`${command} ${args.join(" ")} failed: ${String(error)}\n${stdout ?? ""}\n${stderr ?? ""}`);
  }
}

let scratch: string;
let packedFiles: string[];
let systemNode: { version: string; execPath: string };
let svc: LiveService;

beforeAll(async () => {
  if (!existsSync(path.join(DIST, "package.json"))) {
    throw new Error("packages/client/dist is missing: build it first (npm test does; or PATH=$PWD/node_modules/.bin:$PATH turbo run build --filter=@svc/client).");
  }
  scratch = mkdtempSync(path.join(tmpdir(), "svc-client-scratch-"));
  systemNode = JSON.parse((await outside("node", ["-p", "JSON.stringify({ version: process.version, execPath: process.execPath })"], scratch)).stdout);
  const packed = JSON.parse((await outside("npm", ["pack", DIST, "--json", "--pack-destination", scratch], scratch)).stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
  packedFiles = packed[0]!.files.map((file) => file.path).sort();
  writeFileSync(path.join(scratch, "package.json"), JSON.stringify({ name: "tenant-backend", private: true, type: "module" }));
  await outside("npm", ["install", `./${packed[0]!.filename}`, "--no-audit", "--no-fund", "--prefer-offline"], scratch, { timeoutMs: 180_000 });
  svc = await startLiveService();
}, 240_000);

afterAll(async () => {
  await svc?.stop();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe("the packed @svc/client", () => {
  it("is built JavaScript with types, and depends only on registry packages", () => {
    expect(systemNode.execPath.startsWith(WORKSPACE), `node on the outside PATH is the workspace's: ${systemNode.execPath}`).toBe(false);
    expect(Number(systemNode.version.slice(1).split(".")[0])).toBeGreaterThanOrEqual(20);

    expect(packedFiles).toEqual(["README.md", "index.d.ts", "index.js", "package.json"]);
    const manifestText = readFileSync(path.join(scratch, "node_modules/@svc/client/package.json"), "utf8");
    expect(manifestText).not.toMatch(/workspace:|catalog:|"private"/);
    const manifest = JSON.parse(manifestText) as { dependencies: Record<string, string>; devDependencies?: unknown };
    expect(Object.keys(manifest.dependencies).sort()).toEqual(["openapi-fetch", "standardwebhooks"]);
    expect(manifest.devDependencies).toBeUndefined();
  });

  it(`runs the README's recipe (${RECIPE}) on the machine's Node: a user, paged samples, a verified webhook`, async () => {
    copyFileSync(path.join(PACKAGE_DIR, RECIPE), path.join(scratch, "tenant-backend.mjs"));
    const { stdout } = await outside("node", ["tenant-backend.mjs"], scratch, { env: { SVC_URL: svc.url, SVC_API_KEY: svc.apiKey }, timeoutMs: 60_000 });
    const result = JSON.parse(stdout.trim().split("\n").at(-1)!) as { user_id: string; upload: string; samples: string[]; event: { id: string; type: string; types: string[] } };
    expect(result.upload).toBe("processed");
    expect(result.samples.map((line) => line.split(" ").slice(1).join(" "))).toEqual(["72 count/min", "75 count/min", "71 count/min", "80 count/min", "78 count/min"]);
    expect(result.event).toMatchObject({ type: "data.written", types: ["heart_rate"] });
  }, 90_000);

  it("is shown in the README exactly as the recipe file", () => {
    const readme = readFileSync(path.join(PACKAGE_DIR, "README.md"), "utf8");
    const block = new RegExp(`<!-- example: ${RECIPE} -->\\n\`\`\`js\\n([\\s\\S]*?)\`\`\`\\n`).exec(readme)?.[1];
    expect(block, `README.md shows ${RECIPE} after <!-- example: ${RECIPE} -->`).toBe(readFileSync(path.join(PACKAGE_DIR, RECIPE), "utf8"));
  });

  it("loads with require() from CommonJS (require of an ES module, Node 20.19+)", async () => {
    const script = 'const client = require("@svc/client"); console.log(Object.keys(client).sort().join(","));';
    const { stdout } = await outside("node", ["--input-type=commonjs", "-e", script], scratch);
    expect(stdout.trim().split(",")).toEqual(expect.arrayContaining(["createRestClient", "paginate", "unwrap", "verifyWebhook", "WebhookVerificationError"]));
  });

  it("gives a TypeScript consumer the route, body and event types", async () => {
    writeFileSync(
      path.join(scratch, "tsconfig.json"),
      JSON.stringify({ compilerOptions: { module: "nodenext", target: "es2022", lib: ["es2022", "dom"], types: [], strict: true, noEmit: true, skipLibCheck: false }, files: ["consumer.ts"] }),
    );
    writeFileSync(
      path.join(scratch, "consumer.ts"),
      `import { createRestClient, paginate, unwrap, verifyWebhook, type WebhookEvent } from "@svc/client";
const svc = createRestClient({ baseUrl: "https://svc.example.com", token: "svc_sk_example" });
export async function heartRates(id: string): Promise<number[]> {
  const values: number[] = [];
  for await (const sample of paginate((cursor) => unwrap(svc.GET("/v1/users/{id}/samples", { params: { path: { id }, query: { type: "heart_rate", cursor } } })))) {
    values.push(sample.value);
  }
  return values;
}
export function typesWritten(secret: string, body: string, headers: Headers): string[] {
  const event: WebhookEvent = verifyWebhook(secret, body, headers);
  return event.type === "data.written" ? event.data.types : [];
}
// @ts-expect-error: not a route of svc
void svc.GET("/v1/nowhere");
// @ts-expect-error: external_ref is a string
void svc.POST("/v1/users", { body: { external_ref: 42 } });
`,
    );
    const tsc = path.join(WORKSPACE, "node_modules/typescript/bin/tsc");
    await promisify(execFile)(process.execPath, [tsc, "-p", scratch], { cwd: scratch }).catch((error: { stdout?: string }) => {
      throw new Error(`the consumer does not compile:\n${error.stdout ?? String(error)}`);
    });
  }, 60_000);

  it.runIf(browserAvailable())("runs in a browser: bundled for the web, it pages users and verifies a webhook in chromium", async () => {
    const bundled = await build({
      stdin: { contents: 'export * from "@svc/client";', resolveDir: scratch, loader: "js" },
      bundle: true,
      platform: "browser",
      format: "iife",
      globalName: "svc",
      write: false,
      logLevel: "silent",
    });
    const secret = `whsec_${Buffer.from(crypto.getRandomValues(new Uint8Array(24))).toString("base64")}`;
    const body = JSON.stringify({ id: "msg_1", type: "webhook.test", timestamp: new Date().toISOString(), data: { endpoint_id: crypto.randomUUID() } });
    const headers = { "webhook-id": "msg_1", "webhook-timestamp": String(Math.floor(Date.now() / 1000)), "webhook-signature": new Webhook(secret).sign("msg_1", new Date(), body) };

    const browser = await launchBrowser();
    try {
      const page = await browser.newPage();
      // Served on svc's origin, so the page's fetches reach svc's /v1 without CORS.
      await page.route(`${svc.url}/client-in-a-browser.html`, (route) => route.fulfill({ contentType: "text/html", body: "<!doctype html><title>@svc/client</title>" }));
      await page.goto(`${svc.url}/client-in-a-browser.html`);
      await page.addScriptTag({ content: bundled.outputFiles[0]!.text });
      const result = await page.evaluate(
        async ({ baseUrl, token, secret, body, headers }) => {
          const client = (globalThis as unknown as { svc: typeof import("../src/index.ts") }).svc;
          const rest = client.createRestClient({ baseUrl, token });
          for (const ref of ["browser-1", "browser-2"]) await client.unwrap(rest.POST("/v1/users", { body: { external_ref: ref } }));
          const refs: Array<string | null> = [];
          for await (const user of client.paginate((cursor) => client.unwrap(rest.GET("/v1/users", { params: { query: { cursor, limit: 1 } } })))) refs.push(user.external_ref);
          const event = client.verifyWebhook(secret, body, new Headers(headers));
          let tampered = "";
          try {
            client.verifyWebhook(secret, body.replace("webhook.test", "user.deleted"), new Headers(headers));
          } catch (error) {
            tampered = (error as Error).name;
          }
          return { refs, eventType: event.type, tampered, hasProcess: typeof (globalThis as { process?: unknown }).process };
        },
        { baseUrl: svc.url, token: svc.apiKey, secret, body, headers },
      );
      expect(result.hasProcess).toBe("undefined");
      expect(result.refs).toEqual(expect.arrayContaining(["browser-1", "browser-2"]));
      expect(result.eventType).toBe("webhook.test");
      expect(result.tampered).toBe("WebhookVerificationError");
    } finally {
      await browser.close();
    }
  }, 60_000);
});
