// Benchmark: the size of MCP tool answers an assistant receives. A user is seeded with the CLI's
// `svc dev seed` generator (Apple Watch heart rate every BENCH_HR_EVERY seconds, steps, energy,
// sleep, workouts with routes, daily summaries from Apple Health, Garmin, Oura, Withings,
// meals) for BENCH_DAYS whole UTC days before today; a server runs in its own process. For each
// tool's default call, and for get_samples with limit 1000, it prints the bytes and estimated
// tokens of the answer's JSON text ("after") beside what the same call answered before issue 26
// ("before": the REST page of that call as one JSON text {records: data, next_cursor, truncated},
// with no default window), and the records each holds. Tokens are estimated as bytes / 4 (the
// common rule of thumb for prose) and by the server's budget rule (bytes / BYTES_PER_TOKEN).
// Prints figures; asserts nothing. BENCH_DUMP_DIR=<dir> also writes each answer there (to count
// tokens with a real tokenizer).
//   npm run bench -- mcp        (BENCH_DAYS=3 BENCH_HR_EVERY=60)
import { spawn } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { createTenant, createUser, QUANTITY_TYPES } from "@svc/core";
import { applyMigrations, createDatabase, openEmbeddedPostgres } from "@svc/db";
import { seedUser } from "../apps/cli/src/seed/seed-user.ts";
import { BYTES_PER_TOKEN, RESULT_BUDGET_BYTES } from "../packages/mcp/src/results/result-budget.ts";

const days = Number(process.env.BENCH_DAYS ?? 3);
const heartRateEvery = Number(process.env.BENCH_HR_EVERY ?? 60);
const dumpDir = process.env.BENCH_DUMP_DIR;
const DAY_MS = 86_400_000;

const dataDir = mkdtempSync(path.join(tmpdir(), "svc-bench-"));
chmodSync(dataDir, 0o755);
const postgres = await openEmbeddedPostgres(path.join(dataDir, "postgres"));
await applyMigrations(postgres.url);
const db = createDatabase(postgres.url, { max: 4 });
const { api_key: tenantKey, tenant_id: tenantId } = await createTenant(db, "bench");
const user = (await createUser(db, tenantId, "watch-wearer")).id;

console.log(`svc MCP answer sizes: ${days} days seeded, heart rate every ${heartRateEvery} s, Node ${process.version}`);
console.log(`budget: ${RESULT_BUDGET_BYTES.toLocaleString()} bytes of JSON text an answer (tokens estimated as bytes / ${BYTES_PER_TOKEN})\n`);
const now = new Date();
const seeded = await seedUser(db, { userId: user, days, heartRateEvery, now });
const written = Object.values(seeded.written).reduce((sum, n) => sum + n, 0);
console.log(`seeded ${seeded.first}..${seeded.last}: ${written.toLocaleString()} records\n`);
await db.$disconnect();

const server = spawn(process.execPath, [path.resolve(import.meta.dirname, "../apps/server/src/main.ts")], {
  env: { ...process.env, DATABASE_URL: postgres.url, SVC_DATA_DIR: dataDir, PORT: "0", SVC_HOST: "127.0.0.1", SVC_LOG_LEVEL: "info", SVC_ROLE: "api" },
  stdio: ["ignore", "pipe", "inherit"],
});
const url = await new Promise<string>((resolve, reject) => {
  server.once("exit", (code) => reject(new Error(`server exited with ${code}`)));
  createInterface({ input: server.stdout! }).on("line", (line) => {
    const started = /"url":"(http:\/\/127\.0\.0\.1:\d+)","msg":"svc started"/.exec(line);
    if (started) resolve(started[1]!);
  });
});

const authorization = `Bearer ${tenantKey}`;

/** A REST GET's JSON body. */
async function rest(pathAndQuery: string): Promise<any> {
  const response = await fetch(`${url}${pathAndQuery}`, { headers: { authorization } });
  if (response.status !== 200) throw new Error(`${pathAndQuery}: ${response.status} ${await response.text()}`);
  return response.json();
}

/** One tools/call over /mcp; the answer's JSON text. */
async function callTool(name: string, args: Record<string, unknown>): Promise<string> {
  const response = await fetch(`${url}/mcp`, {
    method: "POST",
    headers: { authorization, "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } }),
  });
  const body = (await response.json()) as { result: { content: Array<{ text: string }>; isError?: boolean } };
  if (body.result.isError) throw new Error(`${name}: ${body.result.content[0]!.text}`);
  return body.result.content[0]!.text;
}

/** The answer before issue 26: the REST page as one JSON text, with any extra fields the tool added. */
function oldAnswer(page: { data: unknown[]; next_cursor?: string | null }, extra: Record<string, unknown> = {}): string {
  const nextCursor = page.next_cursor ?? null;
  return JSON.stringify({ records: page.data, next_cursor: nextCursor, truncated: nextCursor !== null, ...extra });
}

const users = `/v1/users/${user}`;
const yesterday = new Date(Date.parse(now.toISOString().slice(0, 10)) - DAY_MS).toISOString().slice(0, 10);
const today = now.toISOString().slice(0, 10);
const statsWindow = `start=${new Date(Date.parse(today) - 30 * DAY_MS).toISOString().slice(0, 10)}&end=${today}`;
const workoutId = ((await rest(`${users}/workouts?limit=1`)).data[0] as { id: string } | undefined)?.id;

type Case = { tool: string; call: string; args: Record<string, unknown>; before: () => Promise<string> };
const cases: Case[] = [
  { tool: "list_users", call: "default", args: {}, before: async () => oldAnswer(await rest("/v1/users")) },
  {
    tool: "list_quantity_types",
    call: "default",
    args: {},
    before: async () =>
      oldAnswer({ data: QUANTITY_TYPES.map((t) => ({ type: t.name, unit: t.unit, ucum_unit: t.ucum_unit, loinc_code: t.loinc_code, group: t.group, description: t.description })) }),
  },
  { tool: "get_samples", call: "default (heart_rate)", args: { user_id: user, type: "heart_rate" }, before: async () => oldAnswer(await rest(`${users}/samples?type=heart_rate`)) },
  {
    tool: "get_samples",
    call: "heart_rate, limit 1000",
    args: { user_id: user, type: "heart_rate", limit: 1000 },
    before: async () => oldAnswer(await rest(`${users}/samples?type=heart_rate&limit=1000`)),
  },
  {
    tool: "get_samples",
    call: `heart_rate, limit 1000, ${yesterday}`,
    args: { user_id: user, type: "heart_rate", limit: 1000, start: yesterday, end: today },
    before: async () => oldAnswer(await rest(`${users}/samples?type=heart_rate&limit=1000&start=${yesterday}&end=${today}`)),
  },
  {
    tool: "get_samples",
    call: "heart_rate, newest_first, limit 10",
    args: { user_id: user, type: "heart_rate", order: "newest_first", limit: 10 },
    before: async () => oldAnswer(await rest(`${users}/samples?type=heart_rate&limit=10`)),
  },
  { tool: "get_category_samples", call: "default", args: { user_id: user }, before: async () => oldAnswer(await rest(`${users}/category-samples`)) },
  { tool: "get_sleep", call: "default", args: { user_id: user }, before: async () => oldAnswer(await rest(`${users}/sleep`)) },
  { tool: "get_workouts", call: "default", args: { user_id: user }, before: async () => oldAnswer(await rest(`${users}/workouts`)) },
  ...(workoutId
    ? [{ tool: "get_workout_route", call: "default", args: { user_id: user, workout_id: workoutId }, before: async () => oldAnswer(await rest(`${users}/workouts/${workoutId}/route`)) }]
    : []),
  { tool: "get_nutrition", call: "default", args: { user_id: user }, before: async () => oldAnswer(await rest(`${users}/nutrition`)) },
  { tool: "get_daily", call: "default", args: { user_id: user }, before: async () => oldAnswer(await rest(`${users}/daily`)) },
  { tool: "get_rr_intervals", call: "default", args: { user_id: user }, before: async () => oldAnswer(await rest(`${users}/rr-intervals`)) },
  { tool: "get_hrv", call: "default", args: { user_id: user }, before: async () => oldAnswer(await rest(`${users}/hrv`)) },
  { tool: "get_menstrual_cycles", call: "default", args: { user_id: user }, before: async () => oldAnswer(await rest(`${users}/menstrual-cycles`)) },
  { tool: "get_ecg_recordings", call: "default", args: { user_id: user }, before: async () => oldAnswer(await rest(`${users}/ecg`)) },
  {
    tool: "get_sample_stats",
    call: "heart_rate, 30 days, hour",
    args: { user_id: user, type: "heart_rate", interval: "hour", ...Object.fromEntries(new URLSearchParams(statsWindow)) },
    before: async () => {
      const { buckets, truncated, ...window } = await rest(`${users}/samples/stats?type=heart_rate&interval=hour&${statsWindow}`);
      return JSON.stringify({ records: buckets, next_cursor: null, truncated, ...window });
    },
  },
  {
    tool: "get_coverage",
    call: "default",
    args: { user_id: user },
    before: async () => {
      const { data, start, end } = await rest(`${users}/coverage`);
      return oldAnswer({ data }, { start, end, pending_jobs: 0, parked_jobs: 0, rejected_records: 0 });
    },
  },
  { tool: "get_tags", call: "default", args: { user_id: user }, before: async () => oldAnswer(await rest(`${users}/tags`)) },
  { tool: "list_connections", call: "default", args: { user_id: user }, before: async () => oldAnswer(await rest(`${users}/connections`)) },
  { tool: "list_webhooks", call: "default", args: {}, before: async () => oldAnswer(await rest("/v1/webhooks")) },
];

const bytesOf = (text: string) => Buffer.byteLength(text);
const tokens = (bytes: number, per: number) => Math.ceil(bytes / per).toLocaleString();
const recordsOf = (text: string) => (JSON.parse(text) as { records: unknown[] }).records.length;

const figures: Array<Record<string, string>> = [];
try {
  for (const { tool, call, args, before } of cases) {
    const old = await before();
    const answer = await callTool(tool, args);
    const parsed = JSON.parse(answer) as { truncated: boolean };
    if (dumpDir) {
      mkdirSync(dumpDir, { recursive: true });
      const file = `${tool} ${call}`.replace(/[^a-z0-9]+/gi, "-");
      writeFileSync(path.join(dumpDir, `${file}.before.json`), old);
      writeFileSync(path.join(dumpDir, `${file}.after.json`), answer);
    }
    figures.push({
      tool,
      call,
      "before bytes": bytesOf(old).toLocaleString(),
      "before tokens /4": tokens(bytesOf(old), 4),
      "before records": String(recordsOf(old)),
      "after bytes": bytesOf(answer).toLocaleString(),
      "after tokens /4": tokens(bytesOf(answer), 4),
      [`after tokens /${BYTES_PER_TOKEN}`]: tokens(bytesOf(answer), BYTES_PER_TOKEN),
      "after records": `${recordsOf(answer)}${parsed.truncated ? " (more)" : ""}`,
      "after / before": `${((bytesOf(answer) / bytesOf(old)) * 100).toFixed(0)} %`,
    });
  }
  console.table(figures);
} finally {
  // The server's pool must be gone before PostgreSQL stops.
  const exited = new Promise((resolve) => server.once("exit", resolve));
  server.kill("SIGTERM");
  await exited;
  await postgres.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
