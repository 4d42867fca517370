// Benchmark: the online move of samples an upgrade left one row each (quantity_samples_legacy)
// into chunks by the job data-moves, in a real embedded PostgreSQL. A watch wearer's heart rate
// every 5 s (HealthKit UUIDs, a zone in the metadata) is loaded into the legacy table as the
// release before stored it; pages and stats are read before the move (from the legacy table),
// while it runs (from both) and after it (from chunks). Prints the move's samples per second
// beside a plain INSERT ... SELECT of the same rows into a minimal narrow table (the physical
// reference), and the p50/p95 of the reads. Asserts nothing.
//   npm run bench -- data-moves   (BENCH_LEGACY_SAMPLES=1000000, BENCH_ITERATIONS=20 by default)
import { createTenant, createUser, getSampleStats, listSamples, moveLegacyData } from "@svc/core";
import { openBenchDatabase } from "./bench-database.ts";
import { ms, pct, timed } from "./timing.ts";

const samples = Number(process.env.BENCH_LEGACY_SAMPLES ?? 1_000_000);
const iterations = Number(process.env.BENCH_ITERATIONS ?? 20);
const origin = "2025-01-01T00:00:00Z";

const { db, sql, close } = await openBenchDatabase();
console.log(`svc data-moves benchmark: ${samples.toLocaleString("en")} legacy samples, Node ${process.version}, ${iterations} iterations per read figure\n`);

const tenant = await createTenant(db, "bench");
const user = (await createUser(db, tenant.tenant_id, "watch-wearer")).id;

await sql.query(
  `INSERT INTO quantity_samples_legacy (id, user_id, type, value, unit, start_date, end_date, source_name, source_bundle_id, device_model,
     product_type, external_id, metadata, provider, source, source_key, device, on_body, ingested_at, dedupe_key)
   SELECT g, $1, 'heart_rate', 50 + (g::bigint * 7919) % 70, 'count/min', t, t, 'Apple Watch von Anna', 'com.apple.health', 'Watch', 'Watch6,2',
     upper(md5(g::text)::uuid::text), '{"timezone":"Europe/Berlin","HKMetadataKeyHeartRateMotionContext":1}', 'apple_health', 'apple',
     'apple', 'Apple Watch', true, '2025-06-01T00:00:00Z', 'id:' || g
   FROM generate_series(1, $2::int) g, LATERAL (SELECT $3::timestamptz + g * interval '5 s' AS t) x`,
  [user, samples, origin],
);
await sql.query(
  `INSERT INTO quantity_sample_streams (user_id, type, provider, source_key, on_body, max_duration_seconds, first_start, last_start)
   SELECT user_id, type, provider, source_key, on_body, 0, min(start_date), max(start_date) FROM quantity_samples_legacy GROUP BY 1, 2, 3, 4, 5`,
);
await sql.query("ANALYZE quantity_samples_legacy");

// The physical reference: the same rows into a minimal narrow table, in one statement.
await sql.query(`CREATE TABLE narrow_reference (stream int, start timestamptz, duration_ms int, value float8, PRIMARY KEY (stream, start))`);
const copyStarted = performance.now();
await sql.query(`INSERT INTO narrow_reference SELECT 1, start_date, 0, value FROM quantity_samples_legacy`);
const copyMs = performance.now() - copyStarted;

const middle = new Date(Date.parse(origin) + (samples / 2) * 5000);
const page = (view: "all" | "merged") => () => listSamples(db, user, { type: "heart_rate", view, limit: 1000, start: middle.toISOString() });
const stats = () =>
  getSampleStats(db, user, { type: "heart_rate", start: middle.toISOString().slice(0, 10), end: new Date(middle.getTime() + 30 * 86_400_000).toISOString().slice(0, 10), interval: "hour", tz: "Europe/Berlin", view: "all" });

async function reads(label: string) {
  const all = await timed(iterations, page("all"));
  const merged = await timed(iterations, page("merged"));
  const stat = await timed(Math.max(3, Math.floor(iterations / 4)), stats);
  console.log(`${label.padEnd(34)} page all ${ms(pct(all, 0.5))}   merged ${ms(pct(merged, 0.5))}   stats hour/30 d ${ms(pct(stat, 0.5))}`);
}

await reads("before the move (legacy table):");

// The move, with pages read all along on another connection of the pool.
const during: number[] = [];
let moving = true;
const reader = (async () => {
  while (moving) {
    const started = performance.now();
    await page("all")();
    during.push(performance.now() - started);
  }
})();
const moveStarted = performance.now();
let batches = 0;
for (let run = await moveLegacyData(db, { maxBatches: 1 }); !run.done; run = await moveLegacyData(db, { maxBatches: 1 })) batches++;
const moveMs = performance.now() - moveStarted;
moving = false;
await reader;
during.sort((a, b) => a - b);

console.log(`\nmove: ${batches} batches, ${(moveMs / 1000).toFixed(1)} s, ${Math.round((samples / moveMs) * 1000).toLocaleString("en")} samples/s`);
console.log(`reference INSERT ... SELECT into a narrow table: ${(copyMs / 1000).toFixed(1)} s, ${Math.round((samples / copyMs) * 1000).toLocaleString("en")} rows/s (move/reference ${(copyMs / moveMs).toFixed(2)})`);
console.log(`pages of 1000 read during the move: ${during.length}, p50 ${ms(pct(during, 0.5))}, p95 ${ms(pct(during, 0.95))}, max ${ms(during.at(-1)!)}\n`);

await reads("after the move (chunks):");
await close();
