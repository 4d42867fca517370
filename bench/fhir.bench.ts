// Benchmark: pages of the FHIR Observation search over one user's year of 1 million mixed
// records in a real embedded PostgreSQL (heart rate from a watch and a phone, steps, energy,
// HRV, SpO2, respiratory rate, blood pressure pairs, weight, sleep, workouts, daily summaries,
// ECG recordings with voltages, meals). Each figure is a page of 100 Observations, as the
// route builds it (Prisma + our SQL + mapping), beside the equivalent page of 100 heart rate
// samples from the samples list, as a ratio. Then the /v1/fhir base's search with
// `date=ge…&date=lt…&_count=100` beside the spec's route with start/end over the same windows
// (target: no more costly). Prints figures; asserts nothing.
//   npm run bench -- fhir          (BENCH_ITERATIONS=40 by default)
//   BENCH_PG_STATS=1 ...           (after each figure, the statements that took most database time)
//   BENCH_FHIR_PHASE=newest ...    (only the _sort=-date figures: an idle user beside an active one)
//   BENCH_FHIR_PHASE=base ...      (only the base's date=ge&date=lt search beside the spec route's)
import {
  createTenant,
  createUser,
  listSamples,
  searchFhirObservations,
  searchObservations,
  writeDailySummaries,
  writeEcgRecordings,
  writeNutritionLogs,
  writeQuantitySamples,
  writeSleepSessions,
  writeWorkouts,
  type QuantitySampleRecord,
} from "@svc/core";
import { openBenchDatabase } from "./bench-database.ts";
import { printTopStatements, resetStatements } from "./pg-stats.ts";
import { ms, pct, timed as timedRuns } from "./timing.ts";

const iterations = Number(process.env.BENCH_ITERATIONS ?? 40);
const origin = Date.parse("2025-01-01T00:00:00Z");
const DAY = 86_400_000;
const YEAR_DAYS = 365;

const { db, sql, close } = await openBenchDatabase();

console.log(`svc FHIR search benchmark: embedded PostgreSQL, Node ${process.version}, ${iterations} iterations per figure\n`);

// ---- Load -------------------------------------------------------------------------
const { tenant_id: tenantId } = await createTenant(db, "bench");
const user = (await createUser(db, tenantId, "fhir")).id;

/**
 * A series of one type every `stepSeconds` over the year, shaped as the sample writer stores it
 * (a series, one chunk per hour, the merged view's stream), generated in SQL for speed.
 */
async function insertSeries(type: string, unit: string, provider: string, source: string, onBody: boolean, stepSeconds: number, base: number, spread: number) {
  const count = Math.floor((YEAR_DAYS * 86_400) / stepSeconds);
  const { rows } = await sql.query(
    `INSERT INTO quantity_sample_series (user_id, provider, type, unit, source, source_key, device, on_body, is_primary_source, was_user_entered)
     VALUES ($1, $2, $3, $4, $5, $5, $5 || ' device', $6, true, false) RETURNING id`,
    [user, provider, type, unit, source, onBody],
  );
  await sql.query(
    `INSERT INTO quantity_sample_chunks (user_id, series_id, hour, chunk_id, sample_count, start_offsets, durations_ms,
       sample_values, ingested_at, raw_object_ids)
     SELECT $1::uuid, $2::bigint, hour, nextval('quantity_sample_chunk_ids'), count(*)::int,
       array_agg((extract(epoch FROM t - hour) * 1000)::int ORDER BY g), array_agg(0::bigint ORDER BY g),
       array_agg($3::float8 + (g % $4::int) ORDER BY g), array_agg(now() ORDER BY g), array_agg(NULL::uuid ORDER BY g)
     FROM generate_series(0, $5::int - 1) g,
       LATERAL (SELECT to_timestamp($6::bigint / 1000.0 + g * $7::int) AS t) x,
       LATERAL (SELECT date_trunc('hour', t, 'UTC') AS hour) h
     GROUP BY hour`,
    [user, rows[0].id, base, spread, count, origin, stepSeconds],
  );
  await sql.query(
    `INSERT INTO quantity_sample_streams (user_id, type, provider, source_key, on_body, max_duration_seconds, first_start, last_start)
     VALUES ($1, $2, $3, $4, $5, 0, to_timestamp($6 / 1000.0), to_timestamp($6 / 1000.0 + ($7 - 1) * $8))`,
    [user, type, provider, source, onBody, origin, count, stepSeconds],
  );
  return count;
}

const loadStarted = performance.now();
let samples = 0;
samples += await insertSeries("heart_rate", "count/min", "garmin", "garmin", true, 60, 55, 60);
samples += await insertSeries("heart_rate", "count/min", "apple_health", "apple", false, 600, 60, 40);
samples += await insertSeries("step_count", "count", "garmin", "garmin", true, 300, 0, 400);
samples += await insertSeries("active_energy_burned", "kcal", "garmin", "garmin", true, 300, 1, 20);
samples += await insertSeries("hrv_rmssd", "ms", "garmin", "garmin", true, 300, 20, 60);
samples += await insertSeries("oxygen_saturation", "%", "garmin", "garmin", true, 600, 93, 6);
samples += await insertSeries("respiratory_rate", "count/min", "garmin", "garmin", true, 600, 12, 8);

const days = Array.from({ length: YEAR_DAYS }, (_, d) => origin + d * DAY);
const bloodPressure: QuantitySampleRecord[] = days.flatMap((day) =>
  [7, 19].flatMap((hour) => {
    const start_date = new Date(day + hour * 3_600_000);
    const common = { start_date, source: "withings", device: "BPM Connect" };
    return [
      { type: "blood_pressure_systolic", value: 115 + (hour % 10), ...common },
      { type: "blood_pressure_diastolic", value: 75 + (hour % 5), ...common },
    ];
  }),
);
const weights: QuantitySampleRecord[] = days.map((day, d) => ({ type: "body_mass", value: 72 + (d % 10) / 10, start_date: new Date(day + 6 * 3_600_000), source: "withings" }));
await db.$transaction((tx) => writeQuantitySamples(tx, { userId: user, provider: "withings" }, [...bloodPressure, ...weights]), { timeout: 600_000 });
await writeSleepSessions(db, { userId: user, provider: "oura" }, days.map((day) => ({
  bedtime_start: new Date(day - 2 * 3_600_000),
  bedtime_end: new Date(day + 6 * 3_600_000),
  total_sleep_seconds: 25_000,
  deep_seconds: 5000,
  source: "oura",
  on_body: true,
})));
await writeWorkouts(db, { userId: user, provider: "garmin" }, days.filter((_, d) => d % 5 !== 0).map((day) => ({
  activity_type: "running",
  start_date: new Date(day + 17 * 3_600_000),
  end_date: new Date(day + 18 * 3_600_000),
  distance_meters: 10_000,
  source: "garmin",
  on_body: true,
})));
await writeDailySummaries(db, { userId: user, provider: "garmin" }, days.map((day) => ({ date: new Date(day).toISOString().slice(0, 10), steps: 9000, resting_heart_rate: 52, source: "garmin" })));
await writeEcgRecordings(db, { userId: user, provider: "apple_health" }, days.filter((_, d) => d % 7 === 0).map((day) => ({
  start_date: new Date(day + 12 * 3_600_000),
  sampling_frequency_hz: 512,
  voltages: Array.from({ length: 512 * 30 }, (_, i) => Math.round(Math.sin(i / 20) * 1000)),
  classification: "sinusRhythm",
  source: "apple",
  on_body: true,
})));
await writeNutritionLogs(db, { userId: user, provider: "cronometer" }, days.flatMap((day) =>
  [8, 13, 19].map((hour) => ({ start_date: new Date(day + hour * 3_600_000), meal_type: "snack", energy_kcal: 500, protein_grams: 20, source: "cronometer" })),
));
for (const table of ["quantity_sample_series", "quantity_sample_chunks", "quantity_sample_streams", "sleep_sessions", "workouts", "daily_summaries", "ecg_recordings", "nutrition_logs"]) {
  await sql.query(`VACUUM ANALYZE ${table}`);
}
const { rows } = await sql.query(`SELECT (SELECT sum(sample_count) FROM quantity_sample_chunks) + (SELECT count(*) FROM sleep_sessions) + (SELECT count(*) FROM workouts)
  + (SELECT count(*) FROM daily_summaries) + (SELECT count(*) FROM ecg_recordings) + (SELECT count(*) FROM nutrition_logs) AS n`);
console.log(`loaded ${rows[0].n} records (${samples} generated samples) in ${((performance.now() - loadStarted) / 1000).toFixed(0)} s\n`);

// ---- Measure ----------------------------------------------------------------------
const randomStart = () => new Date(origin + Math.floor(Math.random() * (YEAR_DAYS - 2) * DAY)).toISOString();

const timed = (run: () => Promise<unknown>) => timedRuns(iterations, run);

const settings = { codeSystemBase: "https://svc.example/fhir/CodeSystem", searchUrl: `https://svc.example/v1/users/${user}/fhir/Observation` };
const samplesPage = (view: "merged" | "all") => timed(() => listSamples(db, user, { type: "heart_rate", view, limit: 100, start: randomStart() }));

async function report(title: string, query: Record<string, string>, view: "merged" | "all", baseline: number[]) {
  await resetStatements(sql);
  const times = await timed(() => searchObservations(db, user, { ...query, view, limit: 100, start: randomStart() }, settings));
  await printTopStatements(sql);
  const ratio = pct(times, 0.5) / pct(baseline, 0.5);
  console.log(`${title.padEnd(46)} p50 ${ms(pct(times, 0.5))}  p99 ${ms(pct(times, 0.99))}   samples page p50 ${ms(pct(baseline, 0.5))}   ratio ${ratio.toFixed(2)}`);
}

/**
 * The base's search with date=ge…&date=lt… beside the spec's route with start/end, over the same
 * two-day windows, the two calls of each window in turn (which goes first alternates), so cache
 * warmth favours neither. The base resolves the patient with a tenant key as the route does.
 */
async function reportBaseSearch(view: "merged" | "all") {
  const principal = { kind: "tenant" as const, tenantId, keyId: "bench" };
  const base = { baseUrl: "https://svc.example/v1/fhir", codeSystemBase: settings.codeSystemBase };
  const spec = (start: string, end: string) => searchObservations(db, user, { start, end, view, limit: 100 }, settings);
  const fhir = (start: string, end: string) =>
    searchFhirObservations(db, principal, { patient: `Patient/${user}`, date: [`ge${start}`, `lt${end}`], _count: "100", view }, { strict: false }, base);
  const time = async (run: () => Promise<unknown>) => {
    const started = performance.now();
    await run();
    return performance.now() - started;
  };
  const specTimes: number[] = [];
  const baseTimes: number[] = [];
  for (let i = 0; i <= iterations; i++) {
    const start = randomStart();
    const end = new Date(Date.parse(start) + 2 * DAY).toISOString();
    const pair = i % 2 === 0 ? [await time(() => spec(start, end)), await time(() => fhir(start, end))] : [await time(() => fhir(start, end)), await time(() => spec(start, end))].reverse();
    if (i === 0) continue; // warm-up
    specTimes.push(pair[0]!);
    baseTimes.push(pair[1]!);
  }
  for (const times of [specTimes, baseTimes]) times.sort((a, b) => a - b);
  console.log(`spec route, start/end, limit 100, view ${view}`.padEnd(46), `p50 ${ms(pct(specTimes, 0.5))}  p99 ${ms(pct(specTimes, 0.99))}`);
  console.log(
    `/v1/fhir date=ge&date=lt&_count=100, ${view}`.padEnd(46),
    `p50 ${ms(pct(baseTimes, 0.5))}  p99 ${ms(pct(baseTimes, 0.99))}   ratio to the spec route ${(pct(baseTimes, 0.5) / pct(specTimes, 0.5)).toFixed(2)}`,
  );
}

/**
 * Newest first: the latest 100 of this user, idle since its data ended (almost a year before
 * now), beside the latest 100 as of the data's end (date=lt: what an active user's latest page
 * costs), and 100 before a random time.
 */
async function reportNewestFirst(view: "merged" | "all") {
  const principal = { kind: "tenant" as const, tenantId, keyId: "bench" };
  const base = { baseUrl: "https://svc.example/v1/fhir", codeSystemBase: settings.codeSystemBase };
  const newest = (extra: Record<string, string | string[]>) =>
    searchFhirObservations(db, principal, { patient: user, _sort: "-date", _count: "100", view, ...extra }, { strict: false }, base);
  const dataEnd = new Date(origin + YEAR_DAYS * DAY).toISOString();
  const idle = await timed(() => newest({}));
  const active = await timed(() => newest({ date: `lt${dataEnd}` }));
  const before = await timed(() => newest({ date: `lt${randomStart()}` }));
  const idleFor = Math.round((Date.now() - Date.parse(dataEnd)) / DAY);
  console.log(`/v1/fhir _sort=-date&_count=100, latest, ${view}`.padEnd(46), `p50 ${ms(pct(idle, 0.5))}  p99 ${ms(pct(idle, 0.99))}   (idle user: last record ${idleFor} days ago)`);
  console.log(
    `/v1/fhir _sort=-date&_count=100, lt data end, ${view}`.padEnd(46),
    `p50 ${ms(pct(active, 0.5))}  p99 ${ms(pct(active, 0.99))}   (as an active user; idle/active ${(pct(idle, 0.5) / pct(active, 0.5)).toFixed(2)})`,
  );
  console.log(`/v1/fhir _sort=-date&_count=100, date=lt, ${view}`.padEnd(46), `p50 ${ms(pct(before, 0.5))}  p99 ${ms(pct(before, 0.99))}`);
}

/** BENCH_FHIR_PHASE=newest or base: the newest-first figures, or the base's search beside the spec route's, only (after the same load). */
const phase = process.env.BENCH_FHIR_PHASE;

for (const view of ["merged", "all"] as const) {
  if (phase === "newest" || phase === "base") {
    await (phase === "newest" ? reportNewestFirst(view) : reportBaseSearch(view));
    continue;
  }
  const baseline = await samplesPage(view);
  console.log(`page of 100 heart rate samples (GET /samples), view ${view}: p50 ${ms(pct(baseline, 0.5))}  p99 ${ms(pct(baseline, 0.99))}`);
  await report(`FHIR page of 100, every kind, view ${view}`, {}, view, baseline);
  await report(`FHIR page of 100, type=heart_rate, view ${view}`, { type: "heart_rate" }, view, baseline);
  await report(`FHIR page of 100, category=vital-signs, view ${view}`, { category: "vital-signs" }, view, baseline);
  await report(`FHIR page of 100, ECG recordings, view ${view}`, { code: "http://loinc.org|11524-6" }, view, baseline);
  await reportBaseSearch(view);
  await reportNewestFirst(view);
  console.log();
}

await close();
