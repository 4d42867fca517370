import pg from "pg";
import { openEmbeddedPostgres } from "@svc/db";

/** BENCH_PG_STATS=1 asks a bench to print, after each phase, the statements that took most database time. */
export const pgStatsWanted = process.env.BENCH_PG_STATS === "1";

/**
 * An embedded PostgreSQL in `dataDir`, restarted with pg_stat_statements loaded when
 * BENCH_PG_STATS=1 (it must be loaded at the server's start).
 */
export async function openBenchPostgres(dataDir: string) {
  const postgres = await openEmbeddedPostgres(dataDir);
  if (!pgStatsWanted) return postgres;
  const admin = new pg.Client({ connectionString: postgres.url });
  await admin.connect();
  await admin.query("ALTER SYSTEM SET shared_preload_libraries = 'pg_stat_statements'");
  await admin.query("ALTER SYSTEM SET pg_stat_statements.track_planning = on");
  await admin.end();
  await postgres.stop();
  return openEmbeddedPostgres(dataDir);
}

/** Creates the extension (after the migrations) and forgets what was counted so far. */
export async function resetStatements(sql: pg.Client): Promise<void> {
  if (!pgStatsWanted) return;
  await sql.query("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
  await sql.query("SELECT pg_stat_statements_reset()");
}

/** Prints the statements that took most database time since the last call, then resets the counts. */
export async function printTopStatements(sql: pg.Client): Promise<void> {
  if (!pgStatsWanted) return;
  const { rows } = await sql.query(
    `SELECT calls, round(total_exec_time)::int AS total_ms, round(mean_exec_time::numeric, 2) AS mean_ms, round(mean_plan_time::numeric, 2) AS plan_ms, shared_blks_hit + shared_blks_read AS blocks,
       regexp_replace(left(query, 160), '\\s+', ' ', 'g') AS query
     FROM pg_stat_statements ORDER BY total_exec_time + total_plan_time DESC LIMIT 15`,
  );
  const { rows: sums } = await sql.query("SELECT sum(calls)::int AS calls, round(sum(total_exec_time))::int AS total_ms, round(sum(total_plan_time))::int AS plan_ms FROM pg_stat_statements");
  console.log(`  database time: ${sums[0].calls} statements, ${sums[0].total_ms} ms executing and ${sums[0].plan_ms} ms planning in all; the top 15 (calls, total ms, mean ms, mean planning ms, blocks, statement):`);
  for (const r of rows) console.log(`    ${String(r.calls).padStart(7)} ${String(r.total_ms).padStart(7)} ${String(r.mean_ms).padStart(8)} ${String(r.plan_ms).padStart(8)} ${String(r.blocks).padStart(9)}  ${r.query}`);
  await sql.query("SELECT pg_stat_statements_reset()");
}
