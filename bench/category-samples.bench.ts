// Benchmark: the disk category samples take, and the reads of them, in a real embedded
// PostgreSQL. Apple Health-like samples are stored through the writer (writeCategorySamples,
// batches of 5,000 as the ETL writes them): for each of 100 users about 2,000 samples, most of
// them stand hours with HealthKit UUIDs, with some mindful sessions, audio exposure events and
// headaches; one more user holds two years of them with headaches from two providers, so the
// merged view has work to do, and a traveller the same two years in another of 20 zones every
// two weeks. Prints bytes per sample (tables, indexes, TOAST) and the p50 and p95 of page reads
// and coverage. Asserts nothing.
//   npm run bench -- category-samples   (BENCH_ITERATIONS=40, BENCH_CATEGORY_USERS=100 by default)
import { randomUUID } from "node:crypto";
import { createTenant, createUser, getCoverage, listCategorySamples, writeCategorySamples, type CategorySampleRecord } from "@svc/core";
import { openBenchDatabase } from "./bench-database.ts";
import { tableBytes } from "./table-sizes.ts";
import { ms, pct, timed } from "./timing.ts";

// The tables category samples live in: change this list when the storage changes.
const CATEGORY_TABLES = ["category_sample_series", "category_samples"];

const iterations = Number(process.env.BENCH_ITERATIONS ?? 40);
const users = Number(process.env.BENCH_CATEGORY_USERS ?? 100);
const DAYS_PER_USER = 80;
const BIG_USER_DAYS = 730;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const origin = Date.parse("2025-01-01T00:00:00Z");

const { db, sql, close } = await openBenchDatabase();

console.log(`svc category sample benchmark: embedded PostgreSQL, Node ${process.version}, ${iterations} iterations per figure\n`);

const WATCH = {
  source: "apple",
  device: "Apple Watch",
  on_body: true,
  source_name: "Apple Watch von Anna",
  source_bundle_id: "com.apple.health.6D2D5F3A-1B8C-4E0F-9A7D-2C4B6E8F0A1B",
  device_model: "Watch",
  timezone: "Europe/Berlin",
} as const;
const PHONE = { ...WATCH, device: "iPhone", on_body: false, source_name: "iPhone von Anna", device_model: "iPhone" } as const;
const HEALTH_APP = { ...PHONE, source_name: "Health", source_bundle_id: "com.apple.Health" } as const;
const uuid = () => randomUUID().toUpperCase();

/** A day of one user's samples as HealthKit gives them: 24 stand hours and a few others (in the zone given, if any). */
function dayOf(day: number, dayIndex: number, timezone?: string): CategorySampleRecord[] {
  const start = origin + day * DAY;
  const samples: CategorySampleRecord[] = [];
  if (timezone !== undefined) return dayOf(day, dayIndex).map((sample) => ({ ...sample, timezone }));
  for (let h = 0; h < 24; h++) {
    samples.push({
      ...WATCH,
      type: "apple_stand_hour",
      value: h >= 7 && h <= 21 && (h + dayIndex) % 3 !== 0 ? "stood" : "idle",
      start_date: new Date(start + h * HOUR),
      end_date: new Date(start + (h + 1) * HOUR),
      external_id: uuid(),
    });
  }
  if (dayIndex % 2 === 0) {
    const at = start + 21 * HOUR + (dayIndex % 30) * 60_000;
    samples.push({ ...WATCH, type: "mindful_session", value: "breathing", start_date: new Date(at), end_date: new Date(at + 5 * 60_000), external_id: uuid() });
  }
  if (dayIndex % 3 === 0) {
    const at = start + 18 * HOUR;
    samples.push({
      ...WATCH,
      type: "environmental_audio_exposure_event",
      value: "not_applicable",
      start_date: new Date(at),
      end_date: new Date(at + 30 * 60_000),
      external_id: uuid(),
      metadata: { HKMetadataKeyAudioExposureLevel: { value: 92.4, unit: "dBASPL" } },
    });
  }
  if (dayIndex % 7 === 0) {
    samples.push({ ...HEALTH_APP, type: "headache", value: "mild", start_date: new Date(start + 9 * HOUR), end_date: new Date(start + 12 * HOUR), external_id: uuid(), was_user_entered: true });
  }
  return samples;
}

/** Stores samples through the writer, 5,000 per transaction as the ETL's batches; returns ms per 1,000. */
async function store(userId: string, provider: string, samples: CategorySampleRecord[]): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < samples.length; i += 5000) {
    await db.$transaction((tx) => writeCategorySamples(tx, { userId, provider }, samples.slice(i, i + 5000)), { timeout: 600_000 });
  }
  return performance.now() - started;
}

const { tenant_id: tenantId } = await createTenant(db, "bench");
let writeMs = 0;
let stored = 0;
for (let u = 0; u < users; u++) {
  const userId = (await createUser(db, tenantId, `u${u}`)).id;
  const samples = Array.from({ length: DAYS_PER_USER }, (_, d) => dayOf(u * 3 + d, d)).flat();
  writeMs += await store(userId, "apple_health", samples);
  stored += samples.length;
}
const bigUser = (await createUser(db, tenantId, "big")).id;
const bigSamples = Array.from({ length: BIG_USER_DAYS }, (_, d) => dayOf(d, d)).flat();
writeMs += await store(bigUser, "apple_health", bigSamples);
stored += bigSamples.length;
// Headaches from a second provider, overlapping the Health app's: the merged view keeps one of each pair.
const otherHeadaches: CategorySampleRecord[] = Array.from({ length: BIG_USER_DAYS / 7 }, (_, w) => ({
  source: "bearable",
  type: "headache",
  value: "moderate",
  start_date: new Date(origin + w * 7 * DAY + 10 * HOUR),
  end_date: new Date(origin + w * 7 * DAY + 11 * HOUR),
  external_id: `bearable-${w}`,
  timezone: "Europe/Berlin",
}));
writeMs += await store(bigUser, "bearable", otherHeadaches);
stored += otherHeadaches.length;
// A traveller: the same two years, in another of 20 zones every two weeks.
const ZONES = ["Europe/Berlin", "America/New_York", "Asia/Tokyo", "Europe/London", "America/Los_Angeles", "Asia/Singapore", "Australia/Sydney",
  "America/Chicago", "Asia/Dubai", "Europe/Paris", "America/Sao_Paulo", "Asia/Kolkata", "Africa/Johannesburg", "Asia/Shanghai", "Europe/Madrid",
  "America/Toronto", "Pacific/Auckland", "Asia/Seoul", "Europe/Rome", "America/Mexico_City"];
const traveller = (await createUser(db, tenantId, "traveller")).id;
const travellerSamples = Array.from({ length: BIG_USER_DAYS }, (_, d) => dayOf(d, d, ZONES[Math.floor(d / 14) % ZONES.length])).flat();
writeMs += await store(traveller, "apple_health", travellerSamples);
stored += travellerSamples.length;
console.log(`stored ${stored} category samples through the writer: ${(writeMs / (stored / 1000)).toFixed(1)} ms per 1,000`);

// Written again unchanged (an export uploaded twice): every sample is found and left alone.
const again = await store(bigUser, "apple_health", bigSamples.slice(0, 20_000));
console.log(`the same 20,000 again (nothing changes): ${(again / 20).toFixed(1)} ms per 1,000\n`);

for (const table of CATEGORY_TABLES) await sql.query(`VACUUM ANALYZE ${table}`);
const sizes = await tableBytes(sql, CATEGORY_TABLES);
const total = [...sizes.values()].reduce((a, b) => a + b, 0);
console.log(`disk: ${(total / stored).toFixed(1)} bytes per category sample (tables, indexes, TOAST)`);
for (const [table, bytes] of sizes) {
  const { rows } = await sql.query<{ heap: string; indexes: string }>(
    `SELECT pg_table_size($1::regclass) AS heap, pg_indexes_size($1::regclass) AS indexes`,
    [table],
  );
  console.log(`  ${table.padEnd(26)} ${(bytes / stored).toFixed(1).padStart(7)}  (heap and TOAST ${(Number(rows[0]!.heap) / stored).toFixed(1)}, indexes ${(Number(rows[0]!.indexes) / stored).toFixed(1)})`);
  const { rows: indexes } = await sql.query<{ name: string; bytes: string }>(
    `SELECT indexrelid::regclass::text AS name, pg_relation_size(indexrelid) AS bytes FROM pg_index WHERE indrelid = $1::regclass ORDER BY 1`,
    [table],
  );
  for (const index of indexes) console.log(`    ${index.name.padEnd(52)} ${(Number(index.bytes) / stored).toFixed(1).padStart(7)}`);
}

// Reads of the big user (17,520 stand hours, 365 mindful sessions, 244 audio events, 105 + 105 headaches) and of the traveller.
const middle = new Date(origin + 365 * DAY).toISOString();
const reads: Array<[string, () => Promise<unknown>]> = [
  ["page of 100, all types, view all", () => listCategorySamples(db, bigUser, { view: "all", limit: 100 })],
  ["page of 100, all types, view merged", () => listCategorySamples(db, bigUser, { view: "merged", limit: 100 })],
  ["page of 100 stand hours from the middle, view all", () => listCategorySamples(db, bigUser, { type: "apple_stand_hour", start: middle, view: "all", limit: 100 })],
  ["page of 100 mindful sessions, view all", () => listCategorySamples(db, bigUser, { type: "mindful_session", view: "all", limit: 100 })],
  ["page of 100 headaches, view merged", () => listCategorySamples(db, bigUser, { type: "headache", view: "merged", limit: 100 })],
  ["coverage of 30 days", () => getCoverage(db, bigUser, { start: middle, end: new Date(origin + 395 * DAY).toISOString() })],
  ["traveller: page of 100, all types, view all", () => listCategorySamples(db, traveller, { view: "all", limit: 100 })],
  ["traveller: page of 1000, all types, view all", () => listCategorySamples(db, traveller, { view: "all", limit: 1000 })],
  ["traveller: page of 100, all types, view merged", () => listCategorySamples(db, traveller, { view: "merged", limit: 100 })],
  ["traveller: page of 100 stand hours, view all", () => listCategorySamples(db, traveller, { type: "apple_stand_hour", view: "all", limit: 100 })],
  ["traveller: page of 100 headaches, view merged", () => listCategorySamples(db, traveller, { type: "headache", view: "merged", limit: 100 })],
];
console.log(`\n${"read".padEnd(52)} ${"p50".padStart(10)} ${"p95".padStart(10)}`);
for (const [name, run] of reads) {
  const times = await timed(iterations, run);
  console.log(`${name.padEnd(52)} ${ms(pct(times, 0.5))} ${ms(pct(times, 0.95))}`);
}

await close();
