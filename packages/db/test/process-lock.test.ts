import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { withProcessLock } from "../src/process-lock.ts";

const run = promisify(execFile);
const lockModule = path.resolve(import.meta.dirname, "../src/process-lock.ts");

/** Another process that, under the lock, reads a counter, waits, and writes it back plus one: lost updates show overlap. */
function incrementUnderLock(dir: string) {
  const count = JSON.stringify(path.join(dir, "count"));
  const script = `
    import { readFileSync, writeFileSync } from "node:fs";
    import { setTimeout as sleep } from "node:timers/promises";
    import { withProcessLock } from ${JSON.stringify(lockModule)};
    await withProcessLock(${JSON.stringify(path.join(dir, "lock"))}, async () => {
      const value = Number(readFileSync(${count}, "utf8"));
      await sleep(150);
      writeFileSync(${count}, String(value + 1));
    });
  `;
  return run(process.execPath, ["--input-type=module", "-e", script]);
}

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function newDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "svc-process-lock-"));
  dirs.push(dir);
  writeFileSync(path.join(dir, "count"), "0");
  return dir;
}

describe("withProcessLock", () => {
  it("lets one process at a time in and leaves nothing behind", { timeout: 30_000 }, async () => {
    const dir = newDir();
    await Promise.all(Array.from({ length: 5 }, () => incrementUnderLock(dir)));
    expect(readFileSync(path.join(dir, "count"), "utf8")).toBe("5");
    expect(readdirSync(dir)).toEqual(["count"]);
  });

  it("breaks a lock whose owner died holding it, and waits for a live one", { timeout: 30_000 }, async () => {
    const dir = newDir();
    const { stdout: deadPid } = await run(process.execPath, ["-e", "console.log(process.pid)"]);
    mkdirSync(path.join(dir, "lock"));
    writeFileSync(path.join(dir, "lock", "owner"), deadPid.trim());
    await incrementUnderLock(dir);
    expect(readFileSync(path.join(dir, "count"), "utf8")).toBe("1");

    let other: Promise<unknown> | undefined;
    let countWhileHeld = "";
    await withProcessLock(path.join(dir, "lock"), async () => {
      other = incrementUnderLock(dir);
      await sleep(1000);
      countWhileHeld = readFileSync(path.join(dir, "count"), "utf8");
    });
    await other;
    expect(countWhileHeld).toBe("1"); // the other process waited
    expect(readFileSync(path.join(dir, "count"), "utf8")).toBe("2");
  });
});
