// Benchmark: a FHIR Bulk Data export of one user with 10 million heart-rate samples (a watch
// every 5 s and a phone every 50 s, so the merged view has work to do), in a real embedded
// PostgreSQL. The export runs in a process of its own (bench/export-process.ts: the job's
// runFhirExport into a file raw store), which reports its resources per second and its peak
// RSS, twice: with V8's default young generation, and with the one the etl thread of
// SVC_ROLE=all runs jobs with. Beside them, the physical reference: a plain COPY (SELECT …) TO
// STDOUT of the same samples. Targets: >= 50,000 resources/s, <= 300 MB RSS. Prints figures;
// asserts nothing.
//   npm run bench -- export
//   BENCH_BIG_SAMPLES=1000000 npm run bench -- export    (a quicker, smaller run)
//   BENCH_CPU_PROF=1 ...   (the exporting process writes a .cpuprofile into the current folder)
//   BENCH_PG_STATS=1 ...   (the statements of the export that took most database time)
//   BENCH_MEM_TRACE=1 ...  (the exporting process prints its memory and V8's heap spaces every second)
import { spawn } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { to as copyTo } from "pg-copy-streams";
import { createTenant, createUser } from "@svc/core";
import { openBenchDatabase } from "./bench-database.ts";
import { insertHeartRateSeries, type HeartRateSeries } from "./heart-rate-series.ts";
import { printTopStatements, resetStatements } from "./pg-stats.ts";

const bigSamples = Number(process.env.BENCH_BIG_SAMPLES ?? 10_000_000);
const WATCH_STEP_S = 5;
const PHONE_STEP_S = 50;
const origin = Date.parse("2025-01-01T00:00:00Z");

const { db, sql, postgres, dataDir, close } = await openBenchDatabase();
console.log(`svc FHIR export benchmark: embedded PostgreSQL, Node ${process.version}, ${bigSamples} samples of one user\n`);

// ---- Load -------------------------------------------------------------------------
const { tenant_id: tenantId } = await createTenant(db, "bench");
const userId = (await createUser(db, tenantId, "big")).id;
const phoneSamples = Math.round(bigSamples / 10);
const series: HeartRateSeries[] = [
  { userId, provider: "garmin", source: "garmin", device: "Forerunner 965", onBody: true, count: bigSamples - phoneSamples, stepSeconds: WATCH_STEP_S },
  { userId, provider: "apple_health", source: "apple", device: "iPhone", onBody: false, count: phoneSamples, stepSeconds: PHONE_STEP_S },
];
const loadStarted = performance.now();
for (const s of series) await insertHeartRateSeries(sql, s, origin);
for (const table of ["quantity_sample_series", "quantity_sample_chunks", "quantity_sample_streams"]) await sql.query(`VACUUM ANALYZE ${table}`);
console.log(`loaded ${bigSamples} samples in ${((performance.now() - loadStarted) / 1000).toFixed(0)} s`);

// ---- The export, in its own process --------------------------------------------------------
interface ExportRun {
  seconds: number;
  state: string;
  resources: number;
  files: number;
  bytes: number;
  maxRssBytes: number;
  peak: { heapUsed: number; external: number; arrayBuffers: number };
}

const rawDir = path.join(dataDir, "raw");

/** One export of the user by the job's own runFhirExport in a process of its own, started with `nodeFlags`; its files are removed after. */
async function runExport(nodeFlags: string[]): Promise<ExportRun> {
  const { rows } = await sql.query<{ id: string }>(
    `INSERT INTO fhir_exports (tenant_id, user_id, resource_types, transaction_time, request_url)
     VALUES ($1, $2, ARRAY['Patient', 'Observation'], now(), $3) RETURNING id`,
    [tenantId, userId, `http://127.0.0.1:8080/v1/fhir/Patient/${userId}/$export`],
  );
  mkdirSync(rawDir, { recursive: true });
  const child = spawn(
    process.execPath,
    [...nodeFlags, ...(process.env.BENCH_CPU_PROF ? ["--cpu-prof"] : []), path.join(import.meta.dirname, "export-process.ts")],
    { env: { ...process.env, DATABASE_URL: postgres.url, BENCH_EXPORT_ID: rows[0]!.id, BENCH_RAW_DIR: rawDir }, stdio: ["ignore", "pipe", "inherit"] },
  );
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  if (code !== 0) throw new Error(`the exporting process exited with ${code}`);
  rmSync(rawDir, { recursive: true, force: true });
  return JSON.parse(output.trim().split("\n").at(-1)!) as ExportRun;
}

const perSecond = (count: number, seconds: number) => Math.round(count / seconds).toLocaleString("en");
const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(0);
const describeRun = (label: string, run: ExportRun) =>
  `export, ${label} (${run.state}): ${run.resources.toLocaleString("en")} resources in ${run.files} files, ${(run.bytes / 1e9).toFixed(2)} GB, ` +
  `${run.seconds.toFixed(1)} s: ${perSecond(run.resources, run.seconds)} resources/s (target >= 50,000); peak RSS ${mb(run.maxRssBytes)} MB ` +
  `(target <= 300; peak JS heap ${mb(run.peak.heapUsed)} MB, buffers ${mb(run.peak.arrayBuffers)} MB)`;

await resetStatements(sql);
const defaults = await runExport([]);
await printTopStatements(sql);
// The young generation the etl thread of SVC_ROLE=all runs its jobs with (apps/server/src/etl-thread.ts,
// 48 MB: semi-spaces of 16 MB); V8's default on a machine with a large heap limit grows to 2 x 64 MB.
const capped = await runExport(["--max-semi-space-size=16"]);

// ---- The physical reference: every sample of the user, one text row each ------------------
const referenceStarted = performance.now();
let referenceRows = 0;
let referenceBytes = 0;
await pipeline(
  sql.query(
    copyTo(`COPY (
      SELECT c.chunk_id * 8192 + o.n - 1 AS id, s.type, s.unit, s.provider, s.source, s.device,
        c.hour + make_interval(secs => o.offset_ms / 1000.0) AS start_date, v.value, v.ingested_at
      FROM quantity_sample_chunks c
      JOIN quantity_sample_series s ON s.user_id = c.user_id AND s.id = c.series_id,
        unnest(c.start_offsets) WITH ORDINALITY o(offset_ms, n),
        LATERAL (SELECT c.sample_values[o.n] AS value, c.ingested_at[o.n] AS ingested_at) v
      WHERE c.user_id = '${userId}'
      ORDER BY c.hour, c.chunk_id, o.n) TO STDOUT`),
  ),
  new Writable({
    write(chunk: Buffer, _encoding, done) {
      referenceBytes += chunk.length;
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) referenceRows++;
      done();
    },
  }),
);
const referenceSeconds = (performance.now() - referenceStarted) / 1000;

console.log(`\n${describeRun("V8's default young generation", defaults)}`);
console.log(describeRun("the etl thread's young generation (--max-semi-space-size=16)", capped));
console.log(`reference COPY … TO STDOUT of the samples: ${referenceRows.toLocaleString("en")} rows, ${(referenceBytes / 1e9).toFixed(2)} GB, ` +
  `${referenceSeconds.toFixed(1)} s: ${perSecond(referenceRows, referenceSeconds)} rows/s; the export takes ${(defaults.seconds / referenceSeconds).toFixed(1)}x its time`);
await close();
