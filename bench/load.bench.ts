// Benchmark: load. autocannon at BENCH_CONNECTIONS connections for BENCH_DURATION_S seconds
// per phase against a real svc in its own process (HTTP + workers, as `npm start` runs it)
// on an embedded PostgreSQL, seeded with a tenant, BENCH_USERS users with about 6000
// samples each (two weeks of a watch and a phone: heart rate, steps, energy, sleep, blood
// pressure) and one upload user per two connections.
//   a. reads: GET users list, samples by type and window, daily, sleep, connections, FHIR
//      Observation search and sync runs, with the tenant key and with user tokens (read)
//   b. uploads: small gzip NDJSON bodies to apple-health and health-connect, each with a
//      new Idempotency-Key (about one in 20 repeats the connection's previous upload)
//   c. both at once, half of the connections each
// Per phase: requests/s, latency percentiles, status counts, and the server's RSS and heap
// sampled every second, and after an upload phase how long the ETL backlog takes to drain
// (waiting up to 300 s). Asserts nothing, but exits 1 when any answer was a 5xx other than
// 503 (or the server died), so a run shows failure. 429 and 503 are the server's designed
// answers to too much at once (uploads in flight per user, no database connection): counted
// apart. Rate limits (SVC_RATE_LIMIT_*) are off in phases a, b and c: they measure throughput.
//   a2. the reads of a again on a server restarted with rate limiting active: the default
//      window, limits raised above the offered load so the limiter counts every call but
//      refuses none (its cost is measured, not its refusals), after 5 s of unmeasured warm-up
//   npm run bench -- load                    (BENCH_CONNECTIONS=200, BENCH_DURATION_S=60)
//   BENCH_DURATION_S=10 npm run bench -- load   (a quick run)
//   BENCH_PHASES=a,a2 npm run bench -- load     (some phases only; default a,a2,b,c)
//   BENCH_SERVER_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" ...   (node options of the server)
//   BENCH_PG_STATS=1 ...   (after each phase, the statements that took most database time, from pg_stat_statements)
import { type ChildProcess, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { chmodSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { gzipSync } from "node:zlib";
import autocannon from "autocannon";
import pg from "pg";
import { createTenant } from "@svc/core";
import { applyMigrations, createDatabase } from "@svc/db";
import { openBenchPostgres, printTopStatements, resetStatements } from "./pg-stats.ts";
import { EnvSchema } from "../apps/server/src/env.ts";

const duration = Number(process.env.BENCH_DURATION_S ?? 60);
/** How long after an upload phase the bench waits for the ETL backlog to drain (the issue's target: 60 s). */
const BACKLOG_WAIT_S = 300;
const connections = Number(process.env.BENCH_CONNECTIONS ?? 200);
const readUserCount = Number(process.env.BENCH_USERS ?? 20);
// Two connections per upload user: under the 4 uploads in flight a user may have, so the
// bench measures throughput, not the limit's 429.
const uploadUserCount = Math.ceil(connections / 2);
// Latency is measured up to this; a request unanswered by then is counted as a timeout.
const TIMEOUT_S = 30;
const DAYS = 14;
const DAY_MS = 86_400_000;
const MB = 1024 * 1024;

// ---- The database, the tenant and the server ------------------------------------------
const dataDir = mkdtempSync(path.join(tmpdir(), "svc-bench-"));
chmodSync(dataDir, 0o755);
const postgres = await openBenchPostgres(path.join(dataDir, "postgres"));
await applyMigrations(postgres.url);
const db = createDatabase(postgres.url, { max: 1 });
const { api_key: tenantKey } = await createTenant(db, "bench");
await db.$disconnect();
const sql = new pg.Client({ connectionString: postgres.url });
await sql.connect();
await resetStatements(sql);

// Every rate limit off (0), whichever this build has.
const rateLimitsOff = Object.fromEntries(Object.keys(EnvSchema.shape).filter((name) => name.startsWith("SVC_RATE_LIMIT_")).map((name) => [name, "0"]));
// Rate limiting active: the default window, limits far above what the bench offers.
const rateLimitsRaised = { SVC_RATE_LIMIT_TENANT: "100000000", SVC_RATE_LIMIT_USER: "100000000" };
const phases = new Set((process.env.BENCH_PHASES ?? "a,a2,b,c").split(","));
const serverArgs = (process.env.BENCH_SERVER_ARGS ?? "").split(" ").filter(Boolean);
// Answers the bench's "memory" messages with the server's process.memoryUsage().
const memoryProbe = `data:text/javascript,process.on("message", (m) => { if (m === "memory") process.send(process.memoryUsage()); });`;

// The server's error lines (a 5xx logs one) are counted, a few kept.
const serverErrors = { count: 0, first: [] as string[] };
let server: ChildProcess;
let serverPid: number;
let serverExited: string | undefined;
let url = "";

/** Starts svc as `npm start` runs it, with these rate limit settings, and waits for its address. */
async function startServer(rateLimits: Record<string, string>): Promise<void> {
  serverExited = undefined;
  server = spawn(process.execPath, [...serverArgs, "--import", memoryProbe, path.resolve(import.meta.dirname, "../apps/server/src/main.ts")], {
    env: {
      ...process.env,
      ...rateLimits,
      DATABASE_URL: postgres.url,
      SVC_DATA_DIR: dataDir,
      PORT: "0",
      SVC_HOST: "127.0.0.1",
      SVC_LOG_LEVEL: "info",
    },
    stdio: ["ignore", "pipe", "inherit", "ipc"],
  });
  serverPid = server.pid!;
  server.once("exit", (code, signal) => (serverExited = `server exited (${signal ?? code})`));
  url = await new Promise<string>((resolve, reject) => {
    server.once("exit", (code) => reject(new Error(`server exited with ${code}`)));
    createInterface({ input: server.stdout! }).on("line", (line) => {
      const started = /"url":"(http:\/\/127\.0\.0\.1:\d+)","msg":"svc started"/.exec(line);
      if (started) resolve(started[1]!);
      if (!/"level":(50|60)/.test(line)) return;
      serverErrors.count++;
      if (serverErrors.first.length < 5) serverErrors.first.push(line.slice(0, 600));
    });
  });
}

async function stopServer(): Promise<void> {
  server.kill("SIGTERM");
  await new Promise((resolve) => (serverExited ? resolve(undefined) : server.once("exit", resolve)));
}

await startServer(rateLimitsOff);

const load = () => loadavg().map((l) => l.toFixed(1)).join(" ");
console.log(
  `svc load benchmark: ${connections} connections, ${duration} s per phase, server in its own process, embedded PostgreSQL, Node ${process.version}, ${cpus().length} CPUs, load ${load()}`,
);
console.log(`rate limits off except in a2: ${Object.keys(rateLimitsOff).join(", ") || "(none in this build)"}\n`);

// ---- Helpers --------------------------------------------------------------------------
async function api(pathName: string, body: unknown): Promise<any> {
  const response = await fetch(`${url}${pathName}`, {
    method: "POST",
    headers: { authorization: `Bearer ${tenantKey}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${pathName}: ${response.status} ${await response.text()}`);
  return response.json();
}

async function newUser(scopes: string[][]): Promise<{ id: string; tokens: string[] }> {
  const { id } = await api("/v1/users", {});
  const tokens: string[] = [];
  for (const s of scopes) tokens.push((await api(`/v1/users/${id}/tokens`, { scopes: s, ttl_seconds: 86_400 })).token);
  return { id, tokens };
}

const iso = (ms: number) => new Date(ms).toISOString();
const day = (ms: number) => iso(ms).slice(0, 10);
const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;

/** The server's RSS (from /proc, exact each second) and heap (its own answer, when its event loop gets to it). */
function trackServerMemory() {
  const rss: number[] = [];
  const heap: number[] = [];
  const onMessage = (m: NodeJS.MemoryUsage) => heap.push(m.heapUsed);
  server.on("message", onMessage);
  const sample = () => {
    if (serverExited) return;
    const status = readFileSync(`/proc/${serverPid}/status`, "utf8");
    rss.push(Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024);
    server.send("memory");
  };
  sample();
  const timer = setInterval(sample, 1000);
  return {
    stop() {
      clearInterval(timer);
      server.off("message", onMessage);
      return { rss, heap };
    },
  };
}

const mb = (bytes: number | undefined) => `${((bytes ?? 0) / MB).toFixed(0)} MB`;
const line = (label: string, value: string) => console.log(`  ${label.padEnd(22)} ${value}`);

function memoryLine(label: string, values: number[]) {
  const at = (q: number) => mb(values[Math.max(0, Math.ceil(values.length * q) - 1)]);
  line(label, `start ${mb(values[0])}, max ${mb(Math.max(...values))}, end ${mb(values.at(-1))}; at 25/50/75/100%: ${[0.25, 0.5, 0.75, 1].map(at).join(" ")}`);
}

/**
 * Status counts of a run: 2xx, each 4xx and 5xx code; returns the number of 5xx failures.
 * A 503 (with Retry-After: the server shedding load, e.g. no database connection) is a
 * designed answer like 429, listed apart and not counted as a failure.
 */
function statusLine(result: autocannon.Result): number {
  const codes = Object.entries(result.statusCodeStats ?? {})
    .map(([code, stats]) => [Number(code), stats.count ?? 0] as const)
    .sort(([a], [b]) => a - b);
  const inClass = (from: number) => codes.filter(([code]) => code >= from && code < from + 100);
  const count = (from: number) => inClass(from).reduce((n, [, c]) => n + c, 0);
  const listed = (from: number) => inClass(from).map(([code, c]) => `${code}: ${c}`);
  const shed = codes.find(([code]) => code === 503)?.[1] ?? 0;
  const fiveXx = count(500) - shed;
  line("status", `2xx ${count(200)}; 4xx ${count(400)}${count(400) ? ` (${listed(400).join(", ")})` : ""}; 503 ${shed}`);
  line("5xx", `${fiveXx}${fiveXx ? ` (${listed(500).join(", ")})` : ""}`);
  line("errors / timeouts", `${result.errors} / ${result.timeouts} (connection errors; a timeout is no answer within ${TIMEOUT_S} s)`);
  return fiveXx;
}

function resultLines(result: autocannon.Result): number {
  const l = result.latency;
  line("requests/s", `${result.requests.average.toFixed(0)} (${result.requests.total} in ${result.duration.toFixed(0)} s)`);
  line("latency", `p50 ${l.p50} ms, p90 ${l.p90} ms, p99 ${l.p99} ms, max ${l.max} ms`);
  return statusLine(result);
}

async function pendingRawObjects(): Promise<number> {
  const { rows } = await sql.query("SELECT count(*)::int AS n FROM raw_objects WHERE status IN ('pending', 'receiving')");
  return rows[0].n;
}

/** After a phase: how long until no upload waits for the ETL (seconds), or null when it took longer than `limitS`. */
async function backlogDrained(limitS: number): Promise<number | null> {
  const started = performance.now();
  while (performance.now() - started < limitS * 1000) {
    if ((await pendingRawObjects()) === 0) return (performance.now() - started) / 1000;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return null;
}

// ---- Seed -----------------------------------------------------------------------------
// Two weeks up to today's midnight (UTC): the watch's heart rate every 5 minutes, steps and
// active energy every 15 minutes of the 16 waking hours, a night's sleep in five phases and
// a blood pressure reading a day.
const seedEnd = Math.floor(Date.now() / DAY_MS) * DAY_MS;
const seedStart = seedEnd - DAYS * DAY_MS;
const watch = { source: { name: "Apple Watch", bundle_id: "com.apple.health.watch" }, device: { name: "Apple Watch", manufacturer: "Apple Inc.", model: "Watch", hardware_version: "Watch7,1" } };
const phone = { source: { name: "iPhone", bundle_id: "com.apple.health.phone" }, device: { name: "iPhone", manufacturer: "Apple Inc.", model: "iPhone", hardware_version: "iPhone15,4" } };

function quantity(type: string, value: number, unit: string, start: number, end: number, from = watch) {
  return { kind: "quantity", uuid: randomUUID(), type: `HKQuantityTypeIdentifier${type}`, value, unit, start: iso(start), end: iso(end), timezone: "Europe/Berlin", ...from };
}

function seedLines(): string[] {
  const lines: object[] = [];
  for (let t = seedStart; t < seedEnd; t += 5 * 60_000) lines.push(quantity("HeartRate", 50 + Math.round(Math.random() * 60), "count/min", t, t));
  for (let d = seedStart; d < seedEnd; d += DAY_MS) {
    for (let t = d + 7 * 3_600_000; t < d + 23 * 3_600_000; t += 15 * 60_000) {
      lines.push(quantity("StepCount", Math.round(Math.random() * 1500), "count", t, t + 15 * 60_000, phone));
      lines.push(quantity("ActiveEnergyBurned", Math.round(Math.random() * 80), "kcal", t, t + 15 * 60_000));
    }
    const bedtime = d - 1.5 * 3_600_000;
    [3, 4, 5, 3, 2].forEach((stage, i) => {
      const start = bedtime + i * 1.5 * 3_600_000;
      lines.push({ kind: "category", uuid: randomUUID(), type: "HKCategoryTypeIdentifierSleepAnalysis", value: stage, start: iso(start), end: iso(start + 1.5 * 3_600_000), ...watch });
    });
    const at = d + 8 * 3_600_000;
    lines.push({
      kind: "correlation",
      uuid: randomUUID(),
      type: "HKCorrelationTypeIdentifierBloodPressure",
      start: iso(at),
      end: iso(at),
      ...phone,
      objects: [
        { type: "HKQuantityTypeIdentifierBloodPressureSystolic", uuid: randomUUID(), value: 110 + Math.round(Math.random() * 20), unit: "mmHg" },
        { type: "HKQuantityTypeIdentifierBloodPressureDiastolic", uuid: randomUUID(), value: 70 + Math.round(Math.random() * 15), unit: "mmHg" },
      ],
    });
  }
  return lines.map((l) => JSON.stringify(l));
}

let seeding = performance.now();
const readUsers: Array<{ id: string; readToken: string }> = [];
for (let i = 0; i < readUserCount; i++) {
  const { id, tokens } = await newUser([["upload"], ["read"]]);
  const response = await fetch(`${url}/v1/ingest/apple-health`, {
    method: "POST",
    headers: { authorization: `Bearer ${tokens[0]}`, "content-type": "application/x-ndjson", "content-encoding": "gzip" },
    body: gzipSync(seedLines().join("\n")),
  });
  if (response.status !== 202) throw new Error(`seed upload: ${response.status} ${await response.text()}`);
  readUsers.push({ id, readToken: tokens[1]! });
}
const uploadTokens: string[] = [];
for (let i = 0; i < uploadUserCount; i++) uploadTokens.push((await newUser([["upload"]])).tokens[0]!);
while ((await pendingRawObjects()) > 0) await new Promise((resolve) => setTimeout(resolve, 200));
const { rows: seeded } = await sql.query(
  `SELECT (SELECT count(*) FROM quantity_samples)::int AS samples, (SELECT count(*) FROM sleep_sessions)::int AS sleep,
          (SELECT count(*) FROM daily_summaries)::int AS daily, (SELECT count(*) FROM raw_objects WHERE status <> 'processed')::int AS failed`,
);
console.log(
  `seeded in ${((performance.now() - seeding) / 1000).toFixed(0)} s: ${readUserCount} users with ${seeded[0].samples} quantity samples, ${seeded[0].sleep} sleep sessions, ${seeded[0].daily} daily summaries (${seeded[0].failed} seed uploads not processed); ${uploadUserCount} upload users\n`,
);

// ---- The requests ---------------------------------------------------------------------
/** A random window of `days` days inside the seeded two weeks. */
function window(days: number): string {
  const start = seedStart + Math.floor(Math.random() * (DAYS - days + 1)) * DAY_MS;
  return `start=${day(start)}&end=${day(start + days * DAY_MS)}`;
}

// Each read: a path, and whether a user token (scope read) of the user may make it.
const READS: Array<(userId: string) => { path: string; userToken: boolean }> = [
  () => ({ path: "/v1/users?limit=100", userToken: false }),
  (id) => ({ path: `/v1/users/${id}/samples?type=heart_rate&${window(1)}`, userToken: true }),
  (id) => ({ path: `/v1/users/${id}/samples?type=step_count&${window(7)}`, userToken: true }),
  (id) => ({ path: `/v1/users/${id}/daily?${window(14)}`, userToken: true }),
  (id) => ({ path: `/v1/users/${id}/sleep?${window(7)}`, userToken: true }),
  (id) => ({ path: `/v1/users/${id}/connections`, userToken: false }),
  (id) => ({ path: `/v1/users/${id}/fhir/Observation?${window(1)}`, userToken: false }),
  (id) => ({ path: `/v1/users/${id}/fhir/Observation?category=vital-signs&${window(3)}`, userToken: false }),
  (id) => ({ path: `/v1/users/${id}/sync-runs`, userToken: false }),
];

// Each read once, in turn, as the tenant: its answer's size and time (without load).
console.log("the reads, each once without load:");
for (const read of READS) {
  const { path: readPath } = read(readUsers[0]!.id);
  const started = performance.now();
  const response = await fetch(`${url}${readPath}`, { headers: { authorization: `Bearer ${tenantKey}` } });
  const bytes = (await response.arrayBuffer()).byteLength;
  line(`${response.status} ${(bytes / 1024).toFixed(0).padStart(5)} KB ${(performance.now() - started).toFixed(0).padStart(4)} ms`, readPath.replace(readUsers[0]!.id, "{id}"));
}
console.log();

function readRequest(request: any) {
  const user = pick(readUsers);
  const read = pick(READS)(user.id);
  // Half of the reads a user token may make are made with one.
  const secret = read.userToken && Math.random() < 0.5 ? user.readToken : tenantKey;
  return { ...request, method: "GET", path: read.path, headers: { ...request.headers, authorization: `Bearer ${secret}` } };
}

function appleHealthBody(): Buffer {
  const now = Date.now();
  const lines = Array.from({ length: 10 }, (_, i) =>
    i % 2 ? quantity("HeartRate", 60 + i, "count/min", now - i * 60_000, now - i * 60_000) : quantity("StepCount", 20 + i, "count", now - (i + 1) * 60_000, now - i * 60_000, phone),
  );
  return gzipSync(lines.map((l) => JSON.stringify(l)).join("\n"));
}

function healthConnectBody(): Buffer {
  const now = Date.now();
  const origin = { dataOrigin: "com.google.android.apps.fitness" };
  const lines = Array.from({ length: 10 }, (_, i) =>
    i % 2
      ? { recordType: "HeartRate", metadata: { id: randomUUID(), ...origin }, startTime: iso(now - i * 60_000), endTime: iso(now - i * 60_000 + 1000), samples: [{ time: iso(now - i * 60_000), beatsPerMinute: 60 + i }] }
      : { recordType: "Steps", metadata: { id: randomUUID(), ...origin }, startTime: iso(now - (i + 1) * 60_000), endTime: iso(now - i * 60_000), count: 20 + i },
  );
  return gzipSync(lines.map((l) => JSON.stringify(l)).join("\n"));
}

let replays = 0;
let connectionSlot = 0;

/** Each upload connection sends as one upload user, alternating the two routes; about one in 20 uploads repeats its previous one. */
function setupUploadClient(client: autocannon.Client) {
  const token = uploadTokens[connectionSlot++ % uploadTokens.length]!;
  let sent = 0;
  let previous: { path: string; key: string; body: Buffer } | undefined;
  client.setRequests([
    {
      method: "POST",
      setupRequest: (request: any) => {
        sent++;
        const repeat = previous !== undefined && Math.random() < 0.05;
        if (!repeat) {
          const apple = sent % 2 === 0;
          previous = { path: apple ? "/v1/ingest/apple-health" : "/v1/ingest/health-connect", key: randomUUID(), body: apple ? appleHealthBody() : healthConnectBody() };
        }
        const { path: uploadPath, key, body } = previous!;
        return {
          ...request,
          path: uploadPath,
          body,
          headers: { ...request.headers, authorization: `Bearer ${token}`, "content-type": "application/x-ndjson", "content-encoding": "gzip", "idempotency-key": key },
        };
      },
      // Header names as the server wrote them.
      onResponse: (_status: number, _body: string, _context: unknown, headers: Record<string, string>) => {
        if (Object.entries(headers).some(([name, value]) => name.toLowerCase() === "idempotent-replayed" && value === "true")) replays++;
      },
    },
  ] as any);
}

const readOptions = (count: number): autocannon.Options => ({ url, connections: count, duration, timeout: TIMEOUT_S, requests: [{ setupRequest: readRequest }] });
const uploadOptions = (count: number): autocannon.Options => ({ url, connections: count, duration, timeout: TIMEOUT_S, setupClient: setupUploadClient });

// ---- Phases ---------------------------------------------------------------------------
let total5xx = 0;

async function phase(title: string, runs: Array<{ name: string; options: autocannon.Options }>) {
  console.log(title);
  await resetStatements(sql);
  const errorsBefore = serverErrors.count;
  replays = 0;
  const memory = trackServerMemory();
  const results = await Promise.all(runs.map((run) => autocannon(run.options)));
  const { rss, heap } = memory.stop();
  runs.forEach((run, i) => {
    if (runs.length > 1) console.log(` ${run.name}`);
    total5xx += resultLines(results[i]!);
  });
  if (runs.some((run) => run.name === "uploads")) line("idempotent replays", `${replays} (202 with Idempotent-Replayed: true)`);
  line("server error logs", String(serverErrors.count - errorsBefore));
  memoryLine("server RSS", rss);
  memoryLine("server heap used", heap);
  const backlog = await pendingRawObjects();
  line("ETL backlog", `${backlog} uploads not yet processed at the end`);
  if (backlog > 0) {
    const drained = await backlogDrained(BACKLOG_WAIT_S);
    line("backlog drained", drained === null ? `not within ${BACKLOG_WAIT_S} s (${await pendingRawObjects()} left)` : `${drained.toFixed(1)} s after the phase ended`);
  }
  if (serverExited) console.log(`  ${serverExited}`);
  await printTopStatements(sql);
  console.log();
}

if (phases.has("a")) await phase(`a. reads: ${connections} connections, ${duration} s`, [{ name: "reads", options: readOptions(connections) }]);
if (phases.has("a2")) {
  await stopServer();
  await startServer(rateLimitsRaised);
  // Unmeasured: a server just started compiles its hot paths first.
  await autocannon({ ...readOptions(connections), duration: 5 });
  await phase(`a2. reads, rate limiting active (limits raised above the load): ${connections} connections, ${duration} s`, [
    { name: "reads", options: readOptions(connections) },
  ]);
  await stopServer();
  await startServer(rateLimitsOff);
}
if (phases.has("b")) await phase(`b. uploads: ${connections} connections, ${duration} s`, [{ name: "uploads", options: uploadOptions(connections) }]);
const half = Math.floor(connections / 2);
if (phases.has("c")) {
  await phase(`c. reads and uploads at once: ${half} + ${connections - half} connections, ${duration} s`, [
    { name: "reads", options: readOptions(half) },
    { name: "uploads", options: uploadOptions(connections - half) },
  ]);
}

if (serverErrors.first.length > 0) console.log(`first server error lines:\n  ${serverErrors.first.join("\n  ")}\n`);
console.log(`5xx (other than 503): ${total5xx} over the whole run${serverExited ? `; ${serverExited}` : ""}; load ${load()}`);
if (total5xx > 0 || serverExited) process.exitCode = 1;

await sql.end();
await stopServer();
await postgres.stop();
rmSync(dataDir, { recursive: true, force: true });
