import { spawn } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { openEmbeddedPostgres } from "../src/embedded-postgres.ts";

const holderScript = path.resolve(import.meta.dirname, "hold-embedded-postgres.ts");

interface Holder {
  info: { started: boolean; created: boolean; port: number };
  /** Asks it to leave; resolves with its output after "stopped" and its exit code. */
  stop(): Promise<{ code: number | null; output: string }>;
  kill(): Promise<void>;
}

/** Another process opening the embedded PostgreSQL of `dir`, as a CLI command or the server does. */
function hold(dir: string): Promise<Holder> {
  const child = spawn(process.execPath, [holderScript, dir], { stdio: ["pipe", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const onData = () => {
      const line = output.split("\n").find((l) => l.startsWith("{"));
      if (!line) return;
      child.stdout.off("data", onData);
      resolve({
        info: JSON.parse(line) as Holder["info"],
        async stop() {
          child.stdin.end("stop\n");
          return { code: await exited, output };
        },
        async kill() {
          child.kill("SIGKILL");
          await exited;
        },
      });
    };
    child.stdout.on("data", onData);
    void exited.then((code) => reject(new Error(`holder exited with ${code} before opening: ${output}`)));
  });
}

function postmasterPid(dir: string): number | undefined {
  try {
    const pid = Number(readFileSync(path.join(dir, "postmaster.pid"), "utf8").split("\n")[0]);
    process.kill(pid, 0);
    return pid;
  } catch {
    return undefined;
  }
}

async function query(port: number): Promise<number> {
  const client = new pg.Client({ connectionString: `postgresql://postgres:svc-embedded@127.0.0.1:${port}/svc` });
  await client.connect();
  try {
    const { rows } = await client.query<{ one: number }>("SELECT 1 AS one");
    return rows[0]!.one;
  } finally {
    await client.end();
  }
}

const folders: string[] = [];

function newFolder(): string {
  const parent = mkdtempSync(path.join(tmpdir(), "svc-embedded-"));
  chmodSync(parent, 0o755); // the server runs as the postgres user
  folders.push(parent);
  return path.join(parent, "postgres");
}

afterEach(async () => {
  // Never leave a server behind, whatever a failed test left running.
  for (const parent of folders.splice(0)) {
    const pid = postmasterPid(path.join(parent, "postgres"));
    if (pid) {
      process.kill(pid, "SIGINT");
      while (postmasterPid(path.join(parent, "postgres"))) await sleep(50);
    }
    rmSync(parent, { recursive: true, force: true });
  }
});

describe("embedded PostgreSQL shared by several processes", () => {
  it("keeps a server running for a process that attached when the process that started it leaves", { timeout: 60_000 }, async () => {
    const dir = newFolder();
    const starter = await hold(dir);
    expect(starter.info).toMatchObject({ started: true, created: true });
    const attached = await openEmbeddedPostgres(dir);
    expect(attached).toMatchObject({ started: false, created: false, port: starter.info.port });

    expect((await starter.stop()).code).toBe(0);
    expect(await query(attached.port)).toBe(1);

    await attached.stop();
    expect(postmasterPid(dir)).toBeUndefined();
  });

  it("starts one server for processes opening a stopped folder at once; the last to leave stops it", { timeout: 90_000 }, async () => {
    const dir = newFolder();
    await (await openEmbeddedPostgres(dir)).stop(); // initialised, stopped

    const holders = await Promise.all([hold(dir), hold(dir), hold(dir)]);
    expect(holders.filter((h) => h.info.started)).toHaveLength(1);
    expect(new Set(holders.map((h) => h.info.port)).size).toBe(1);

    const results = await Promise.all(holders.map((h) => h.stop()));
    expect(results.map((r) => r.code)).toEqual([0, 0, 0]);
    expect(postmasterPid(dir)).toBeUndefined();
  });

  it("initialises a new folder once when processes open it at once", { timeout: 90_000 }, async () => {
    const dir = newFolder();
    const holders = await Promise.all([hold(dir), hold(dir)]);
    expect(holders.map((h) => h.info.created).sort()).toEqual([false, true]);
    await Promise.all(holders.map((h) => h.stop()));
    expect(postmasterPid(dir)).toBeUndefined();
  });

  it("stops a server whose starter was killed, when the last process using it leaves", { timeout: 60_000 }, async () => {
    const dir = newFolder();
    const starter = await hold(dir);
    await starter.kill();
    expect(postmasterPid(dir)).toBeDefined(); // killed without leaving: the server runs on

    const later = await openEmbeddedPostgres(dir);
    expect(later.started).toBe(false);
    await later.stop();
    expect(postmasterPid(dir)).toBeUndefined();
  });

  it("leaves a server it found running alone when something else started it", { timeout: 60_000 }, async () => {
    const dir = newFolder();
    const first = await openEmbeddedPostgres(dir);
    rmSync(`${dir}.users.json`); // as if started by another tool: no svc process recorded it
    const second = await openEmbeddedPostgres(dir);
    expect(second.started).toBe(false);
    await second.stop();
    expect(await query(first.port)).toBe(1);
    await first.stop();
  });

  it("with create: false refuses a folder or server without the database and creates nothing", { timeout: 30_000 }, async () => {
    const dir = newFolder();
    await expect(openEmbeddedPostgres(dir, { create: false })).rejects.toThrow(`no database in ${dir}`);
    expect(existsSync(dir)).toBe(false);
    expect(readdirSync(path.dirname(dir))).toEqual([]);

    const other = await openEmbeddedPostgres(dir, { database: "other" }); // a server without the `svc` database
    try {
      await expect(openEmbeddedPostgres(dir, { create: false })).rejects.toThrow(`no database "svc" in ${dir}`);
    } finally {
      await other.stop();
    }
    expect(postmasterPid(dir)).toBeUndefined();
  });

  it("says why when the server does not start", async () => {
    const dir = newFolder();
    await (await openEmbeddedPostgres(dir)).stop();
    // An option the server refuses makes it exit at once.
    const error: unknown = await openEmbeddedPostgres(dir, { port: 1 }).then(() => undefined, (reason: unknown) => reason);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toBe(`the embedded PostgreSQL in ${dir} did not start: FATAL: could not create any TCP/IP sockets`);
  });
});
