import path from "node:path";
import {
  applyMigrations,
  createDatabase,
  embeddedPostgresExists,
  openEmbeddedPostgres,
  readMigrationState,
  readMigrations,
  type Database,
} from "@svc/db";
import type { CliEnv } from "./env.ts";
import { refusalMessage } from "./migration-messages.ts";

/** Notes for the person at the terminal go to stderr: stdout carries keys that scripts parse. */
const say = (line: string) => console.error(`svc: ${line}`);

/**
 * Runs `work` against the instance's database: DATABASE_URL, or the embedded PostgreSQL
 * under SVC_DATA_DIR (the running server's, or one started for this command). It never
 * creates a database and never migrates: it refuses a missing database and a schema that
 * is not exactly this build's (see `migrate`).
 */
export async function withDatabase<T>(env: CliEnv, work: (db: Database, url: string) => Promise<T>): Promise<T> {
  const postgres = await openDatabase(env, { create: false });
  try {
    const state = await readMigrationState(postgres.url);
    if (state.status !== "up-to-date") throw new Error(refusalMessage(state));
    const db = createDatabase(postgres.url, { max: 2 });
    try {
      return await work(db, postgres.url);
    } finally {
      await db.$disconnect();
    }
  } finally {
    await postgres.stop();
  }
}

/**
 * `svc migrate`: applies this build's pending migrations and returns their names, plus
 * how many this build has. The only command that creates a new embedded database.
 */
export async function migrate(env: CliEnv): Promise<{ applied: string[]; total: number }> {
  const postgres = await openDatabase(env, { create: true });
  try {
    const state = await readMigrationState(postgres.url);
    if (state.status === "ahead" || state.status === "changed" || state.status === "failed") throw new Error(refusalMessage(state));
    const applied = await applyMigrations(postgres.url);
    return { applied, total: readMigrations().length };
  } finally {
    await postgres.stop();
  }
}

async function openDatabase(env: CliEnv, { create }: { create: boolean }): Promise<{ url: string; stop(): Promise<void> }> {
  if (env.DATABASE_URL) {
    say(`database: ${describeDatabaseUrl(env.DATABASE_URL)}`);
    return { url: env.DATABASE_URL, stop: async () => {} };
  }
  const dir = path.resolve(env.SVC_DATA_DIR, "postgres");
  if (!create && !embeddedPostgresExists(dir)) {
    throw new Error(
      `no database in ${dir}. Set SVC_DATA_DIR to the data folder of your instance (the server's), or DATABASE_URL to its ` +
        "PostgreSQL; for a new instance run `svc migrate` (or `npm start`), which creates one there.",
    );
  }
  const postgres = await openEmbeddedPostgres(dir, { create });
  say(`database: embedded PostgreSQL in ${dir} (${postgres.started ? "started for this command" : "already running"})`);
  if (postgres.created) announceNewDatabase(dir);
  return postgres;
}

function announceNewDatabase(dir: string): void {
  const rule = "!".repeat(78);
  say(rule);
  say(`!! CREATED A NEW, EMPTY DATABASE in ${dir}`);
  say("!! There was no DATABASE_URL and no database in SVC_DATA_DIR. If you meant an existing");
  say("!! instance, set SVC_DATA_DIR to its data folder (or DATABASE_URL) and run this again.");
  say(rule);
}

/** Host, port and database name: never the user, password or parameters of the URL. */
export function describeDatabaseUrl(url: string): string {
  try {
    const parsed = new URL(url);
    const socket = parsed.searchParams.get("host");
    return `${parsed.protocol}//${parsed.host || "localhost"}${parsed.pathname}${socket ? ` (host ${socket})` : ""}`;
  } catch {
    return "DATABASE_URL (not a URL)";
  }
}
