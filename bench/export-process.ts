// The exporting process of bench/export.bench.ts: runs one FHIR export (the job's own
// runFhirExport into a file raw store) and prints its figures as one JSON line.
//   DATABASE_URL=… BENCH_EXPORT_ID=… BENCH_RAW_DIR=… node bench/export-process.ts
import { fileRawStore, runFhirExport } from "@svc/core";
import v8 from "node:v8";
import { createDatabase } from "@svc/db";

const db = createDatabase(process.env.DATABASE_URL!, { max: 4 });
const exportId = process.env.BENCH_EXPORT_ID!;
const instance = { publicUrl: () => "http://127.0.0.1:8080", fhirCodeSystemBase: () => "http://127.0.0.1:8080/fhir/CodeSystem" };
// A run of the bench ends well within the job's slice: nothing is queued.
const jobs = { send: () => Promise.reject(new Error("the bench queues no job")) } as unknown as Parameters<typeof runFhirExport>[0]["jobs"];

// Where the peak memory is: the JavaScript heap, or outside it (buffers, native allocations).
const peak = { heapUsed: 0, external: 0, arrayBuffers: 0 };
const sampling = setInterval(() => {
  const usage = process.memoryUsage();
  for (const key of Object.keys(peak) as Array<keyof typeof peak>) peak[key] = Math.max(peak[key], usage[key]);
  if (process.env.BENCH_MEM_TRACE) {
    const spaces = Object.fromEntries(v8.getHeapSpaceStatistics().map((s) => [s.space_name, Math.round(s.space_size / 2 ** 20)]));
    console.error(JSON.stringify({ rss: usage.rss >> 20, heapTotal: usage.heapTotal >> 20, heapUsed: usage.heapUsed >> 20, external: usage.external >> 20, arrayBuffers: usage.arrayBuffers >> 20, spaces }));
  }
}, 1000);
const started = performance.now();
await runFhirExport({ db, jobs, rawStore: fileRawStore(process.env.BENCH_RAW_DIR!), instance, fhirExports: { retentionHours: 24 } }, exportId);
const seconds = (performance.now() - started) / 1000;
const [row] = await db.$queryRaw<Array<{ state: string; resources: bigint; files: bigint; bytes: bigint }>>`
  SELECT e.state, e.resources_written AS resources, count(f.*) AS files, coalesce(sum(f.byte_size), 0)::bigint AS bytes
  FROM fhir_exports e LEFT JOIN fhir_export_files f ON f.export_id = e.id WHERE e.id = ${exportId}::uuid GROUP BY e.id`;
clearInterval(sampling);
await db.$disconnect();
console.log(JSON.stringify({ seconds, state: row!.state, resources: Number(row!.resources), files: Number(row!.files), bytes: Number(row!.bytes), maxRssBytes: process.resourceUsage().maxRSS * 1024, peak }));
