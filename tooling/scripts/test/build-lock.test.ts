import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";

const run = promisify(execFile);
const lockModule = path.resolve(import.meta.dirname, "../build-lock.mjs");
// run.mjs runs on the machine's own Node (20 here), before the workspace's Node 24 is installed.
const systemNode = existsSync("/usr/bin/node") ? "/usr/bin/node" : process.execPath;

/** A process that, under the lock, reads a counter, waits, and writes it back plus one: lost updates show overlap. */
function incrementUnderLock(dir: string) {
  const script = `
    import { readFileSync, writeFileSync } from "node:fs";
    import { withBuildLock } from ${JSON.stringify(lockModule)};
    withBuildLock(${JSON.stringify(path.join(dir, "lock"))}, () => {
      const count = Number(readFileSync(${JSON.stringify(path.join(dir, "count"))}, "utf8"));
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 150);
      writeFileSync(${JSON.stringify(path.join(dir, "count"))}, String(count + 1));
    }, { onWait: (owner) => console.error("waiting for " + owner) });
  `;
  return run(systemNode, ["--input-type=module", "-e", script]);
}

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function newDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "svc-build-lock-"));
  dirs.push(dir);
  writeFileSync(path.join(dir, "count"), "0");
  return dir;
}

describe("run.mjs build lock", () => {
  it("lets one process at a time in", { timeout: 30_000 }, async () => {
    const dir = newDir();
    await Promise.all(Array.from({ length: 5 }, () => incrementUnderLock(dir)));
    expect(readFileSync(path.join(dir, "count"), "utf8")).toBe("5");
    expect(readdirSync(dir).sort()).toEqual(["count"]); // no lock or staging folder left
  });

  it("waits for a live owner, says so once, and goes on when it lets go", { timeout: 30_000 }, async () => {
    const dir = newDir();
    mkdirSync(path.join(dir, "lock"));
    writeFileSync(path.join(dir, "lock", "owner"), String(process.pid)); // this test process holds it
    const waiting = incrementUnderLock(dir);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(readFileSync(path.join(dir, "count"), "utf8")).toBe("0");
    rmSync(path.join(dir, "lock"), { recursive: true });
    const result = await waiting;
    expect(result.stderr).toBe(`waiting for ${process.pid}\n`);
    expect(readFileSync(path.join(dir, "count"), "utf8")).toBe("1");
  });

  it("breaks a lock whose owner is gone (killed while installing)", { timeout: 30_000 }, async () => {
    const dir = newDir();
    const { stdout: deadPid } = await run(systemNode, ["-e", "console.log(process.pid)"]);
    mkdirSync(path.join(dir, "lock"));
    writeFileSync(path.join(dir, "lock", "owner"), deadPid.trim());
    const result = await incrementUnderLock(dir);
    expect(readFileSync(path.join(dir, "count"), "utf8")).toBe("1");
    expect(result.stderr).toBe("");
  });
});
