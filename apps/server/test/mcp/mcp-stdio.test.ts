import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestService } from "../helpers/test-service.ts";
import { at, createUser, mintToken, startWithTwoTenants, writeSamples } from "../helpers/records.ts";
import { allRecords, callTool, connectClient, refusalOf } from "./mcp-client.ts";

const cliMain = path.resolve(import.meta.dirname, "../../../cli/src/main.ts");
const run = promisify(execFile);

let svc: TestService;
let key: string;
let user: string;

beforeAll(async () => {
  ({ svc, key } = await startWithTwoTenants());
  user = await createUser(svc, key);
  await writeSamples(
    svc,
    user,
    "garmin",
    [0, 1, 2].map((i) => ({ type: "step_count", value: 100 + i, start_date: at(`2026-03-0${i + 1}T10:00:00Z`), end_date: at(`2026-03-0${i + 1}T11:00:00Z`), source: "garmin" })),
  );
});
afterAll(() => svc?.stop());

/** `svc mcp` as an assistant starts it: no database settings, only the launcher's two. */
function launcher(env: Record<string, string>): StdioClientTransport {
  return new StdioClientTransport({ command: process.execPath, args: [cliMain, "mcp"], env: { PATH: process.env.PATH ?? "", ...env }, stderr: "pipe" });
}

function startLauncher(env: Record<string, string>) {
  return run(process.execPath, [cliMain, "mcp"], { env: { PATH: process.env.PATH ?? "", ...env }, timeout: 30_000 });
}

describe("svc mcp (stdio launcher)", () => {
  it("forwards every message to the instance: tools, paging, refusals, prompts", async () => {
    const client = await connectClient(launcher({ SVC_MCP_URL: svc.url, SVC_MCP_KEY: key }));
    try {
      expect((await client.listTools()).tools).toHaveLength(18);
      expect(client.getServerCapabilities()).toMatchObject({ tools: { listChanged: false }, prompts: { listChanged: false } });
      expect((await client.listPrompts()).prompts).toHaveLength(12);
      const steps = await allRecords(client, "get_samples", { user_id: user, type: "step_count", start: "2026-03-01" }, 2);
      expect(steps.map((sample) => sample.value)).toEqual([100, 101, 102]);
      expect(await refusalOf(client, "get_samples", { type: "step_count" })).toBe("Bad Request: user_id is required with a tenant API key.");
      expect(await client.ping()).toEqual({});
    } finally {
      await client.close();
    }
  });

  it("answers every tool through the launcher as over HTTP", async () => {
    const client = await connectClient(launcher({ SVC_MCP_URL: svc.url, SVC_MCP_KEY: key }));
    try {
      const required: Record<string, Record<string, unknown>> = {
        get_samples: { type: "step_count" },
        get_sample_stats: { type: "step_count", start: "2026-03-01", end: "2026-03-04" },
      };
      const { tools } = await client.listTools();
      for (const tool of tools) {
        const perUser = "user_id" in (tool.inputSchema.properties ?? {});
        const args = { ...(perUser ? { user_id: user } : {}), ...required[tool.name] };
        if (tool.name === "get_workout_route") {
          expect(await refusalOf(client, tool.name, { ...args, workout_id: "00000000-0000-4000-8000-000000000000" })).toMatch(/^Not Found: /);
          continue;
        }
        const answer = await callTool(client, tool.name, args);
        expect(answer, tool.name).toMatchObject({ records: expect.any(Array), next_cursor: null, truncated: false });
      }
    } finally {
      await client.close();
    }
  });

  it("works with a user token with scope read, and a URL already ending in /mcp", async () => {
    const reader = await mintToken(svc, key, user, ["read"]);
    const client = await connectClient(launcher({ SVC_MCP_URL: `${svc.url}/mcp/`, SVC_MCP_KEY: reader }));
    try {
      expect((await callTool(client, "get_samples", { type: "step_count", start: "2026-03-01" })).records).toHaveLength(3);
      expect((await client.listTools()).tools.map((tool) => tool.name)).not.toContain("list_users");
    } finally {
      await client.close();
    }
  });

  it("exits at start with the reason on stderr, and nothing on stdout, when the URL or secret is wrong", async () => {
    const uploader = await mintToken(svc, key, user, ["upload"]);
    const cases: Array<[Record<string, string>, RegExp]> = [
      [{ SVC_MCP_URL: svc.url }, /SVC_MCP_KEY is required/],
      [{ SVC_MCP_URL: svc.url, SVC_MCP_KEY: "hunter2" }, /SVC_MCP_KEY is not a svc tenant API key/],
      [{ SVC_MCP_URL: svc.url, SVC_MCP_KEY: "svc_sk_0123456789012345678901234567890123456789012" }, /does not accept SVC_MCP_KEY/],
      [{ SVC_MCP_URL: svc.url, SVC_MCP_KEY: uploader }, /refused SVC_MCP_KEY \(.*scope read/],
      [{ SVC_MCP_URL: "http://health.example.com", SVC_MCP_KEY: key }, /SVC_MCP_URL must use https/],
      [{ SVC_MCP_URL: "not a url", SVC_MCP_KEY: key }, /SVC_MCP_URL is not a URL/],
      [{ SVC_MCP_URL: `${svc.url}/v1`, SVC_MCP_KEY: key }, /No MCP server at .*\/v1\/mcp/],
      [{ SVC_PUBLIC_URL: "http://192.0.2.1:8080", SVC_MCP_KEY: key }, /SVC_PUBLIC_URL must use https/],
    ];
    for (const [env, reason] of cases) {
      const failure = await startLauncher(env).then(
        () => undefined,
        (error: { code: number; stdout: string; stderr: string }) => error,
      );
      expect(failure, JSON.stringify(env)).toMatchObject({ code: 1, stdout: "", stderr: expect.stringMatching(reason) });
    }
  });

  it("does not follow redirects", async () => {
    const { createServer } = await import("node:http");
    const redirector = createServer((_req, res) => res.writeHead(307, { location: `${svc.url}/mcp` }).end());
    await new Promise<void>((resolve) => redirector.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = redirector.address() as { port: number };
      await expect(startLauncher({ SVC_MCP_URL: `http://127.0.0.1:${port}`, SVC_MCP_KEY: key })).rejects.toMatchObject({
        code: 1,
        stdout: "",
        stderr: expect.stringMatching(/redirect .*not followed/),
      });
    } finally {
      redirector.close();
    }
  });
});
