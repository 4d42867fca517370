// Benchmark: POST /v1/users and GET /v1/users/{id} under autocannon (50 connections) against
// a real svc on an embedded PostgreSQL, side by side with its physical reference: a minimal
// node:http + pg server (bench/reference-server.ts) doing the same two queries (tenant key by
// hash, user read) on the same database, under the same load; and the user read alone as
// direct SQL. GET runs twice: one tenant with svc's rate limits off, then the load spread over
// 20 tenants with svc's default rate limits on (they refuse nothing at this rate, but count).
// Then a page of 100 heart rate samples (GET /v1/users/{id}/samples, the default merged
// view of one stream) beside the reference server reading the first 100 rows of a narrow
// table of the same samples, spread over the 20 tenants with default limits.
// Each svc run after a (re)start follows a few seconds of the same load, not measured.
// Prints figures and the ratios; asserts nothing.
//   node bench/users.bench.ts            (BENCH_SECONDS=10 by default)
//   BENCH_SERVER_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" node bench/users.bench.ts   (node options of svc)
//   BENCH_PHASES=samples node bench/users.bench.ts   (some of: one, spread, samples; all by default)
//   BENCH_PG_STATS=1 ...   (after the samples run, the statements that took most database time)
import { type ChildProcessByStdio, spawn } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Readable } from "node:stream";
import autocannon from "autocannon";
import pg from "pg";
import { createTenant, createUser, writeQuantitySamples } from "@svc/core";
import { applyMigrations, createDatabase } from "@svc/db";
import { openBenchPostgres, printTopStatements, resetStatements } from "./pg-stats.ts";

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = 50;
const TENANTS = 20;
const WARM_UP_SECONDS = 3;
const phases = new Set((process.env.BENCH_PHASES ?? "one,spread,samples").split(","));

// The database and the load generator live here; each server runs in its own process, as
// `npm start` runs svc, so the load generator does not share its event loop.
const dataDir = mkdtempSync(path.join(tmpdir(), "svc-bench-"));
chmodSync(dataDir, 0o755);
const postgres = await openBenchPostgres(path.join(dataDir, "postgres"));
await applyMigrations(postgres.url);
const db = createDatabase(postgres.url, { max: 2 });
const callers: Array<{ key: string; tenantId: string; userId: string }> = [];
for (let i = 0; i < TENANTS; i++) {
  const { api_key: key, tenant_id: tenantId } = await createTenant(db, `bench-${i}`);
  callers.push({ key, tenantId, userId: (await createUser(db, tenantId, undefined)).id });
}
const [first] = callers as [(typeof callers)[number]];

// Two days of heart rate, a sample a minute, for each caller's user, and the same samples in
// the reference's narrow table.
const SAMPLES_PER_USER = 2880;
const samplesFrom = Math.floor(Date.now() / 60_000) * 60_000 - SAMPLES_PER_USER * 60_000;
for (const caller of callers) {
  const records = Array.from({ length: SAMPLES_PER_USER }, (_, i) => ({ type: "heart_rate", value: 55 + (i % 60), start_date: new Date(samplesFrom + i * 60_000), source: "watch" }));
  await db.$transaction((tx) => writeQuantitySamples(tx, { userId: caller.userId, provider: "apple_health" }, records), { timeout: 120_000 });
}
const sql = new pg.Client({ connectionString: postgres.url });
await sql.connect();
await sql.query(`CREATE TABLE bench_reference_samples (id bigint, user_id uuid, start_date timestamptz, end_date timestamptz, value float8, PRIMARY KEY (user_id, start_date, id))`);
await sql.query(`INSERT INTO bench_reference_samples SELECT id, user_id, start_date, end_date, value FROM quantity_samples`);
await sql.query("VACUUM ANALYZE bench_reference_samples");
const headers = { authorization: `Bearer ${first.key}`, "content-type": "application/json" };

type Server = { url: string; process: ChildProcessByStdio<null, Readable, null> };

/** Starts a server process and waits for the line that gives its URL. */
function start(script: string, env: NodeJS.ProcessEnv, started: RegExp, nodeArgs: string[] = []): Promise<Server> {
  const child = spawn(process.execPath, [...nodeArgs, path.resolve(import.meta.dirname, script)], { env, stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`${script} exited with ${code}`)));
    let buffered = "";
    child.stdout.on("data", (chunk: Buffer) => {
      buffered += chunk.toString();
      const match = started.exec(buffered);
      if (match) {
        child.stdout.removeAllListeners("data");
        child.stdout.resume();
        resolve({ url: match[1]!, process: child });
      }
    });
  });
}

/** svc as `npm start` runs it; `limits` false turns its rate limits off, true keeps the defaults. */
function startSvc(limits: boolean): Promise<Server> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: postgres.url, PORT: "0", SVC_HOST: "127.0.0.1", SVC_LOG_LEVEL: "info" };
  for (const name of ["SVC_RATE_LIMIT_TENANT", "SVC_RATE_LIMIT_USER", "SVC_RATE_LIMIT_WINDOW_SECONDS"]) delete env[name];
  if (!limits) env.SVC_RATE_LIMIT_WINDOW_SECONDS = "0";
  const nodeArgs = (process.env.BENCH_SERVER_ARGS ?? "").split(" ").filter(Boolean);
  return start("../apps/server/src/main.ts", env, /"url":"(http:\/\/127\.0\.0\.1:\d+)","msg":"svc started"/, nodeArgs);
}

async function stop(server: Server) {
  server.process.removeAllListeners("exit");
  server.process.kill("SIGTERM");
  await new Promise((resolve) => server.process.once("exit", resolve));
}

/** A few seconds of the same load, not measured: a server just started compiles its hot paths first. */
async function warmUp(url: string, options: Partial<autocannon.Options> = {}) {
  await autocannon({ url, connections, duration: WARM_UP_SECONDS, headers, ...options });
}

async function load(title: string, url: string, options: Partial<autocannon.Options> = {}) {
  const result = await autocannon({ url, connections, duration: seconds, headers, ...options });
  const errors = result.non2xx + result.errors;
  if (errors > 0) console.log("  status codes:", result.statusCodeStats);
  console.log(
    `${title.padEnd(44)} ${result.requests.average.toFixed(0).padStart(7)} req/s   p50 ${String(result.latency.p50).padStart(4)} ms   p99 ${String(result.latency.p99).padStart(4)} ms   non-2xx/errors ${errors}`,
  );
  return result.requests.average;
}

/** Each request reads `path` of the next tenant's user in turn, with that tenant's key. */
const overTenants = (pathOf: (userId: string) => string): Partial<autocannon.Options> => {
  let next = 0;
  return {
    requests: [
      {
        setupRequest: (request) => {
          const caller = callers[next++ % TENANTS]!;
          return { ...request, path: pathOf(caller.userId), headers: { ...headers, authorization: `Bearer ${caller.key}` } };
        },
      },
    ],
  };
};
const spreadOverTenants = () => overTenants((userId) => `/v1/users/${userId}`);
const samplesOverTenants = () => overTenants((userId) => `/v1/users/${userId}/samples?type=heart_rate&limit=100`);

const ratio = (svcRate: number, referenceRate: number) => `${(svcRate / referenceRate).toFixed(2)}x`;

/** The user read alone as one SQL query per request over a pool, 50 at a time; returns queries per second. */
async function directUserReads(): Promise<number> {
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
          [first.userId, first.tenantId],
        );
        latencies.push(performance.now() - started);
        count++;
      }
    }),
  );
  await pool.end();
  latencies.sort((a, b) => a - b);
  const sqlRate = count / seconds;
  const pct = (p: number) => latencies[Math.floor((latencies.length - 1) * p)]!.toFixed(1);
  console.log(`${"the user read alone as direct SQL".padEnd(44)} ${sqlRate.toFixed(0).padStart(7)} q/s     p50 ${pct(0.5).padStart(4)} ms   p99 ${pct(0.99).padStart(4)} ms`);
  return sqlRate;
}

console.log(`svc benchmark: ${connections} connections, ${seconds} s each, embedded PostgreSQL, Node ${process.version}\n`);
const reference = await start("reference-server.ts", { ...process.env, DATABASE_URL: postgres.url }, /"url":"(http:\/\/127\.0\.0\.1:\d+)"/);

if (phases.has("one")) {
  const svc = await startSvc(false);
  await load("POST /v1/users (rate limits off)", `${svc.url}/v1/users`, { method: "POST", body: "{}" });
  const userPath = `/v1/users/${first.userId}`;
  const svcOne = await load("GET /v1/users/{id} svc (rate limits off)", `${svc.url}${userPath}`);
  const referenceOne = await load("GET /v1/users/{id} reference server", `${reference.url}${userPath}`);
  const sqlRate = await directUserReads();
  await stop(svc);
  console.log(`GET /v1/users/{id}, svc / reference server: ${ratio(svcOne, referenceOne)} (one tenant, limits off)`);
  console.log(`GET /v1/users/{id} reaches ${((svcOne / sqlRate) * 100).toFixed(0)}% of the direct SQL rate of the user read alone.\n`);
}

const svc = await startSvc(true);
if (phases.has("spread")) {
  await warmUp(`${svc.url}/`, spreadOverTenants());
  const svcSpread = await load(`GET /v1/users/{id} svc (default limits, ${TENANTS} tenants)`, `${svc.url}/`, spreadOverTenants());
  const referenceSpread = await load(`GET /v1/users/{id} reference (${TENANTS} tenants)`, `${reference.url}/`, spreadOverTenants());
  console.log(`GET /v1/users/{id}, svc / reference server: ${ratio(svcSpread, referenceSpread)} (${TENANTS} tenants, default limits)\n`);
}
if (phases.has("samples")) {
  await warmUp(`${svc.url}/`, samplesOverTenants());
  await warmUp(`${reference.url}/`, samplesOverTenants());
  await resetStatements(sql);
  const svcSamples = await load("GET samples, 100 a page, svc (default limits)", `${svc.url}/`, samplesOverTenants());
  await printTopStatements(sql);
  const referenceSamples = await load("GET samples, 100 a page, reference", `${reference.url}/`, samplesOverTenants());
  console.log(`GET /v1/users/{id}/samples (100 a page), svc / reference server: ${ratio(svcSamples, referenceSamples)} (${TENANTS} tenants, default limits)`);
}

await sql.end();
await db.$disconnect();
await stop(svc);
await stop(reference);
await postgres.stop();
rmSync(dataDir, { recursive: true, force: true });
