// Benchmark: sample reads and statistics on 11 million heart-rate samples in a real
// embedded PostgreSQL: 10 million for one user (a watch every 5 s and a phone every 50 s,
// so the merged view has work to do) and 1 million across 1000 users. Each figure is the
// service function (Prisma + our SQL, as the routes call it) beside the equivalent
// hand-written SQL query on the same data, as a ratio. Also the disk the samples take (tables,
// indexes, TOAST) beside a minimal narrow table of the same samples, and the disk of 1 million
// RR intervals and 1 million workout route points stored through their writers.
// Prints figures; asserts nothing.
//   npm run bench -- samples          (BENCH_ITERATIONS=40 by default)
//   BENCH_BIG_SAMPLES=1000000 npm run bench -- samples   (a quicker, smaller run)
//   BENCH_RR_INTERVALS, BENCH_ROUTE_POINTS (1000000 each) size the RR-interval and route-point loads
import {
  createTenant,
  createUser,
  getSampleStats,
  listSamples,
  rebuildUserSampleRollups,
  refreshMergedSampleRollups,
  writeHeartbeatSeries,
  writeWorkouts,
  type HeartbeatSeriesRecord,
  type RoutePointRecord,
  type WorkoutRecord,
} from "@svc/core";
import { openBenchDatabase } from "./bench-database.ts";
import { insertHeartRateSeries, type HeartRateSeries as Series, VALUE_SQL } from "./heart-rate-series.ts";
import { createNarrowTable, tableBytes } from "./table-sizes.ts";
import { ms, pct, timed as timedRuns } from "./timing.ts";

// The tables each series lives in (partitioned ones count their partitions): change these
// lists when the storage changes.
const SAMPLE_TABLES = [
  "quantity_sample_series",
  "quantity_sample_chunks",
  "quantity_sample_streams",
  "quantity_sample_rollups",
  "quantity_sample_merged_rollups",
];
const RR_INTERVAL_TABLES = ["heartbeat_series", "rr_interval_chunks", "hrv_results"];
const ROUTE_POINT_TABLES = ["workouts", "workout_route_chunks", "workout_track_summaries"];
const NARROW_TABLE = "bench_narrow_samples";

const iterations = Number(process.env.BENCH_ITERATIONS ?? 40);
const bigSamples = Number(process.env.BENCH_BIG_SAMPLES ?? 10_000_000);
const otherUsers = 1000;
const samplesPerOtherUser = 1000;
const rrIntervals = Number(process.env.BENCH_RR_INTERVALS ?? 1_000_000);
const routePoints = Number(process.env.BENCH_ROUTE_POINTS ?? 1_000_000);
const PER_RECORDING = 4000;
const WATCH_STEP_S = 5;
const PHONE_STEP_S = 50;
const origin = Date.parse("2025-01-01T00:00:00Z");
const DAY = 86_400_000;

const { db, sql, close } = await openBenchDatabase();

console.log(`svc sample benchmark: embedded PostgreSQL, Node ${process.version}, ${iterations} iterations per figure\n`);

// ---- Load -------------------------------------------------------------------------
const { tenant_id: tenantId } = await createTenant(db, "bench");
const bigUser = (await createUser(db, tenantId, "big")).id;
const others: string[] = [];
for (let i = 0; i < otherUsers; i++) others.push((await createUser(db, tenantId, `u${i}`)).id);

const phoneSamples = Math.round(bigSamples / 10);
const series: Series[] = [
  { userId: bigUser, provider: "garmin", source: "garmin", device: "Forerunner 965", onBody: true, count: bigSamples - phoneSamples, stepSeconds: WATCH_STEP_S },
  { userId: bigUser, provider: "apple_health", source: "apple", device: "iPhone", onBody: false, count: phoneSamples, stepSeconds: PHONE_STEP_S },
  ...others.map((userId) => ({ userId, provider: "garmin", source: "garmin", device: "Venu 3", onBody: true, count: samplesPerOtherUser, stepSeconds: 60 })),
];
const loadStarted = performance.now();
for (const s of series) await insertHeartRateSeries(sql, s, origin);
// The load writes chunks past the writer: their rollups are computed here as the writer would
// have, the merged ones by the job's own function (timed for the big user: all of time at once).
const rollupsStarted = performance.now();
for (const userId of others) await rebuildUserSampleRollups(db, userId);
await rebuildUserSampleRollups(db, bigUser);
const bigRollupsMs = performance.now() - rollupsStarted;
const mergedStarted = performance.now();
await refreshMergedSampleRollups(db, bigUser, "heart_rate");
const bigMergedMs = performance.now() - mergedStarted;
for (const userId of others) await refreshMergedSampleRollups(db, userId, "heart_rate");
console.log(`rollups of every user in ${(bigRollupsMs / 1000).toFixed(1)} s; merged rollups of the big user (the job, all of time) in ${(bigMergedMs / 1000).toFixed(1)} s`);
for (const table of SAMPLE_TABLES) await sql.query(`VACUUM ANALYZE ${table}`);
const sampleCount = series.reduce((sum, s) => sum + s.count, 0);
console.log(`loaded ${sampleCount} samples in ${((performance.now() - loadStarted) / 1000).toFixed(0)} s`);

// The physical reference: the same samples (stream numbered from 1, same times and values),
// in stream and time order, in a minimal narrow table of the same database.
await createNarrowTable(sql, NARROW_TABLE);
for (const [index, s] of series.entries()) {
  await sql.query(
    `INSERT INTO ${NARROW_TABLE} (stream, start, duration, value)
     SELECT $1, to_timestamp($2::bigint / 1000.0 + g * $3::int), 0, ${VALUE_SQL} FROM generate_series(0, $4::int - 1) g`,
    [index + 1, origin, s.stepSeconds, s.count],
  );
}
await sql.query(`VACUUM ANALYZE ${NARROW_TABLE}`);

// RR intervals and route points through their writers, as a FIT file of a run with HRV
// recording stores them: one heartbeat series and one workout with its route per run.
const SEMICIRCLE_DEGREES = 180 / 2 ** 31;
const RUN_START = Date.parse("2025-01-01T06:30:00Z");
const RUN_PROVENANCE = { source: "garmin", device: "Forerunner 965", on_body: true, timezone: "Europe/Berlin" };
const fileIdOf = (run: number) => `${run.toString(16).padStart(8, "0")}5f3b4c1a9e0b7a2c4d6e8f1029384756`;
const vary = (spread: number) => Math.round((Math.random() - 0.5) * spread);

function heartbeatRecording(run: number, intervals: number): HeartbeatSeriesRecord {
  const fileId = fileIdOf(run);
  let rr = 420;
  return {
    start_date: new Date(RUN_START + run * DAY),
    rr_intervals: Array.from({ length: intervals }, () => ({ interval_ms: (rr = Math.min(1200, Math.max(300, rr + vary(24)))) })),
    ...RUN_PROVENANCE,
    external_id: `${fileId}:hrv`,
    metadata: { file_format: "fit", file_name: `run-${run}.fit` },
  };
}

function runWithRoute(run: number, points: number): WorkoutRecord {
  const fileId = fileIdOf(run);
  const start = RUN_START + run * DAY;
  let lat = Math.round(52.52 / SEMICIRCLE_DEGREES);
  let lon = Math.round(13.405 / SEMICIRCLE_DEGREES);
  let heading = Math.random() * 2 * Math.PI;
  let altitude = 2670; // FIT altitude: (meters + 500) * 5
  let heartRate = 120;
  const route: RoutePointRecord[] = [];
  for (let i = 0; i < points; i++) {
    const speed = 2800 + vary(400); // mm/s
    heading += (Math.random() - 0.5) * 0.2;
    lat += Math.round(((Math.cos(heading) * speed) / 1000 / 111_320) / SEMICIRCLE_DEGREES);
    lon += Math.round(((Math.sin(heading) * speed) / 1000 / 67_800) / SEMICIRCLE_DEGREES);
    altitude += vary(3);
    heartRate = Math.min(185, Math.max(110, heartRate + vary(3)));
    route.push({
      timestamp: new Date(start + i * 1000),
      latitude: lat * SEMICIRCLE_DEGREES,
      longitude: lon * SEMICIRCLE_DEGREES,
      altitude: altitude / 5 - 500,
      speed: speed / 1000,
      heart_rate: heartRate,
    });
  }
  return {
    activity_type: "running",
    start_date: new Date(start),
    end_date: new Date(start + points * 1000),
    duration_seconds: points,
    distance_meters: points * 2.8,
    total_energy_kcal: Math.round(points / 5),
    average_heart_rate: 150,
    max_heart_rate: 178,
    elevation_gain_meters: 84,
    steps: points * 2.8,
    ...RUN_PROVENANCE,
    external_id: `${fileId}:session:0`,
    metadata: { file_format: "fit", file_name: `run-${run}.fit`, session_index: 0, fit_sport: "running", fit_sub_sport: "generic", total_elapsed_seconds: points, laps: [] },
    route,
  };
}

async function writeRuns<R>(total: number, make: (run: number, count: number) => R, write: (records: R[]) => Promise<{ rejected: number }>) {
  const started = performance.now();
  for (let run = 0; run * PER_RECORDING < total; run++) {
    const summary = await write([make(run, Math.min(PER_RECORDING, total - run * PER_RECORDING))]);
    if (summary.rejected > 0) throw new Error("the writer rejected a benchmark record");
  }
  return (performance.now() - started) / 1000;
}

const runsUser = (await createUser(db, tenantId, "runner")).id;
const runBatch = { userId: runsUser, provider: "activity_files" };
const rrSeconds = await writeRuns(rrIntervals, heartbeatRecording, (records) => writeHeartbeatSeries(db, runBatch, records));
const routeSeconds = await writeRuns(routePoints, runWithRoute, (records) => writeWorkouts(db, runBatch, records));
for (const table of [...RR_INTERVAL_TABLES, ...ROUTE_POINT_TABLES]) await sql.query(`VACUUM ANALYZE ${table}`);
console.log(
  `wrote ${rrIntervals} RR intervals (series of ${PER_RECORDING}) in ${rrSeconds.toFixed(0)} s and ${routePoints} route points (workouts of ${PER_RECORDING}) in ${routeSeconds.toFixed(0)} s through the writers\n`,
);

// ---- Disk -------------------------------------------------------------------------
const MB = 1024 * 1024;
const narrowBytes = (await tableBytes(sql, [NARROW_TABLE])).get(NARROW_TABLE) ?? 0;

const diskLine = (label: string, count: number, bytes: number, unit: string) =>
  `${label.padEnd(28)} ${String(count).padStart(9)} ${(bytes / MB).toFixed(1).padStart(9)} MB ${(bytes / count).toFixed(1).padStart(7)} bytes/${unit}`;

/** Prints the disk of a kind of records: all its tables, then each; returns the total bytes. */
async function disk(label: string, unit: string, tables: readonly string[], count: number): Promise<number> {
  const sizes = await tableBytes(sql, tables);
  const total = [...sizes.values()].reduce((a, b) => a + b, 0);
  console.log(diskLine(label, count, total, unit));
  for (const [table, bytes] of sizes) console.log(diskLine(`  ${table}`, count, bytes, unit));
  return total;
}

console.log("disk after loading (pg_total_relation_size: table, indexes, TOAST; partitions summed; after VACUUM ANALYZE):");
const samplesBytes = await disk("quantity samples", "sample", SAMPLE_TABLES, sampleCount);
console.log(`${diskLine("narrow reference", sampleCount, narrowBytes, "sample")}   (${NARROW_TABLE}: stream int, start, duration int, value float8, primary key (stream, start))`);
console.log(`${"".padEnd(28)} samples take ${(samplesBytes / narrowBytes).toFixed(2)}x the narrow reference`);
await disk("RR intervals", "interval", RR_INTERVAL_TABLES, rrIntervals);
await disk("workout route points", "point", ROUTE_POINT_TABLES, routePoints);
console.log();

// ---- Measure ----------------------------------------------------------------------
const bigSpanMs = (bigSamples - phoneSamples) * WATCH_STEP_S * 1000;
const randomStart = (spanMs: number, reserveMs: number) => new Date(origin + Math.floor(Math.random() * Math.max(1, spanMs - reserveMs)));

const timed = (run: () => Promise<unknown>) => timedRuns(iterations, run);

function report(title: string, service: number[], handSql: number[]) {
  const ratio = pct(service, 0.5) / pct(handSql, 0.5);
  const figures = (times: number[]) => `p50 ${ms(pct(times, 0.5))}  p95 ${ms(pct(times, 0.95))}  p99 ${ms(pct(times, 0.99))}`;
  console.log(`${title.padEnd(44)} ${figures(service)}   SQL ${figures(handSql)}   ratio ${ratio.toFixed(2)}`);
  return pct(service, 0.5);
}

const PAGE_SQL = `SELECT id, type, value, unit, start_date, end_date, source_name, source_bundle_id, device_model, product_type,
  external_id, is_primary_source, was_user_entered, metadata, provider, source, device, ingested_at
  FROM quantity_samples s WHERE user_id = $1 AND type = 'heart_rate' AND start_date >= $2
    AND chunk_hour >= date_trunc('hour', $2::timestamptz, 'UTC') AND chunk_hour < coalesce($3::timestamptz, $2::timestamptz + interval '1 day')`;
// The merged page written by hand for this data: the phone's reading is left out when the
// watch has one within 5 minutes.
const MERGED_PAGE_SQL = `${PAGE_SQL} AND NOT (s.provider = 'apple_health' AND EXISTS (
    SELECT 1 FROM quantity_samples o WHERE o.user_id = s.user_id AND o.type = s.type AND o.source_key = 'garmin'
      AND o.provider = 'garmin' AND o.on_body AND o.start_date BETWEEN s.start_date - interval '5 minutes' AND s.start_date + interval '5 minutes'
      AND o.chunk_hour BETWEEN date_trunc('hour', s.start_date - interval '5 minutes', 'UTC') AND s.start_date + interval '5 minutes'))`;
const ORDER_PAGE = " ORDER BY start_date, id LIMIT 1001";

async function pages(label: string, userId: string, spanMs: number) {
  const allService = await timed(() => listSamples(db, userId, { type: "heart_rate", view: "all", limit: 1000, start: randomStart(spanMs, DAY).toISOString() }));
  const allSql = await timed(() => sql.query(PAGE_SQL + ORDER_PAGE, [userId, randomStart(spanMs, DAY), null]));
  const all = report(`${label}: page of 1000, view all`, allService, allSql);
  const mergedService = await timed(() => listSamples(db, userId, { type: "heart_rate", view: "merged", limit: 1000, start: randomStart(spanMs, DAY).toISOString() }));
  const mergedSql = await timed(() => sql.query(MERGED_PAGE_SQL + ORDER_PAGE, [userId, randomStart(spanMs, DAY), null]));
  const merged = report(`${label}: page of 1000, view merged`, mergedService, mergedSql);
  console.log(`${"".padEnd(44)} merged page costs ${(merged / all).toFixed(2)}x a page of all`);
  console.log(`${"".padEnd(44)} merged page costs ${(merged / pct(allSql, 0.5)).toFixed(2)}x the hand-written SQL of a page of all (p50)`);
}

// Stats written by hand: the earliest 50001 matching rows, bucketed by local hour or day.
function statsSql(interval: "hour" | "day", merged: boolean) {
  return `WITH matched AS (${merged ? MERGED_PAGE_SQL : PAGE_SQL} AND start_date < $3 ORDER BY start_date, id LIMIT 50001)
    SELECT date_trunc('${interval}', start_date AT TIME ZONE 'Europe/Berlin') AS bucket, provider, source, device, unit,
      count(*), sum(value), avg(value), min(value), max(value)
    FROM (SELECT * FROM matched ORDER BY start_date, id LIMIT 50000) m
    GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5`;
}

async function stats(label: string, userId: string, spanMs: number) {
  for (const [interval, days] of [["hour", 30], ["day", 365]] as const) {
    for (const view of ["merged", "all"] as const) {
      const window = () => {
        const start = randomStart(spanMs, days * DAY);
        start.setUTCHours(0, 0, 0, 0);
        return { start, end: new Date(start.getTime() + days * DAY) };
      };
      const service = await timed(() => {
        const { start, end } = window();
        return getSampleStats(db, userId, { type: "heart_rate", interval, tz: "Europe/Berlin", view, start: start.toISOString(), end: end.toISOString() });
      });
      const handSql = await timed(() => {
        const { start, end } = window();
        return sql.query(statsSql(interval, view === "merged"), [userId, start, end]);
      });
      report(`${label}: stats by ${interval} over ${days} days, ${view}`, service, handSql);
    }
  }
}

console.log(`one user, ${bigSamples} samples (watch every ${WATCH_STEP_S} s, phone every ${PHONE_STEP_S} s):`);
await pages("10M user", bigUser, bigSpanMs);
await stats("10M user", bigUser, bigSpanMs);

console.log(`\n${otherUsers} users, ${samplesPerOtherUser} samples each (a random user per call):`);
const randomOther = () => others[Math.floor(Math.random() * others.length)]!;
const smallAll = await timed(() => listSamples(db, randomOther(), { type: "heart_rate", view: "all", limit: 1000 }));
const smallAllSql = await timed(() => sql.query(`${PAGE_SQL}${ORDER_PAGE}`, [randomOther(), new Date(origin), null]));
report("1000 users: page of 1000, view all", smallAll, smallAllSql);
const smallMerged = await timed(() => listSamples(db, randomOther(), { type: "heart_rate", view: "merged", limit: 1000 }));
const smallMergedSql = await timed(() => sql.query(`${MERGED_PAGE_SQL}${ORDER_PAGE}`, [randomOther(), new Date(origin), null]));
report("1000 users: page of 1000, view merged", smallMerged, smallMergedSql);
const smallStats = await timed(() => getSampleStats(db, randomOther(), { type: "heart_rate", interval: "hour", tz: "Europe/Berlin", view: "merged", start: "2025-01-01", end: "2025-01-31" }));
const smallStatsSql = await timed(() => sql.query(statsSql("hour", true), [randomOther(), new Date(origin), new Date(origin + 30 * DAY)]));
report("1000 users: stats by hour over 30 days, merged", smallStats, smallStatsSql);

await close();
