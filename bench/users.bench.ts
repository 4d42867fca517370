// Benchmark: POST /v1/users and GET /v1/users/{id} under autocannon (50 connections)
// against a real svc on an embedded PostgreSQL, and the same read as a direct SQL query
// for a side-by-side ratio. Prints figures; asserts nothing.
//   npm run bench            (BENCH_SECONDS=10 by default)
import { spawn } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import pg from "pg";
import { createTenant } from "@svc/core";
import { applyMigrations, createDatabase, openEmbeddedPostgres } from "@svc/db";

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = 50;

// The database and the load generator live here; the server runs in its own process, as
// `npm start` runs it, so the load generator does not share its event loop.
const dataDir = mkdtempSync(path.join(tmpdir(), "svc-bench-"));
chmodSync(dataDir, 0o755);
const postgres = await openEmbeddedPostgres(path.join(dataDir, "postgres"));
await applyMigrations(postgres.url);
const db = createDatabase(postgres.url, { max: 2 });
const { api_key: key, tenant_id: tenantId } = await createTenant(db, "bench");
const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };

const server = spawn(process.execPath, [path.resolve(import.meta.dirname, "../apps/server/src/main.ts")], {
  // Rate limits off: one tenant key over 50 connections would otherwise measure 429s.
  env: { ...process.env, DATABASE_URL: postgres.url, PORT: "0", SVC_HOST: "127.0.0.1", SVC_LOG_LEVEL: "info", SVC_RATE_LIMIT_WINDOW_SECONDS: "0" },
  stdio: ["ignore", "pipe", "inherit"],
});
const url = await new Promise<string>((resolve, reject) => {
  server.once("exit", (code) => reject(new Error(`server exited with ${code}`)));
  let buffered = "";
  server.stdout.on("data", (chunk: Buffer) => {
    buffered += chunk.toString();
    const started = /"url":"(http:\/\/127\.0\.0\.1:\d+)","msg":"svc started"/.exec(buffered);
    if (started) {
      server.stdout.removeAllListeners("data");
      server.stdout.resume();
      resolve(started[1]!);
    }
  });
});

async function load(title: string, path: string, options: Partial<autocannon.Options> = {}) {
  const result = await autocannon({ url: `${url}${path}`, connections, duration: seconds, headers, ...options });
  const errors = result.non2xx + result.errors;
  if (errors > 0) console.log("  status codes:", result.statusCodeStats);
  console.log(
    `${title.padEnd(28)} ${result.requests.average.toFixed(0).padStart(7)} req/s   p50 ${String(result.latency.p50).padStart(4)} ms   p99 ${String(result.latency.p99).padStart(4)} ms   non-2xx/errors ${errors}`,
  );
  return result;
}

console.log(`svc benchmark: ${connections} connections, ${seconds} s each, embedded PostgreSQL, Node ${process.version}\n`);
await load("POST /v1/users", "/v1/users", { method: "POST", body: "{}" });

const created = (await (await fetch(`${url}/v1/users`, { method: "POST", headers, body: "{}" })).json()) as { id: string };
const userId = created.id;
const http = await load("GET /v1/users/{id}", `/v1/users/${userId}`);

// The same read as one SQL query per request over a pool, 50 at a time.
const pool = new pg.Pool({ connectionString: postgres.url, max: 10 });
const latencies: number[] = [];
let count = 0;
const deadline = Date.now() + seconds * 1000;
await Promise.all(
  Array.from({ length: connections }, async () => {
    while (Date.now() < deadline) {
      const started = performance.now();
      await pool.query(
        "SELECT id, external_ref, status, created_at FROM users WHERE id = $1 AND tenant_id = $2 AND status = 'active'",
        [userId, tenantId],
      );
      latencies.push(performance.now() - started);
      count++;
    }
  }),
);
latencies.sort((a, b) => a - b);
const sqlRate = count / seconds;
const pct = (p: number) => latencies[Math.floor((latencies.length - 1) * p)]!.toFixed(1);
console.log(
  `${"same read as direct SQL".padEnd(28)} ${sqlRate.toFixed(0).padStart(7)} q/s     p50 ${pct(0.5).padStart(4)} ms   p99 ${pct(0.99).padStart(4)} ms`,
);
console.log(`\nGET /v1/users/{id} reaches ${((http.requests.average / sqlRate) * 100).toFixed(0)}% of the direct SQL rate.`);

await pool.end();
await db.$disconnect();
server.kill("SIGTERM");
await new Promise((resolve) => server.once("exit", resolve));
await postgres.stop();
rmSync(dataDir, { recursive: true, force: true });
