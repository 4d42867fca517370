// Benchmark: memory at rest. Starts svc as `npm start` runs it (the bundle apps/server/dist/main.js,
// built first, under `--enable-source-maps`) once per role, SVC_ROLE=api, etl and all, on an
// embedded PostgreSQL under the bench's SVC_DATA_DIR (the code path of `npm start` without
// DATABASE_URL), lets each sit idle BENCH_SETTLE_S seconds after it started, and prints its RSS
// (/proc/<pid>/status VmRSS) and V8 heap. Beside them, the physical reference: a minimal
// node:http + pg server, one query run, idle as long. Asserts nothing.
// At rest means after V8's memory reducer ran: it gives back the young generation the start
// grew (about 80 MB) once the process has idled for 10-20 s, hence the 30 s default.
//   npm run bench -- memory                        (BENCH_RUNS=2, BENCH_SETTLE_S=30)
//   BENCH_ENTRY=source npm run bench -- memory     (apps/server/src/main.ts, as the other benches run it)
//   BENCH_ALSO=before=/tmp/old/dist/main.js npm run bench -- memory
//                                                  (also measures saved builds, name=path,..., interleaved)
import { spawn, spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { applyMigrations, openEmbeddedPostgres } from "@svc/db";

const runs = Number(process.env.BENCH_RUNS ?? 2);
const settleSeconds = Number(process.env.BENCH_SETTLE_S ?? 30);
const fromSource = process.env.BENCH_ENTRY === "source";
const MB = 1024 * 1024;
const serverDir = path.resolve(import.meta.dirname, "../apps/server");

if (!fromSource) {
  const built = spawnSync(process.execPath, ["../../tooling/scripts/bundle.ts", "src/main.ts"], { cwd: serverDir, stdio: "inherit" });
  if (built.status !== 0) process.exit(built.status ?? 1);
}
const entry = fromSource ? ["src/main.ts"] : ["--enable-source-maps", "dist/main.js"];

const dataDir = mkdtempSync(path.join(tmpdir(), "svc-bench-"));
chmodSync(dataDir, 0o755);
// The servers find it running under SVC_DATA_DIR and use it, as a restarted `npm start` does.
const postgres = await openEmbeddedPostgres(path.join(dataDir, "postgres"));
await applyMigrations(postgres.url);

// Answers the bench's "memory" message with the process's memoryUsage() after a full GC.
const memoryProbe = `data:text/javascript,process.on("message", (m) => { if (m === "memory") { globalThis.gc?.(); process.send(process.memoryUsage()); } });`;

const reference = `
import http from "node:http";
import pg from "pg";
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
await pool.query("SELECT 1");
const server = http.createServer(async (_req, res) => res.end(JSON.stringify((await pool.query("SELECT 1 AS one")).rows)));
server.listen(0, "127.0.0.1", () => console.log("listening"));
`;

interface Measure {
  rssMb: number;
  heapUsedMb: number | undefined;
}

function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) / 1024;
}

/** Starts a process, waits until its output has shown `ready` `times` times, settles, measures, stops it. */
async function measure(args: string[], options: { cwd: string; env: NodeJS.ProcessEnv; ready: RegExp; times: number }): Promise<Measure> {
  const child = spawn(process.execPath, ["--expose-gc", "--import", memoryProbe, ...args], {
    cwd: options.cwd,
    env: options.env,
    stdio: ["ignore", "pipe", "inherit", "ipc"],
  });
  await new Promise<void>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`${args.join(" ")} exited with ${code}`)));
    let seen = 0;
    let buffered = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split("\n");
      buffered = lines.pop()!;
      seen += lines.filter((line) => options.ready.test(line)).length;
      if (seen >= options.times) resolve();
    });
  });
  await new Promise((resolve) => setTimeout(resolve, settleSeconds * 1000));
  const rssMb = rssOf(child.pid!);
  const usage = await new Promise<NodeJS.MemoryUsage>((resolve) => {
    child.once("message", (message) => resolve(message as NodeJS.MemoryUsage));
    child.send("memory");
  });
  child.removeAllListeners("exit");
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
  return { rssMb, heapUsedMb: usage.heapUsed / MB };
}

const serverEnv = (role: string) => ({
  ...process.env,
  DATABASE_URL: "",
  SVC_DATA_DIR: dataDir,
  SVC_ROLE: role,
  PORT: "0",
  SVC_HOST: "127.0.0.1",
  SVC_LOG_LEVEL: "info",
});
const builds = [
  { label: "svc", entry },
  ...(process.env.BENCH_ALSO?.split(",") ?? []).map((named) => {
    const [label, file] = named.split("=") as [string, string];
    return { label, entry: ["--enable-source-maps", path.resolve(file)] };
  }),
];
const subjects: { name: string; run: () => Promise<Measure> }[] = [
  ...["api", "etl", "all"].flatMap((role) =>
    builds.map((build) => ({
      name: `${build.label} SVC_ROLE=${role}`,
      // SVC_ROLE=all logs "svc started" twice: the API, then its etl thread.
      run: () => measure(build.entry, { cwd: serverDir, env: serverEnv(role), ready: /"msg":"svc started"/, times: role === "all" ? 2 : 1 }),
    })),
  ),
  {
    name: "node:http + pg reference",
    run: () =>
      measure(["--input-type=module", "--eval", reference], {
        cwd: import.meta.dirname,
        env: { ...process.env, DATABASE_URL: postgres.url },
        ready: /^listening$/,
        times: 1,
      }),
  },
];

console.log(
  `svc memory at rest: ${fromSource ? "apps/server/src/main.ts" : "dist/main.js"}, ${settleSeconds} s idle after start, ${runs} runs, Node ${process.version}\n`,
);
console.log(`${"process".padEnd(26)} ${"RSS MB (each run)".padEnd(24)} heap used MB after GC`);
const results = new Map<string, Measure[]>();
// Interleaved: each run measures every subject once, so a busy machine weighs on all alike.
for (let run = 0; run < runs; run++) {
  for (const subject of subjects) results.set(subject.name, [...(results.get(subject.name) ?? []), await subject.run()]);
}
for (const [name, measures] of results) {
  const rss = measures.map((m) => m.rssMb.toFixed(0)).join(", ");
  const heap = measures.map((m) => m.heapUsedMb?.toFixed(0) ?? "-").join(", ");
  console.log(`${name.padEnd(26)} ${rss.padEnd(24)} ${heap}`);
}

await postgres.stop();
rmSync(dataDir, { recursive: true, force: true });
