// Entry point of the root npm scripts. Runs under whatever Node npm found (on a fresh
// clone: the system's), installs the workspace when missing or stale with a pinned pnpm,
// then runs everything else under the workspace's own Node 24 (node_modules/.bin/node).
//   node tooling/scripts/run.mjs start|test|svc|bench|release|docs [args...]
import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { withBuildLock } from "./build-lock.mjs";

const PNPM = "pnpm@10.34.8";
const root = fileURLToPath(new URL("../../", import.meta.url));
const bin = path.join(root, "node_modules", ".bin");
const stampFile = path.join(root, "node_modules", ".svc-install-stamp");
// Beside node_modules, not in it: an install may purge node_modules while the lock is held.
const buildLock = path.join(root, ".svc-build.lock");
const env = {
  ...process.env,
  PATH: `${bin}${path.delimiter}${process.env.PATH}`,
  TURBO_TELEMETRY_DISABLED: "1",
  TURBO_NO_UPDATE_NOTIFIER: "1",
  DO_NOT_TRACK: "1",
  REDOCLY_TELEMETRY: "off",
  PRISMA_HIDE_UPDATE_MESSAGE: "1",
  CHECKPOINT_DISABLE: "1",
};

const [command, ...args] = process.argv.slice(2);

/** Hash of everything that decides what an install puts in node_modules. */
function installInputs() {
  const hash = createHash("sha256");
  const files = ["package.json", "pnpm-lock.yaml", "pnpm-workspace.yaml"];
  for (const group of ["apps", "packages", "tooling"]) {
    const dir = path.join(root, group);
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir).sort()) files.push(path.join(group, name, "package.json"));
  }
  for (const file of files) {
    const full = path.join(root, file);
    if (existsSync(full)) hash.update(file).update(readFileSync(full));
  }
  return hash.digest("hex");
}

/** Exits with the command's code when it fails (a build lock held is then stale: its owner is gone). */
function run(cmd, cmdArgs, options = {}) {
  const result = spawnSync(cmd, cmdArgs, { cwd: root, stdio: "inherit", env, ...options });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

/**
 * Installs when needed and runs `build`, one process at a time: two invocations at once
 * (two `npm run svc` on a fresh clone) would install into one node_modules together, and
 * one's build would replace files the other is about to run.
 */
function prepare(build) {
  withBuildLock(
    buildLock,
    () => {
      ensureInstalled();
      build();
    },
    { onWait: (owner) => console.error(`svc: waiting for another npm run (process ${owner ?? "?"}) to finish installing or building ...`) },
  );
}

function ensureInstalled() {
  const wanted = installInputs();
  if (existsSync(stampFile) && readFileSync(stampFile, "utf8") === wanted && existsSync(node)) return;
  console.error(`svc: installing dependencies with ${PNPM} ...`);
  run("npx", ["--yes", PNPM, "install", "--frozen-lockfile", "--config.confirmModulesPurge=false"]);
  writeFileSync(stampFile, wanted);
}

/**
 * The workspace's Node 24 binary itself. node_modules/.bin/node is a shell script that runs it
 * as its own child, so a signal sent to the script would never reach the service.
 */
const node = path.join(root, "node_modules", "node", "bin", "node");

/**
 * Runs a long-lived child under Node 24, passing signals on, and exits with its code. The child
 * gets its own process group: a Ctrl-C in the terminal reaches it once, through this process,
 * and not a second time directly (a second signal means "stop now" to the service).
 */
function runForeground(cmd, cmdArgs) {
  const child = spawn(cmd, cmdArgs, { cwd: root, stdio: "inherit", env, detached: true });
  for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
  child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

switch (command) {
  case "start":
    prepare(() =>
      run("turbo", ["run", "build", "--filter=@svc/server", "--filter=@svc/console", "--filter=@svc/share-viewer", "--output-logs=errors-only"]),
    );
    runForeground(node, ["--enable-source-maps", "apps/server/dist/main.js", ...args]);
    break;
  case "svc":
    // Build output goes to stderr: stdout of `svc mcp` carries only protocol messages.
    prepare(() => run("turbo", ["run", "build", "--filter=@svc/cli", "--output-logs=errors-only"], { stdio: ["ignore", 2, 2] }));
    runForeground(node, ["--enable-source-maps", "apps/cli/dist/main.js", ...args]);
    break;
  case "test":
    // The browser tests of the console and the share viewer load their builds; the client's
    // packed-package test packs its build.
    prepare(() => {
      run("turbo", ["run", "generate", "--output-logs=errors-only"]);
      run("turbo", ["run", "build", "--filter=@svc/console", "--filter=@svc/share-viewer", "--filter=@svc/client", "--output-logs=errors-only"]);
    });
    // Outside the lock (it takes a while): its generate step is now a cache hit, which turbo
    // restores without rewriting unchanged files, so it only reads.
    run("turbo", ["run", "typecheck", "--output-logs=errors-only"]);
    runForeground(path.join(bin, "vitest"), ["run", ...args]);
    break;
  case "release":
    // The production bundle (tooling/scripts/release.ts) copies the console and the share
    // viewer and bundles the generated Prisma client: those are built first.
    prepare(() => {
      run("turbo", ["run", "generate", "--output-logs=errors-only"]);
      run("turbo", ["run", "build", "--filter=@svc/console", "--filter=@svc/share-viewer", "--output-logs=errors-only"]);
    });
    runForeground(node, ["tooling/scripts/release.ts", ...args]);
    break;
  case "bench":
    prepare(() => run("turbo", ["run", "generate", "--output-logs=errors-only"]));
    // `npm run bench -- samples` runs bench/samples.bench.ts; the default is users.
    runForeground(node, [`bench/${args[0] ?? "users"}.bench.ts`, ...args.slice(1)]);
    break;
  case "docs":
    // `npm run docs:openapi` rewrites the generated files of docs/reference/.
    prepare(() => run("turbo", ["run", "generate", "--output-logs=errors-only"]));
    runForeground(node, ["tooling/docs/write-reference.ts", ...args]);
    break;
  default:
    console.error("usage: node tooling/scripts/run.mjs start|test|svc|bench|release|docs [args...]");
    process.exit(2);
}
