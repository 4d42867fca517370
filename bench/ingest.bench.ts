// Benchmark: Apple Health ingest end to end through the real service (HTTP + workers in this
// process, embedded PostgreSQL). Prints figures; asserts nothing.
//   1. An NDJSON upload of BENCH_SAMPLES quantity samples (gzip, one upload): from the first
//      byte sent until its raw object is processed (HTTP accept, raw store, check, ETL job,
//      rows), beside a COPY of the same samples into a minimal narrow table (the physical
//      reference) and a plain COPY of the very rows the ETL stored into the same table; and
//      what the upload left on disk: the database's growth, per table, and the raw store's.
//   2. A synthetic export.xml of about BENCH_EXPORT_MB megabytes, streamed from a file.
//   3. BENCH_SMALL_UPLOADS small uploads (about 4 KB each, 4 users at once): the time until
//      each is accepted (202), where the raw file's fsync (and its folder's) is paid.
// Each phase prints the peak RSS and heap of this process (sampled every 50 ms).
//   npm run bench -- ingest                 (BENCH_SAMPLES=1000000, BENCH_EXPORT_MB=200, BENCH_SMALL_UPLOADS=400)
//   BENCH_SAMPLES=100000 BENCH_EXPORT_MB=20 npm run bench -- ingest   (a quick run)
import { randomUUID } from "node:crypto";
import { chmodSync, createReadStream, createWriteStream, existsSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { request } from "node:http";
import { cpus, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGzip } from "node:zlib";
import pg from "pg";
import { from as copyFrom, to as copyTo } from "pg-copy-streams";
import { createTenant, refreshMergedSampleRollups } from "@svc/core";
import { createDatabase } from "@svc/db";
import { createLogger, EnvSchema, startService } from "../apps/server/src/index.ts";
import { allTableBytes, createNarrowTable, databaseBytes, tableBytes } from "./table-sizes.ts";
import { ms, pct } from "./timing.ts";

const sampleCount = Number(process.env.BENCH_SAMPLES ?? 1_000_000);
const exportBytes = Number(process.env.BENCH_EXPORT_MB ?? 200) * 1024 * 1024;
const smallUploads = Number(process.env.BENCH_SMALL_UPLOADS ?? 400);
const MB = 1024 * 1024;
const NARROW_TABLE = "bench_narrow_samples";

const dataDir = mkdtempSync(path.join(tmpdir(), "svc-bench-"));
chmodSync(dataDir, 0o755);
const logger = createLogger("warn");
const service = await startService(
  EnvSchema.parse({ PORT: "0", SVC_HOST: "127.0.0.1", SVC_DATA_DIR: dataDir, SVC_LOG_LEVEL: "warn" }),
  logger,
);
const url = service.url ?? "";
const sql = new pg.Client({ connectionString: service.databaseUrl });
await sql.connect();
const db = createDatabase(service.databaseUrl, { max: 1 });
const { api_key: apiKey } = await createTenant(db, "bench");
await db.$disconnect();

const load = () => loadavg().map((l) => l.toFixed(1)).join(" ");
console.log(
  `svc ingest benchmark: the service in-process (HTTP + ETL worker), embedded PostgreSQL, Node ${process.version}, ${cpus().length} CPUs (${cpus()[0]?.model ?? "?"}), load ${load()}\n`,
);

// ---- Helpers ------------------------------------------------------------------------
async function api(pathName: string, body: unknown): Promise<any> {
  const response = await fetch(`${url}${pathName}`, {
    method: "POST",
    headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${pathName}: ${response.status} ${await response.text()}`);
  return response.json();
}

/** A new user of the tenant and a token of it with scope upload. */
async function uploader(): Promise<{ userId: string; token: string }> {
  const { id } = await api("/v1/users", {});
  const { token } = await api(`/v1/users/${id}/tokens`, { scopes: ["upload"] });
  return { userId: id as string, token: token as string };
}

/** Peak RSS and heap of this process, sampled every 50 ms until stopped. */
function trackMemory() {
  const peak = { rss: 0, heapUsed: 0, rssBefore: process.memoryUsage().rss };
  const sample = () => {
    const m = process.memoryUsage();
    peak.rss = Math.max(peak.rss, m.rss);
    peak.heapUsed = Math.max(peak.heapUsed, m.heapUsed);
  };
  sample();
  const timer = setInterval(sample, 50);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return peak;
    },
  };
}

const mb = (bytes: number) => `${(bytes / MB).toFixed(0)} MB`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const rate = (count: number, ms: number) => Math.round(count / (ms / 1000));
const line = (label: string, value: string) => console.log(`  ${label.padEnd(34)} ${value}`);

/** Streams a file as the body of an upload; resolves with the answer once it arrives. */
function upload(file: string, token: string, headers: Record<string, string>): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${url}/v1/ingest/apple-health`,
      { method: "POST", headers: { authorization: `Bearer ${token}`, "content-length": String(statSync(file).size), ...headers } },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (text += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined }));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    createReadStream(file).on("error", reject).pipe(req);
  });
}

/** Waits until the ETL is done with a raw object; its final row. */
async function processed(rawObjectId: string): Promise<{ status: string; summary: any; error: string | null }> {
  for (;;) {
    const { rows } = await sql.query("SELECT status, summary, error FROM raw_objects WHERE id = $1", [rawObjectId]);
    const row = rows[0];
    if (row && row.status !== "pending" && row.status !== "receiving") return row;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The ETL job's attempts: more than one means pg-boss failed or expired an attempt. */
async function etlAttempts(rawObjectId: string): Promise<string> {
  const { rows } = await sql.query(
    "SELECT state, retry_count, expire_seconds, output FROM pgboss.job WHERE name = 'etl-raw-object' AND data->>'raw_object_id' = $1",
    [rawObjectId],
  );
  return rows
    .map((r) => `${r.state} after ${r.retry_count + 1} attempt(s), expiry ${r.expire_seconds} s${r.retry_count > 0 ? ` (${JSON.stringify(r.output)})` : ""}`)
    .join("; ");
}

/** Waits until pg-boss has no job due that is not done (work the ETL job left behind); the seconds waited. */
async function jobsSettled(): Promise<number> {
  const started = performance.now();
  for (;;) {
    const { rows } = await sql.query("SELECT count(*)::int AS n FROM pgboss.job WHERE state IN ('created', 'retry', 'active') AND start_after <= now()");
    if (rows[0].n === 0) return (performance.now() - started) / 1000;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Bytes of the files under a folder (the raw store). */
function folderBytes(folder: string): number {
  if (!existsSync(folder)) return 0;
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .reduce((sum, entry) => sum + statSync(path.join(entry.parentPath, entry.name)).size, 0);
}

/**
 * Uploads a file and waits until it is processed, measuring memory meanwhile; prints the
 * timings and returns them.
 */
async function uploadAndProcess(file: string, token: string, headers: Record<string, string>) {
  const memory = trackMemory();
  const started = performance.now();
  const answer = await upload(file, token, headers);
  const accepted = performance.now();
  if (answer.status !== 202) throw new Error(`upload answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  const raw = await processed(answer.body.upload_id);
  const done = performance.now();
  const peak = memory.stop();
  line("upload accepted (202) after", `${seconds(accepted - started)} (HTTP, raw store, check of every line)`);
  line("processed after", `${seconds(done - started)} (ETL ${seconds(done - accepted)})`);
  line("raw object", `${raw.status}${raw.error ? `: ${raw.error}` : ""}, summary ${JSON.stringify(raw.summary)}`);
  line("ETL job", await etlAttempts(answer.body.upload_id));
  line("peak RSS / heap used", `${mb(peak.rss)} / ${mb(peak.heapUsed)} (RSS ${mb(peak.rssBefore)} before the upload)`);
  return { totalMs: done - started, etlMs: done - accepted, acceptMs: accepted - started };
}

// ---- 1. NDJSON upload ---------------------------------------------------------------
// About a year of a watch and a phone: one sample every 30 s (a million span 347 days),
// half heart rate (instants, watch), 30% active energy (watch, 1 minute), 20% steps (phone,
// 1 minute), each with its own uuid. Steps and energy feed the derived daily totals.
const watch = {
  source: { name: "Alice's Apple Watch", bundle_id: "com.apple.health.5F3B4C1A-0000-4000-8000-000000000001" },
  device: { name: "Apple Watch", manufacturer: "Apple Inc.", model: "Watch", hardware_version: "Watch7,1", software_version: "10.2" },
};
const phone = {
  source: { name: "Alice's iPhone", bundle_id: "com.apple.health.7A2C9E0B-0000-4000-8000-000000000002" },
  device: { name: "iPhone", manufacturer: "Apple Inc.", model: "iPhone", hardware_version: "iPhone15,4", software_version: "17.2" },
};
const origin = Date.parse("2024-01-01T00:00:00Z");
const STEP_MS = 30_000;
const rfc3339 = (ms: number) => new Date(ms + 3_600_000).toISOString().replace("Z", "+01:00");

/** The i-th sample: its stream (1 heart rate, 2 active energy, 3 steps), times and value. */
function sampleAt(i: number) {
  const at = origin + i * STEP_MS;
  const kind = i % 10;
  if (kind < 5) return { stream: 1, start: at, end: at, value: 55 + (i % 60) };
  const steps = kind >= 8;
  return { stream: steps ? 3 : 2, start: at - 60_000, end: at, value: steps ? 20 + (i % 90) : 0.5 + (i % 20) / 10 };
}

function ndjsonLine(i: number): string {
  const { stream, start, end, value } = sampleAt(i);
  const common = { kind: "quantity", uuid: randomUUID().toUpperCase(), timezone: "Europe/Berlin", value, start: rfc3339(start), end: rfc3339(end) };
  if (stream === 1) {
    return JSON.stringify({
      ...common,
      type: "HKQuantityTypeIdentifierHeartRate",
      unit: "count/min",
      ...watch,
      metadata: { HKMetadataKeyHeartRateMotionContext: i % 3 },
    });
  }
  const steps = stream === 3;
  return JSON.stringify({
    ...common,
    type: steps ? "HKQuantityTypeIdentifierStepCount" : "HKQuantityTypeIdentifierActiveEnergyBurned",
    unit: steps ? "count" : "kcal",
    ...(steps ? phone : watch),
  });
}

/** The i-th sample as a row of the narrow table in COPY's text format. */
function narrowRow(i: number): string {
  const { stream, start, end, value } = sampleAt(i);
  return `${stream}\t${new Date(start).toISOString()}\t${(end - start) / 1000}\t${value}`;
}

async function* chunked(count: number, render: (i: number) => string): AsyncGenerator<string> {
  for (let i = 0; i < count; i += 1000) {
    const lines: string[] = [];
    for (let j = i; j < Math.min(count, i + 1000); j++) lines.push(render(j));
    yield `${lines.join("\n")}\n`;
  }
}

const ndjsonFile = path.join(dataDir, "upload.ndjson.gz");
let generating = performance.now();
await pipeline(Readable.from(chunked(sampleCount, ndjsonLine)), createGzip(), createWriteStream(ndjsonFile));
console.log(
  `1. Apple Health NDJSON: ${sampleCount} quantity samples, one upload of ${mb(statSync(ndjsonFile).size)} gzip (written in ${seconds(performance.now() - generating)})`,
);

const ndjsonUser = await uploader();
const rawFolder = path.join(dataDir, "raw");
const [databaseBefore, tablesBefore, rawBefore] = [await databaseBytes(sql), await allTableBytes(sql), folderBytes(rawFolder)];
const ndjson = await uploadAndProcess(ndjsonFile, ndjsonUser.token, { "content-type": "application/x-ndjson", "content-encoding": "gzip" });
const settledSeconds = await jobsSettled();
// The merged rollups the job sample-merged-rollups makes within the minute: made now, so the
// growth counts everything the upload leaves behind.
const { rows: staleTypes } = await sql.query("SELECT type FROM quantity_sample_merged_dirty WHERE user_id = $1", [ndjsonUser.userId]);
for (const { type } of staleTypes) await refreshMergedSampleRollups(db, ndjsonUser.userId, type as string);
const [databaseAfter, tablesAfter, rawAfter] = [await databaseBytes(sql), await allTableBytes(sql), folderBytes(rawFolder)];
const { rows: storedRows } = await sql.query("SELECT count(*)::int AS n FROM quantity_samples WHERE user_id = $1", [ndjsonUser.userId]);
const stored = storedRows[0].n as number;
line("samples stored", String(stored));
line("svc end to end", `${rate(sampleCount, ndjson.totalMs)} samples/s (ETL alone ${rate(sampleCount, ndjson.etlMs)} samples/s)`);

// The physical reference: the same samples COPYed into a minimal narrow table of the same database.
await createNarrowTable(sql, NARROW_TABLE);
const narrowFile = path.join(dataDir, "narrow.copy");
await pipeline(Readable.from(chunked(sampleCount, narrowRow)), createWriteStream(narrowFile));
const narrowMemory = trackMemory();
const narrowStarted = performance.now();
await pipeline(createReadStream(narrowFile), sql.query(copyFrom(`COPY ${NARROW_TABLE} (stream, start, duration, value) FROM STDIN`)));
const narrowMs = performance.now() - narrowStarted;
const narrowPeak = narrowMemory.stop();
rmSync(narrowFile);
line("COPY into a narrow table", `${rate(sampleCount, narrowMs)} samples/s (${seconds(narrowMs)}, peak RSS ${mb(narrowPeak.rss)}; ${NARROW_TABLE}: stream int, start, duration int, value float8, primary key (stream, start))`);
line("ratio svc / narrow COPY", `${(narrowMs / ndjson.totalMs).toFixed(3)} end to end, ${(narrowMs / ndjson.etlMs).toFixed(3)} ETL alone`);

// What the upload left behind, per sample uploaded.
const perSample = (bytes: number) => `${(bytes / sampleCount).toFixed(1)} bytes/sample`;
const narrowBytes = (await tableBytes(sql, [NARROW_TABLE])).get(NARROW_TABLE) ?? 0;
const databaseGrowth = databaseAfter - databaseBefore;
line("database growth", `${mb(databaseGrowth)}, ${perSample(databaseGrowth)} (pg_database_size after a CHECKPOINT, before and after; pg-boss settled ${seconds(settledSeconds * 1000)} after)`);
line("narrow table of the same samples", `${mb(narrowBytes)}, ${perSample(narrowBytes)}: growth is ${(databaseGrowth / narrowBytes).toFixed(1)}x`);
const growths = [...tablesAfter]
  .map(([table, bytes]) => [table, bytes - (tablesBefore.get(table) ?? 0)] as const)
  .filter(([, growth]) => growth !== 0)
  .sort((a, b) => b[1] - a[1]);
for (const [table, growth] of growths) line(`  ${table}`, `${(growth / MB).toFixed(1)} MB, ${perSample(growth)}`);
const tablesGrowth = growths.reduce((sum, [, growth]) => sum + growth, 0);
line("  the rest (catalogs)", perSample(databaseGrowth - tablesGrowth));
line("raw store growth (files)", `${mb(rawAfter - rawBefore)}, ${perSample(rawAfter - rawBefore)} (not in the database)`);

// The baseline: the chunks the ETL stored, copied out and COPYed in again for another user
// of the same tenant (with series of their own), into the same table with the same indexes.
const copyUser = await uploader();
await sql.query(
  `INSERT INTO quantity_sample_series (user_id, id, provider, type, unit, source, source_key, device, on_body, source_name,
     source_bundle_id, device_model, product_type, is_primary_source, was_user_entered, timezone, original_unit)
   SELECT $2, id + 1000000000, provider, type, unit, source, source_key, device, on_body, source_name, source_bundle_id,
     device_model, product_type, is_primary_source, was_user_entered, timezone, original_unit
   FROM quantity_sample_series WHERE user_id = $1`,
  [ndjsonUser.userId, copyUser.userId],
);
const COLUMNS = `hour, chunk_id, sample_count, start_offsets, durations_ms, sample_values, ingested_at, raw_object_ids,
  external_ids, external_uuids, external_uuids_lowercase, external_id_bloom, metadata, legacy_ids`;
const copyFile = path.join(dataDir, "rows.copy");
await pipeline(
  sql.query(copyTo(`COPY (SELECT '${copyUser.userId}'::uuid, series_id + 1000000000, ${COLUMNS} FROM quantity_sample_chunks WHERE user_id = '${ndjsonUser.userId}') TO STDOUT`)),
  createWriteStream(copyFile),
);
const copyMemory = trackMemory();
const copyStarted = performance.now();
await pipeline(createReadStream(copyFile), sql.query(copyFrom(`COPY quantity_sample_chunks (user_id, series_id, ${COLUMNS}) FROM STDIN`)));
const copyMs = performance.now() - copyStarted;
const copyPeak = copyMemory.stop();
line("plain COPY of the stored chunks", `${rate(stored, copyMs)} samples/s (${seconds(copyMs)}, peak RSS ${mb(copyPeak.rss)})`);
line("ratio svc / COPY of stored chunks", `${(rate(sampleCount, ndjson.totalMs) / rate(stored, copyMs)).toFixed(2)} end to end, ${(rate(sampleCount, ndjson.etlMs) / rate(stored, copyMs)).toFixed(2)} ETL alone`);
rmSync(ndjsonFile);
rmSync(copyFile);

// ---- 2. export.xml ------------------------------------------------------------------
// The Health app's export: the DOCTYPE with its internal subset, ExportDate, Me, then
// Records as the app writes them (heart rate with a metadata entry, steps, active energy).
const HEAD = `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE HealthData [
<!-- HealthKit Export Version: 14 -->
<!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary|ClinicalRecord|Audiogram|VisionPrescription)*)>
<!ATTLIST HealthData
  locale CDATA #REQUIRED
>
<!ELEMENT ExportDate EMPTY>
<!ATTLIST ExportDate
  value CDATA #REQUIRED
>
<!ELEMENT Me EMPTY>
<!ATTLIST Me
  HKCharacteristicTypeIdentifierDateOfBirth         CDATA #REQUIRED
  HKCharacteristicTypeIdentifierBiologicalSex       CDATA #REQUIRED
  HKCharacteristicTypeIdentifierBloodType           CDATA #REQUIRED
  HKCharacteristicTypeIdentifierFitzpatrickSkinType CDATA #REQUIRED
>
<!ELEMENT Record ((MetadataEntry|HeartRateVariabilityMetadataList)*)>
<!ATTLIST Record
  type          CDATA #REQUIRED
  unit          CDATA #IMPLIED
  value         CDATA #IMPLIED
  sourceName    CDATA #REQUIRED
  sourceVersion CDATA #IMPLIED
  device        CDATA #IMPLIED
  creationDate  CDATA #IMPLIED
  startDate     CDATA #REQUIRED
  endDate       CDATA #REQUIRED
>
<!ELEMENT MetadataEntry EMPTY>
<!ATTLIST MetadataEntry
  key   CDATA #REQUIRED
  value CDATA #REQUIRED
>
]>
<HealthData locale="en_US">
 <ExportDate value="2025-01-01 08:00:00 +0100"/>
 <Me HKCharacteristicTypeIdentifierDateOfBirth="1990-05-20" HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexFemale" HKCharacteristicTypeIdentifierBloodType="HKBloodTypeNotSet" HKCharacteristicTypeIdentifierFitzpatrickSkinType="HKFitzpatrickSkinTypeNotSet"/>
`;
const WATCH_DEVICE = "&lt;&lt;HKDevice: 0x3012772a0&gt;, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch7,1, software:10.2&gt;";
const PHONE_DEVICE = "&lt;&lt;HKDevice: 0x2812772a0&gt;, name:iPhone, manufacturer:Apple Inc., model:iPhone, hardware:iPhone15,4, software:17.2&gt;";
const exportTime = (ms: number) => `${new Date(ms + 3_600_000).toISOString().slice(0, 19).replace("T", " ")} +0100`;

function exportRecord(i: number): string {
  const at = origin + i * STEP_MS;
  const kind = i % 10;
  if (kind < 5) {
    return ` <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Alice’s Apple Watch" sourceVersion="10.2" device="${WATCH_DEVICE}" unit="count/min" creationDate="${exportTime(at + 5000)}" startDate="${exportTime(at)}" endDate="${exportTime(at)}" value="${55 + (i % 60)}">
  <MetadataEntry key="HKMetadataKeyHeartRateMotionContext" value="${i % 3}"/>
 </Record>`;
  }
  const steps = kind >= 8;
  const type = steps ? "HKQuantityTypeIdentifierStepCount" : "HKQuantityTypeIdentifierActiveEnergyBurned";
  const source = steps ? `sourceName="Alice’s iPhone" sourceVersion="17.2" device="${PHONE_DEVICE}"` : `sourceName="Alice’s Apple Watch" sourceVersion="10.2" device="${WATCH_DEVICE}"`;
  const value = steps ? 20 + (i % 90) : 0.5 + (i % 20) / 10;
  return ` <Record type="${type}" ${source} unit="${steps ? "count" : "kcal"}" creationDate="${exportTime(at + 5000)}" startDate="${exportTime(at - 60_000)}" endDate="${exportTime(at)}" value="${value}"/>`;
}

let exportRecords = 0;
async function* exportXml(): AsyncGenerator<string> {
  yield HEAD;
  let written = Buffer.byteLength(HEAD);
  while (written < exportBytes) {
    const lines: string[] = [];
    for (let j = 0; j < 1000; j++) lines.push(exportRecord(exportRecords++));
    const text = `${lines.join("\n")}\n`;
    written += Buffer.byteLength(text);
    yield text;
  }
  yield "</HealthData>\n";
}

const exportFile = path.join(dataDir, "export.xml");
generating = performance.now();
await pipeline(Readable.from(exportXml()), createWriteStream(exportFile));
const exportSize = statSync(exportFile).size;
console.log(`\n2. Apple Health export.xml: ${mb(exportSize)}, ${exportRecords} Records (written in ${seconds(performance.now() - generating)})`);
const exportUser = await uploader();
const exported = await uploadAndProcess(exportFile, exportUser.token, { "content-type": "application/xml" });
line("svc end to end", `${rate(exportRecords, exported.totalMs)} records/s, ${(exportSize / MB / (exported.totalMs / 1000)).toFixed(1)} MB/s (ETL alone ${rate(exportRecords, exported.etlMs)} records/s)`);
rmSync(exportFile);

// ---- 3. Small uploads ---------------------------------------------------------------
// What each accepted upload costs on its own (auth, raw object row, raw file and its fsync,
// check, commit): 4 users upload at once, one upload after the other, 50 samples each.
const LANES = 4;
console.log(`\n3. Small uploads: ${smallUploads} of 50 samples (about 4 KB) each, ${LANES} users at once`);
const lanes = await Promise.all(Array.from({ length: LANES }, () => uploader()));
const acceptTimes: number[] = [];
let next = 0;
const smallStarted = performance.now();
await Promise.all(
  lanes.map(async ({ token }) => {
    for (let n = next++; n < smallUploads; n = next++) {
      const body = Array.from({ length: 50 }, (_, i) => ndjsonLine(sampleCount + n * 50 + i)).join("\n");
      const started = performance.now();
      const response = await fetch(`${url}/v1/ingest/apple-health`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/x-ndjson" },
        body,
      });
      acceptTimes.push(performance.now() - started);
      if (response.status !== 202) throw new Error(`small upload answered ${response.status}: ${await response.text()}`);
      await response.arrayBuffer();
    }
  }),
);
const smallMs = performance.now() - smallStarted;
acceptTimes.sort((a, b) => a - b);
line("uploads accepted", `${rate(smallUploads, smallMs)} uploads/s`);
line("time to 202 p50 / p95 / p99", `${ms(pct(acceptTimes, 0.5))} / ${ms(pct(acceptTimes, 0.95))} / ${ms(pct(acceptTimes, 0.99))}`);

console.log(`\nprocess maxRSS over the whole run: ${mb(process.resourceUsage().maxRSS * 1024)}; load ${load()}`);

await sql.end();
await service.stop();
rmSync(dataDir, { recursive: true, force: true });
