// Benchmark: sample reads and statistics on 11 million heart-rate samples in a real
// embedded PostgreSQL: 10 million for one user (a watch every 5 s and a phone every 50 s,
// so the merged view has work to do) and 1 million across 1000 users. Each figure is the
// service function (Prisma + our SQL, as the routes call it) beside the equivalent
// hand-written SQL query on the same data, as a ratio. Prints figures; asserts nothing.
//   npm run bench -- samples          (BENCH_ITERATIONS=40 by default)
//   BENCH_BIG_SAMPLES=1000000 npm run bench -- samples   (a quicker, smaller run)
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { createTenant, createUser, getSampleStats, listSamples } from "@svc/core";
import { applyMigrations, createDatabase, openEmbeddedPostgres } from "@svc/db";
import { ms, pct, timed as timedRuns } from "./timing.ts";

const iterations = Number(process.env.BENCH_ITERATIONS ?? 40);
const bigSamples = Number(process.env.BENCH_BIG_SAMPLES ?? 10_000_000);
const otherUsers = 1000;
const samplesPerOtherUser = 1000;
const WATCH_STEP_S = 5;
const PHONE_STEP_S = 50;
const origin = Date.parse("2025-01-01T00:00:00Z");

const dataDir = mkdtempSync(path.join(tmpdir(), "svc-bench-"));
chmodSync(dataDir, 0o755);
const postgres = await openEmbeddedPostgres(path.join(dataDir, "postgres"));
await applyMigrations(postgres.url);
const db = createDatabase(postgres.url, { max: 4 });
const sql = new pg.Client({ connectionString: postgres.url });
await sql.connect();

console.log(`svc sample benchmark: embedded PostgreSQL, Node ${process.version}, ${iterations} iterations per figure\n`);

// ---- Load -------------------------------------------------------------------------
const { tenant_id: tenantId } = await createTenant(db, "bench");
const bigUser = (await createUser(db, tenantId, "big")).id;
const others: string[] = [];
for (let i = 0; i < otherUsers; i++) others.push((await createUser(db, tenantId, `u${i}`)).id);

// Rows shaped exactly as the sample writer stores them (source_key, dedupe_key, streams),
// generated in SQL because 11 million rows through the writer would take most of the run.
async function insertSeries(userId: string, provider: string, source: string, device: string, onBody: boolean, count: number, stepSeconds: number) {
  const chunk = 1_000_000;
  for (let from = 0; from < count; from += chunk) {
    const to = Math.min(count, from + chunk);
    await sql.query(
      `INSERT INTO quantity_samples (user_id, type, value, unit, start_date, end_date, metadata, provider, source, source_key, device, on_body, dedupe_key)
       SELECT $1::uuid, 'heart_rate', 55 + (g % 60), 'count/min', t, t, '{"timezone":"Europe/Berlin"}', $2, $3, $3, $4, $5,
         'at:' || to_char(t AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || '/' || $4
       FROM generate_series($6::int, $7::int - 1) g, LATERAL (SELECT to_timestamp($8::bigint / 1000.0 + g * $9::int) AS t) x`,
      [userId, provider, source, device, onBody, from, to, origin, stepSeconds],
    );
  }
  await sql.query(
    `INSERT INTO quantity_sample_streams (user_id, type, provider, source_key, on_body, max_duration_seconds, first_start, last_start)
     VALUES ($1, 'heart_rate', $2, $3, $4, 0, to_timestamp($5 / 1000.0), to_timestamp($5 / 1000.0 + ($6 - 1) * $7))`,
    [userId, provider, source, onBody, origin, count, stepSeconds],
  );
}

const loadStarted = performance.now();
const phoneSamples = Math.round(bigSamples / 10);
await insertSeries(bigUser, "garmin", "garmin", "Forerunner 965", true, bigSamples - phoneSamples, WATCH_STEP_S);
await insertSeries(bigUser, "apple_health", "apple", "iPhone", false, phoneSamples, PHONE_STEP_S);
for (const user of others) await insertSeries(user, "garmin", "garmin", "Venu 3", true, samplesPerOtherUser, 60);
await sql.query("VACUUM ANALYZE quantity_samples");
await sql.query("VACUUM ANALYZE quantity_sample_streams");
const { rows: sizeRows } = await sql.query("SELECT count(*)::bigint AS n, pg_size_pretty(pg_total_relation_size('quantity_samples')) AS size FROM quantity_samples");
console.log(`loaded ${sizeRows[0].n} samples (${sizeRows[0].size} with indexes) in ${((performance.now() - loadStarted) / 1000).toFixed(0)} s\n`);

// ---- Measure ----------------------------------------------------------------------
const bigSpanMs = (bigSamples - phoneSamples) * WATCH_STEP_S * 1000;
const DAY = 86_400_000;
const randomStart = (spanMs: number, reserveMs: number) => new Date(origin + Math.floor(Math.random() * Math.max(1, spanMs - reserveMs)));

const timed = (run: () => Promise<unknown>) => timedRuns(iterations, run);

function report(title: string, service: number[], handSql: number[]) {
  const ratio = pct(service, 0.5) / pct(handSql, 0.5);
  console.log(
    `${title.padEnd(44)} p50 ${ms(pct(service, 0.5))}  p99 ${ms(pct(service, 0.99))}   SQL p50 ${ms(pct(handSql, 0.5))}  p99 ${ms(pct(handSql, 0.99))}   ratio ${ratio.toFixed(2)}`,
  );
  return pct(service, 0.5);
}

const PAGE_SQL = `SELECT id, type, value, unit, start_date, end_date, source_name, source_bundle_id, device_model, product_type,
  external_id, is_primary_source, was_user_entered, metadata, provider, source, device, ingested_at
  FROM quantity_samples s WHERE user_id = $1 AND type = 'heart_rate' AND start_date >= $2`;
// The merged page written by hand for this data: the phone's reading is left out when the
// watch has one within 5 minutes.
const MERGED_PAGE_SQL = `${PAGE_SQL} AND NOT (s.provider = 'apple_health' AND EXISTS (
    SELECT 1 FROM quantity_samples o WHERE o.user_id = s.user_id AND o.type = s.type AND o.source_key = 'garmin'
      AND o.provider = 'garmin' AND o.on_body AND o.start_date BETWEEN s.start_date - interval '5 minutes' AND s.start_date + interval '5 minutes'))`;
const ORDER_PAGE = " ORDER BY start_date, id LIMIT 1001";

async function pages(label: string, userId: string, spanMs: number) {
  const allService = await timed(() => listSamples(db, userId, { type: "heart_rate", view: "all", limit: 1000, start: randomStart(spanMs, DAY).toISOString() }));
  const allSql = await timed(() => sql.query(PAGE_SQL + ORDER_PAGE, [userId, randomStart(spanMs, DAY)]));
  const all = report(`${label}: page of 1000, view all`, allService, allSql);
  const mergedService = await timed(() => listSamples(db, userId, { type: "heart_rate", view: "merged", limit: 1000, start: randomStart(spanMs, DAY).toISOString() }));
  const mergedSql = await timed(() => sql.query(MERGED_PAGE_SQL + ORDER_PAGE, [userId, randomStart(spanMs, DAY)]));
  const merged = report(`${label}: page of 1000, view merged`, mergedService, mergedSql);
  console.log(`${"".padEnd(44)} merged page costs ${(merged / all).toFixed(2)}x a page of all`);
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
const smallAllSql = await timed(() => sql.query(`${PAGE_SQL}${ORDER_PAGE}`, [randomOther(), new Date(origin)]));
report("1000 users: page of 1000, view all", smallAll, smallAllSql);
const smallMerged = await timed(() => listSamples(db, randomOther(), { type: "heart_rate", view: "merged", limit: 1000 }));
const smallMergedSql = await timed(() => sql.query(`${MERGED_PAGE_SQL}${ORDER_PAGE}`, [randomOther(), new Date(origin)]));
report("1000 users: page of 1000, view merged", smallMerged, smallMergedSql);
const smallStats = await timed(() => getSampleStats(db, randomOther(), { type: "heart_rate", interval: "hour", tz: "Europe/Berlin", view: "merged", start: "2025-01-01", end: "2025-01-31" }));
const smallStatsSql = await timed(() => sql.query(statsSql("hour", true), [randomOther(), new Date(origin), new Date(origin + 30 * DAY)]));
report("1000 users: stats by hour over 30 days, merged", smallStats, smallStatsSql);

await sql.end();
await db.$disconnect();
await postgres.stop();
rmSync(dataDir, { recursive: true, force: true });
